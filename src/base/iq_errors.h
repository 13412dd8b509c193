/* The one list of error and warning kinds. Each X-macro expands twice: once into
 * the enum in interquake.h and once into the table of stable names that JS
 * exposes as InterquakeError.code (so C and JS can never drift apart). Codes
 * that only JS raises (archives, the WASM loader, the viewer) are listed here
 * too: JS reads this table at init and refuses a code that is not in it. */
#ifndef IQ_ERRORS_H
#define IQ_ERRORS_H

/* X(ENUM_SUFFIX, "stable_code", "what it means") */
#define IQ_ERROR_LIST(X) \
    X(NONE,             "none",             "no error") \
    X(INVALID_ARGUMENT, "invalid_argument", "invalid argument") \
    X(OUT_OF_MEMORY,    "out_of_memory",    "out of memory") \
    X(LIMIT,            "limit",            "a count or size is over a documented limit") \
    X(UNKNOWN_FORMAT,   "unknown_format",   "not an IQM, IQE or MD3 file") \
    X(BAD_MAGIC,        "bad_magic",        "wrong magic bytes") \
    X(BAD_VERSION,      "bad_version",      "unsupported format version") \
    X(BAD_FILESIZE,     "bad_filesize",     "the header's file size does not fit the data") \
    X(TRUNCATED,        "truncated",        "the file ends before a structure it declares") \
    X(OUT_OF_RANGE,     "out_of_range",     "a section lies outside the file") \
    X(BAD_STRING,       "bad_string",       "a string offset or string is invalid") \
    X(BAD_VERTEX_ARRAY, "bad_vertex_array", "a vertex array declaration is invalid") \
    X(BAD_MESH,         "bad_mesh",         "a mesh range is invalid") \
    X(BAD_INDEX,        "bad_index",        "an index points outside its target") \
    X(BAD_HIERARCHY,    "bad_hierarchy",    "the joint hierarchy is invalid") \
    X(BAD_VALUE,        "bad_value",        "a number is not finite or not usable") \
    X(BAD_ANIMATION,    "bad_animation",    "poses, frames or animations do not fit together") \
    X(BAD_EXTENSION,    "bad_extension",    "the extension list is invalid") \
    X(SYNTAX,           "syntax",           "syntax error") \
    X(UNSUPPORTED,      "unsupported",      "a valid feature this library does not read, or a request the target format cannot express") \
    X(SKELETON_MISMATCH, "skeleton_mismatch", "two skeletons that must match do not") \
    X(BAD_CHECKSUM,     "bad_checksum",     "an archive entry's CRC-32 does not match its data") \
    X(BAD_DEFLATE,      "bad_deflate",      "an archive entry's deflate stream is invalid") \
    X(MISSING_FILE,     "missing_file",     "a file the model or player needs is not there") \
    X(DISPOSED,         "disposed",         "the object was disposed") \
    X(WASM_UNAVAILABLE, "wasm_unavailable", "the WebAssembly module could not be fetched or compiled") \
    X(WASM_MISMATCH,    "wasm_mismatch",    "the WebAssembly module does not match the JS that loads it") \
    X(UNAVAILABLE,      "unavailable",      "a part the call needs (an inflater for deflated entries) is not available") \
    X(WEBGL2_UNAVAILABLE, "webgl2_unavailable", "the browser gives no WebGL2 context") \
    X(FETCH_FAILED,     "fetch_failed",     "a URL could not be fetched (network error or HTTP status)") \
    X(MISSING_MAIN_FILE, "missing_main_file", "none of the files given is a model or player to open") \
    X(INTERNAL,         "internal",         "an unexpected failure inside interquake (a bug: please report it)") \
    X(NOT_LOADED,       "not_loaded",       "nothing is loaded yet") \
    X(SCREENSHOT_FAILED, "screenshot_failed", "the picture could not be read back")

/* Non-fatal oddities: the model loads, and the caller is told. */
#define IQ_WARNING_LIST(X) \
    X(TRAILING_BYTES,     "trailing_bytes",     "bytes after the end the header declares were ignored") \
    X(MISALIGNED,         "misaligned",         "a section is not aligned as the spec asks; it was read anyway") \
    X(STRAY_OFFSET,       "stray_offset",       "an empty section has a non-zero offset") \
    X(IGNORED_DATA,       "ignored_data",       "data the format allows but this loader does not use was ignored") \
    X(REPAIRED,           "repaired",           "an inconsistency was repaired") \
    X(NO_BIND_POSE,       "no_bind_pose",       "animation-only data: joints have no names or bind pose") \
    X(EMPTY,              "empty",              "an element is empty") \
    X(OVER_LIMIT,         "over_limit",         "a count is over the format's written limit; loaded as engines load it") \
    X(DUPLICATE_NAME,     "duplicate_name",     "two elements share a name; lookups by name find the first") \
    X(NONSTANDARD,        "nonstandard",        "a value the spec rules out but engines accept; loaded anyway")

#endif
