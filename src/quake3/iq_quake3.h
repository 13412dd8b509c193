/* interquake: the companion files of a Quake 3 player, and .pk3 (zip) archives.
 *
 *   animation.cfg   iq_q3_parse_animation_cfg  (cgame's CG_ParseAnimationFile rules)
 *   <part>_<n>.skin iq_q3_parse_skin           (the renderer's RE_RegisterSkin rules)
 *   .pk3 / .zip     iq_zip_open                (the central directory; entries are
 *                                               inflated by the caller: the JS API uses fflate)
 *
 * All three take untrusted bytes, never read outside them, fill fixed-size
 * results (or, for zip, one allocation bounded by the entry-count limit) and
 * report errors through the same iq_error as the model loaders, with a line and
 * column for the text formats and a byte offset for zip. See docs/formats.md
 * section 2 for the Quake 3 rules and docs/API-q3.md for the deliberate
 * differences from Quake 3.
 */
#ifndef IQ_QUAKE3_H
#define IQ_QUAKE3_H

#include "interquake.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- animation.cfg */

/* Quake 3's animation numbers (bg_public.h animNumber_t) for the 31 table
 * entries, then the two derived backward animations. The CTF flag animations
 * (FLAG_*) belong to the flag model and are not produced. */
#define IQ_Q3_ANIMATIONS(X) \
    X(BOTH_DEATH1) X(BOTH_DEAD1) X(BOTH_DEATH2) X(BOTH_DEAD2) X(BOTH_DEATH3) X(BOTH_DEAD3) \
    X(TORSO_GESTURE) X(TORSO_ATTACK) X(TORSO_ATTACK2) X(TORSO_DROP) X(TORSO_RAISE) X(TORSO_STAND) X(TORSO_STAND2) \
    X(LEGS_WALKCR) X(LEGS_WALK) X(LEGS_RUN) X(LEGS_BACK) X(LEGS_SWIM) X(LEGS_JUMP) X(LEGS_LAND) X(LEGS_JUMPB) \
    X(LEGS_LANDB) X(LEGS_IDLE) X(LEGS_IDLECR) X(LEGS_TURN) \
    X(TORSO_GETFLAG) X(TORSO_GUARDBASE) X(TORSO_PATROL) X(TORSO_FOLLOWME) X(TORSO_AFFIRMATIVE) X(TORSO_NEGATIVE) \
    X(LEGS_BACKCR) X(LEGS_BACKWALK)

typedef enum iq_q3_animation_id {
#define IQ_X(name) IQ_Q3_##name,
    IQ_Q3_ANIMATIONS(IQ_X)
#undef IQ_X
    IQ_Q3_ANIMATION_COUNT
} iq_q3_animation_id;

#define IQ_Q3_REQUIRED_ENTRIES 25 /* BOTH_DEATH1 .. LEGS_TURN */
#define IQ_Q3_TABLE_ENTRIES 31    /* plus the six Team Arena torso animations */
#define IQ_Q3_CFG_MAX_BYTES 19998 /* cgame reads into char[20000] and refuses len >= 19999 */

typedef struct iq_q3_animation {
    int32_t first_frame;      /* frame in the part's MD3; LEGS_* already rebased onto lower.md3 */
    uint32_t frame_count;     /* |numFrames| */
    uint32_t loop_frames;     /* the last loop_frames frames repeat; 0 = hold the last frame */
    float fps;                /* as written, 0 became 1 */
    uint32_t frame_lerp;      /* milliseconds per frame, (int)(1000 / fps) as cgame computes it */
    uint32_t reversed;        /* 1: numFrames was negative (and LEGS_BACKCR, LEGS_BACKWALK) */
    uint32_t from_file;       /* 0: a Team Arena default (copied from TORSO_GESTURE) or derived */
    uint32_t line;            /* line of the entry in the file, 0 when not from the file */
} iq_q3_animation;

typedef enum iq_q3_footsteps {
    IQ_Q3_FOOTSTEPS_NORMAL = 0, IQ_Q3_FOOTSTEPS_BOOT, IQ_Q3_FOOTSTEPS_FLESH, IQ_Q3_FOOTSTEPS_MECH,
    IQ_Q3_FOOTSTEPS_ENERGY
} iq_q3_footsteps;

typedef struct iq_q3_config {
    iq_q3_animation animations[IQ_Q3_ANIMATION_COUNT];
    uint32_t table_entries;   /* entries the file gave: 25..31 */
    int32_t legs_skip;        /* first[LEGS_WALKCR] - first[TORSO_GESTURE], as written */
    uint32_t sex;             /* 'm' (default), 'f' or 'n' */
    uint32_t footsteps;       /* iq_q3_footsteps */
    float head_offset[3];
    uint32_t fixed_legs, fixed_torso;
    uint32_t warning_count;   /* oddities cgame accepts (unknown words, extra numbers...) */
    char warning[160];        /* the first of them */
} iq_q3_config;

/* Parses animation.cfg. Returns IQ_ERROR_NONE (0), or an error code with
 * *error filled (line and column set). */
iq_error_code iq_q3_parse_animation_cfg(const void *text, size_t size, iq_q3_config *out, iq_error *error);
const char *iq_q3_animation_name(unsigned id); /* "LEGS_RUN"; NULL past the end */

/* Where a part is `time` seconds after `anim` started, stepped as cgame's
 * CG_RunLerpFrame does: frame k shows from k * frame_lerp ms, then lerps to
 * k + 1; past the end a looping animation repeats its last loop_frames
 * frames, any other holds its last frame (finished = 1); reversed ones run
 * backwards. Frames are clamped to the part's part_frames frames. duration
 * is one pass (frame_count * frame_lerp ms); loops counts entries into the
 * looping section; position is the frame step inside the animation.
 * Returns 0 or IQ_ERROR_INVALID_ARGUMENT (time not finite). */
iq_error_code iq_q3_playhead(const iq_q3_animation *anim, double time, uint32_t part_frames, iq_playhead *out);

/* -- .skin */

#define IQ_SKIN_MAX_SURFACES 256  /* MAX_SKIN_SURFACES; later lines are ignored, as Quake 3 does */
#define IQ_SKIN_NAME_SIZE 64      /* MAX_QPATH, for surface names */
#define IQ_SKIN_SHADER_SIZE 256

typedef struct iq_skin_surface {
    char name[IQ_SKIN_NAME_SIZE];     /* lower-cased */
    char shader[IQ_SKIN_SHADER_SIZE]; /* as written; "" when the line has none */
    uint32_t line;
} iq_skin_surface;

typedef struct iq_skin {
    uint32_t surface_count;
    uint32_t warning_count;
    char warning[160];
    iq_skin_surface surfaces[IQ_SKIN_MAX_SURFACES];
} iq_skin;

/* Parses a .skin file. Returns IQ_ERROR_NONE (0), or an error code with *error
 * filled (line and column set). */
iq_error_code iq_q3_parse_skin(const void *text, size_t size, iq_skin *out, iq_error *error);

/* -- zip / .pk3 central directory */

typedef struct iq_zip_limits {
    uint32_t max_entries;      /* default 65535 (all a zip without ZIP64 can hold) */
    uint32_t max_name_length;  /* default 1024 bytes */
    uint64_t max_total_size;   /* sum of the declared uncompressed sizes; default 2 GiB */
    uint32_t max_ratio;        /* uncompressed / compressed for deflate; default IQ_ZIP_DEFAULT_MAX_RATIO */
} iq_zip_limits;

/* Deflate tops out near 1032:1 (a 258-byte match in 2 bits); the most
 * compressed real entry measured in OpenArena's pk3s is a flat sky TGA at
 * 894:1 (docs/API-q3.md). 1000 refuses a maximally compressed bomb and keeps
 * every real file. */
#define IQ_ZIP_DEFAULT_MAX_RATIO 1000

#define IQ_ZIP_STORED 0
#define IQ_ZIP_DEFLATE 8
#define IQ_ZIP_FLAG_ENCRYPTED 1u

typedef struct iq_zip_entry {
    uint32_t name_offset, name_length; /* the name's bytes inside the archive (central directory copy) */
    uint32_t data_offset;              /* first byte of the entry's (compressed) data; set by the local-header step */
    uint32_t compressed_size, uncompressed_size, crc32;
    uint16_t method, flags;            /* as stored; the reader refuses what it cannot decode */
    uint32_t local_offset;             /* its local header */
} iq_zip_entry;

typedef struct iq_zip_directory {
    uint64_t archive_size;
    uint64_t offset, size;     /* the central directory's bytes */
    uint64_t end_record;       /* where the end-of-central-directory record starts */
    uint32_t entry_count;
} iq_zip_directory;

typedef struct iq_zip {
    uint32_t entry_count;
    iq_zip_entry *entries;     /* in central directory order */
    uint64_t total_size;       /* sum of uncompressed sizes */
    uint32_t warning_count;
    char warning[160];
    iq_zip_directory directory;
    uint8_t *names;            /* the directory's entry records (names inside); for messages */
} iq_zip;

/* Reads and checks a whole archive in memory: the three steps below in order.
 * Every entry's local header and data lie inside the archive and before the
 * directory, sizes are consistent and within the limits (a zip bomb is refused
 * here, before anything is inflated). NULL limits = defaults. Returns NULL with
 * *error filled on failure. Offsets in errors are from the archive's start. */
iq_zip *iq_zip_open(const void *data, size_t size, const iq_zip_limits *limits, iq_error *error);
void iq_zip_free(iq_zip *zip);

/* The same work in three steps, for callers that keep the archive elsewhere
 * (the JS API copies only these parts into the WASM heap, not the archive);
 * steps 1 and 3 return IQ_ERROR_NONE (0) or an error code with *error filled,
 * step 2 the directory or NULL with *error filled:
 * 1. the end record, from the archive's last tail_size bytes (65557 are always
 *    enough: a 22-byte record after a comment of at most 65535 bytes); */
iq_error_code iq_zip_find_directory(const void *tail, size_t tail_size, uint64_t archive_size, const iq_zip_limits *limits,
                                    iq_zip_directory *out, iq_error *error);
/* 2. the directory's dir->size bytes (from dir->offset): entries without data offsets yet; */
iq_zip *iq_zip_read_directory(const void *directory, const iq_zip_directory *dir, const iq_zip_limits *limits,
                              iq_error *error);
/* 3. the first 30 bytes of each entry's local header, entry after entry
 *    (entry_count * 30 bytes): checks them, sets every data_offset and refuses
 *    entries whose bytes overlap. entry_count may exceed the end record's
 *    count (step 2 reads an understated count through, with a warning). */
iq_error_code iq_zip_check_local_headers(iq_zip *zip, const void *headers, size_t size, iq_error *error);

#ifdef __cplusplus
}
#endif
#endif
