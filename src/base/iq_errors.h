/* The C's list of error and warning kinds. Each X-macro expands twice: once into
 * the enum in interquake.h and once into the table of stable names that JS
 * exposes as InterquakeError.code (so C and JS can never drift apart). Only
 * codes the C raises are here; codes only JS raises have their own lists, a
 * layer each, as this one is the C's: the library's in web/core/wasm.js
 * (JS_ERRORS: the WASM loader, archives' inflate and CRC, missing files), the
 * viewer's in web/viewer/errors.js (VIEWER_ERRORS). tools/gen-types.mjs joins
 * the three into the ErrorCode type. */
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
    X(DISPOSED,         "disposed",         "the object was disposed (a stale WASM handle)") \
    X(INTERNAL,         "internal",         "an unexpected failure inside interquake (a bug: please report it)")

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
