/* interquake: Quake 3 shader scripts (scripts/NAME.shader).
 *
 *   iq_shader_parse        one script's text into fixed-size records (iq_shader.c,
 *                          iq_shader_internal.h lists the reader's files)
 *   iq_shader_find         a surface's or skin's shader name to its block (iq_shader_names.c)
 *   iq_shader_wave_value   ... and the per-frame maths (iq_shader_eval.c): waves,
 *   iq_shader_stage_eval   colours, texture matrices, tcGen, deforms, lighting,
 *                          each as ioquake3's renderer (tr_shade_calc.c) computes it
 *
 * The supported subset, the limits and what is left are in docs/SHADERS.md.
 * Text is untrusted: the parser never reads outside it, every count has a
 * documented limit, and what cannot be read fails with a line and column in
 * the same iq_error as the model loaders. Keywords it does not know are kept
 * (the shader still loads, where Quake 3 would drop it) and listed as notes. */
#ifndef IQ_SHADER_H
#define IQ_SHADER_H

#include "interquake.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Limits (docs/SHADERS.md) */
#define IQ_SHADER_MAX_BYTES (4u << 20)   /* a script; OpenArena's largest is 88 KB */
#define IQ_SHADER_MAX_SHADERS 4096       /* blocks per script; OpenArena's most is 392 */
#define IQ_SHADER_MAX_STAGES 8           /* MAX_SHADER_STAGES */
#define IQ_SHADER_MAX_FRAMES 8           /* animMap images: MAX_IMAGE_ANIMATIONS; more are noted and ignored */
#define IQ_SHADER_MAX_TCMODS 4           /* TR_MAX_TEXMODS per stage */
#define IQ_SHADER_MAX_DEFORMS 3          /* MAX_SHADER_DEFORMS; more are noted and ignored */
#define IQ_SHADER_MAX_TOKEN 1023         /* MAX_TOKEN_CHARS - 1 */
#define IQ_SHADER_MAX_NAME 63            /* MAX_QPATH - 1: shader and image names */
#define IQ_SHADER_MAX_NOTES 256          /* notes kept per script; note_count counts them all */
#define IQ_SHADER_MAX_VALUE 1e9          /* any number in a script, in magnitude */

/* -- Enums. 0 is always "none / not given" where that means something. Each
 * is an X-macro list, X(ENUM_SUFFIX, "name JS reads"), expanded here into the
 * enum (values 0, 1, ... in list order) and in wasm/iq_wasm_tables.c into the
 * constant table, so the C and the names JS sees cannot drift apart. */
#define IQ_SHADER_WAVES(X) \
    X(NONE, "none") X(SIN, "sin") X(SQUARE, "square") X(TRIANGLE, "triangle") X(SAWTOOTH, "sawtooth") \
    X(INVERSE_SAWTOOTH, "inverseSawtooth") X(NOISE, "noise")
/* GL blend factors. A stage blends when blend_src != IQ_BLEND_NONE; "GL_ONE GL_ZERO"
 * is stored as none/none, as Quake 3 does. */
#define IQ_SHADER_BLENDS(X) \
    X(NONE, "none") X(ONE, "GL_ONE") X(ZERO, "GL_ZERO") X(DST_COLOR, "GL_DST_COLOR") \
    X(ONE_MINUS_DST_COLOR, "GL_ONE_MINUS_DST_COLOR") X(SRC_ALPHA, "GL_SRC_ALPHA") \
    X(ONE_MINUS_SRC_ALPHA, "GL_ONE_MINUS_SRC_ALPHA") X(DST_ALPHA, "GL_DST_ALPHA") \
    X(ONE_MINUS_DST_ALPHA, "GL_ONE_MINUS_DST_ALPHA") X(SRC_ALPHA_SATURATE, "GL_SRC_ALPHA_SATURATE") \
    X(SRC_COLOR, "GL_SRC_COLOR") X(ONE_MINUS_SRC_COLOR, "GL_ONE_MINUS_SRC_COLOR")
#define IQ_SHADER_ALPHA_FUNCS(X) X(ALL, "all") X(GT0, "GT0") X(LT128, "LT128") X(GE128, "GE128")
#define IQ_SHADER_DEPTH_FUNCS(X) X(LEQUAL, "lequal") X(EQUAL, "equal")
/* Which faces are drawn: front (the default; Quake 3's CT_FRONT_SIDED culls the back), back, both. */
#define IQ_SHADER_CULLS(X) X(FRONT, "front") X(BACK, "back") X(NONE, "none")
#define IQ_SHADER_MAPS(X) \
    X(NONE, "none")         /* no map line: Quake 3 drops such a stage ("stage with no image") */ \
    X(IMAGE, "image")       /* map, clampMap (clamp = 1) or animMap (frame_count > 1) */ \
    X(WHITE, "white")       /* $whiteimage */ \
    X(LIGHTMAP, "lightmap") /* $lightmap: a model has none; draw as white or skip (docs) */
#define IQ_SHADER_RGBGENS(X) \
    X(IDENTITY_LIGHTING, "identityLighting") X(IDENTITY, "identity") X(ENTITY, "entity") \
    X(ONE_MINUS_ENTITY, "oneMinusEntity") X(VERTEX, "vertex") X(EXACT_VERTEX, "exactVertex") \
    X(ONE_MINUS_VERTEX, "oneMinusVertex") X(LIGHTING_DIFFUSE, "lightingDiffuse") X(WAVE, "wave") X(CONST, "const")
#define IQ_SHADER_ALPHAGENS(X) \
    X(IDENTITY, "identity") X(CONST, "const") X(WAVE, "wave") X(ENTITY, "entity") \
    X(ONE_MINUS_ENTITY, "oneMinusEntity") X(VERTEX, "vertex") X(ONE_MINUS_VERTEX, "oneMinusVertex") \
    X(LIGHTING_SPECULAR, "lightingSpecular") X(PORTAL, "portal")
#define IQ_SHADER_TCGENS(X) X(BASE, "base") X(ENVIRONMENT, "environment") X(VECTOR, "vector") X(LIGHTMAP, "lightmap")
#define IQ_SHADER_TCMODS(X) \
    X(NONE, "none") X(SCROLL, "scroll") X(SCALE, "scale") X(ROTATE, "rotate") X(STRETCH, "stretch") \
    X(TURB, "turb") X(TRANSFORM, "transform") X(ENTITY_TRANSLATE, "entityTranslate")
#define IQ_SHADER_DEFORMS(X) \
    X(NONE, "none") X(WAVE, "wave") X(NORMAL, "normal") X(BULGE, "bulge") X(MOVE, "move") \
    X(AUTOSPRITE, "autosprite") X(AUTOSPRITE2, "autosprite2") X(PROJECTION_SHADOW, "projectionShadow") X(TEXT, "text")

#define IQ_X(name, word) IQ_WAVE_##name,
typedef enum iq_shader_wave_func { IQ_SHADER_WAVES(IQ_X) } iq_shader_wave_func;
#undef IQ_X
#define IQ_X(name, word) IQ_BLEND_##name,
typedef enum iq_shader_blend { IQ_SHADER_BLENDS(IQ_X) } iq_shader_blend;
#undef IQ_X
#define IQ_X(name, word) IQ_ALPHA_##name,
typedef enum iq_shader_alpha_func { IQ_SHADER_ALPHA_FUNCS(IQ_X) } iq_shader_alpha_func;
#undef IQ_X
#define IQ_X(name, word) IQ_DEPTH_##name,
typedef enum iq_shader_depth_func { IQ_SHADER_DEPTH_FUNCS(IQ_X) } iq_shader_depth_func;
#undef IQ_X
#define IQ_X(name, word) IQ_CULL_##name,
typedef enum iq_shader_cull { IQ_SHADER_CULLS(IQ_X) } iq_shader_cull;
#undef IQ_X
#define IQ_X(name, word) IQ_MAP_##name,
typedef enum iq_shader_map { IQ_SHADER_MAPS(IQ_X) } iq_shader_map;
#undef IQ_X
#define IQ_X(name, word) IQ_RGBGEN_##name,
typedef enum iq_shader_rgbgen { IQ_SHADER_RGBGENS(IQ_X) } iq_shader_rgbgen;
#undef IQ_X
#define IQ_X(name, word) IQ_ALPHAGEN_##name,
typedef enum iq_shader_alphagen { IQ_SHADER_ALPHAGENS(IQ_X) } iq_shader_alphagen;
#undef IQ_X
#define IQ_X(name, word) IQ_TCGEN_##name,
typedef enum iq_shader_tcgen { IQ_SHADER_TCGENS(IQ_X) } iq_shader_tcgen;
#undef IQ_X
#define IQ_X(name, word) IQ_TCMOD_##name,
typedef enum iq_shader_tcmod_type { IQ_SHADER_TCMODS(IQ_X) } iq_shader_tcmod_type;
#undef IQ_X
#define IQ_X(name, word) IQ_DEFORM_##name,
typedef enum iq_shader_deform_type { IQ_SHADER_DEFORMS(IQ_X) } iq_shader_deform_type;
#undef IQ_X

/* The words 'sort' takes (ParseSort) and their shaderSort_t values; `sort`
 * may also be any number. */
#define IQ_SHADER_SORTS(X) \
    X(PORTAL, "portal", 1) X(SKY, "sky", 2) X(OPAQUE, "opaque", 3) X(DECAL, "decal", 4) \
    X(SEE_THROUGH, "seeThrough", 5) X(BANNER, "banner", 6) X(UNDERWATER, "underwater", 8) \
    X(ADDITIVE, "additive", 10) X(NEAREST, "nearest", 16)

typedef enum iq_shader_sort {
#define IQ_X(name, word, value) IQ_SORT_##name = value,
    IQ_SHADER_SORTS(IQ_X)
#undef IQ_X
    IQ_SORT_BLEND0 = 9              /* what a blended shader without 'sort' gets (SS_BLEND0) */
} iq_shader_sort;

/* Shader flags, X(NAME, "name JS reads", bit). */
#define IQ_SHADER_FLAGS(X) \
    X(NOMIPMAPS, "nomipmaps", 1u) X(NOPICMIP, "nopicmip", 2u) X(POLYGON_OFFSET, "polygonOffset", 4u) \
    X(SKY, "sky", 8u)                  /* skyparms (ignored, noted) */ \
    X(PORTAL, "portal", 16u) \
    X(FOG, "fog", 32u)                 /* fogparms (ignored, noted) */ \
    X(ENTITY_MERGABLE, "entityMergable", 64u) \
    X(REFUSED, "refused", 128u)        /* no stages, or more than 8: Quake 3 shows its default shader instead */
#define IQ_X(name, word, bit) IQ_SHADER_##name = bit,
enum { IQ_SHADER_FLAGS(IQ_X) };
#undef IQ_X

#define IQ_SHADER_NOTES(X) \
    X(UNKNOWN_KEYWORD, "unknown_keyword") /* not a keyword we know: the rest of its line is skipped */ \
    X(UNKNOWN_VALUE, "unknown_value")     /* a known keyword with a value it does not take: Quake 3's fallback is used */ \
    X(IGNORED, "ignored")                 /* known and deliberately not used (skyparms, fogparms, videoMap, ...) */ \
    X(OVER_LIMIT, "over_limit")           /* animMap frames or deforms past the limit: the extra ones are ignored */
#define IQ_X(name, word) IQ_NOTE_##name,
typedef enum iq_shader_note_kind { IQ_SHADER_NOTES(IQ_X) } iq_shader_note_kind;
#undef IQ_X

/* -- Records (fixed size; JS reads them by the layout table in iq_wasm_tables.c) */

typedef struct iq_shader_wave {
    uint32_t func;                  /* iq_shader_wave_func */
    float base, amplitude, phase, frequency;
} iq_shader_wave;

typedef struct iq_shader_tcmod {
    uint32_t type;                  /* iq_shader_tcmod_type */
    /* scroll: s/sec, t/sec; scale: s, t; rotate: degrees/sec; transform:
     * m00 m01 m10 m11 t0 t1 as written (s' = s*m00 + t*m10 + t0, t' = s*m01 + t*m11 + t1) */
    float params[6];
    iq_shader_wave wave;            /* stretch; turb (func = sin: base, amplitude, phase, frequency) */
} iq_shader_tcmod;

typedef struct iq_shader_image { const char *name; } iq_shader_image;

typedef struct iq_shader_stage {
    uint32_t map;                   /* iq_shader_map */
    uint32_t clamp;                 /* clampMap */
    uint32_t frame_count;           /* images given: 1 for map/clampMap, 1..8 for animMap */
    float anim_frequency;           /* animMap frames per second */
    iq_shader_image images[IQ_SHADER_MAX_FRAMES]; /* NULL past frame_count (and for $whiteimage, $lightmap) */
    uint32_t blend_src, blend_dst;  /* iq_shader_blend */
    uint32_t alpha_func;            /* iq_shader_alpha_func */
    uint32_t depth_func;            /* iq_shader_depth_func */
    uint32_t depth_write;           /* 1 unless the stage blends (and depthWrite is not given) */
    uint32_t rgb_gen, alpha_gen;    /* resolved as Quake 3 resolves them (defaults included) */
    iq_shader_wave rgb_wave, alpha_wave;
    float constant[4];              /* rgbGen const ( r g b ), alphaGen const a: as written, 0..1 */
    uint32_t tcgen;                 /* iq_shader_tcgen */
    float tcgen_vectors[6];         /* tcGen vector ( s.x s.y s.z ) ( t.x t.y t.z ) */
    uint32_t tcmod_count;
    iq_shader_tcmod tcmods[IQ_SHADER_MAX_TCMODS];
    float portal_range;             /* alphaGen portal <range> (256 when not given) */
    uint32_t detail;                /* 'detail' (Quake 3 drops it unless r_detailTextures) */
    uint32_t line;                  /* of the stage's '{' */
} iq_shader_stage;

typedef struct iq_shader_deform {
    uint32_t type;                  /* iq_shader_deform_type */
    float spread;                   /* wave: 1 / div (100 when div is 0, as Quake 3) */
    iq_shader_wave wave;            /* wave, move; normal: amplitude and frequency */
    float vector[3];                /* move */
    float bulge_width, bulge_height, bulge_speed;
} iq_shader_deform;

typedef struct iq_q3_shader {
    const char *name;               /* as written */
    uint32_t line, column;          /* of the name */
    uint32_t flags;                 /* IQ_SHADER_NOMIPMAPS ... */
    uint32_t cull;                  /* iq_shader_cull */
    float sort_given;               /* 'sort' as written (named or numeric), 0 when none */
    float sort;                     /* the sort Quake 3's FinishShader settles on */
    uint32_t stage_count;
    uint32_t deform_count;
    iq_shader_deform deforms[IQ_SHADER_MAX_DEFORMS];
    iq_shader_stage stages[IQ_SHADER_MAX_STAGES];
} iq_q3_shader;

typedef struct iq_shader_note {
    const char *keyword;            /* the word as written */
    uint32_t kind;                  /* iq_shader_note_kind */
    uint32_t shader;                /* index of the shader it is in */
    uint32_t line, column;
    char detail[64];                /* the rest of its line, or what was done instead */
} iq_shader_note;

typedef struct iq_shader_script {
    uint32_t shader_count;
    uint32_t stage_count;           /* over every shader */
    iq_q3_shader *shaders;             /* in the order written */
    uint32_t note_count;            /* every note; the first IQ_SHADER_MAX_NOTES are in notes */
    uint32_t notes_kept;
    iq_shader_note notes[IQ_SHADER_MAX_NOTES];
    char *strings;                  /* every name above points in here */
} iq_shader_script;

/* Parses one script. Returns the script (free with iq_shader_free), or NULL
 * with *error filled (line and column of what could not be read). */
iq_shader_script *iq_shader_parse(const void *text, size_t size, iq_error *error);
void iq_shader_free(iq_shader_script *script);

/* The shader a model or skin names, as Quake 3's R_FindShader finds it: the
 * extension is dropped from `name` ("models/players/sarge/band.tga" finds
 * "models/players/sarge/band"), the comparison ignores case and reads '\' as
 * '/', and the FIRST block of that name wins. Across scripts Quake 3 reads
 * the files joined in the reverse of the order its file system lists them,
 * so pass `scripts` in that order (iq_shader_find_in); docs/SHADERS.md.
 * Returns the index in script->shaders, or -1. */
int32_t iq_shader_find(const iq_shader_script *script, const char *name);
/* The same over several scripts, the first match winning; *which gets the
 * script's index (may be NULL). */
const iq_q3_shader *iq_shader_find_in(const iq_shader_script *const *scripts, uint32_t count, const char *name,
                                   uint32_t *which);
/* A sort value's name ("opaque", "additive", ...), or NULL when it has none. */
const char *iq_shader_sort_name(float sort);

/* -- Per-frame maths (iq_shader_eval.c). Pure functions: no state, no allocation. */

/* What the renderer knows besides the shader. Positions, normals and
 * directions are in the model's space. iq_shader_env_default fills Quake 3's
 * values for an entity lit without a world (R_SetupEntityLighting). */
typedef struct iq_shader_env {
    double time;                    /* shader time in seconds */
    float entity_color[4];          /* the entity's shaderRGBA, 0..1 (default 1 1 1 1) */
    float entity_texcoord[2];       /* tcMod entityTranslate: shaderTexCoord per second (default 0 0) */
    float identity_light;           /* tr.identityLight: 1 without overbright bits (default) */
    float ambient_light[3];         /* 0..255 (default 182 = 150 + 32, Quake 3 without a light grid) */
    float directed_light[3];        /* 0..255 (default 150) */
    float light_dir[3];             /* unit vector toward the light (default (0.57735, 0.57735, 0.57735)) */
    float view_origin[3];           /* the eye (default 0 0 0: set it) */
    float specular_origin[3];       /* alphaGen lightingSpecular's light: Quake 3 fixes it at (-960, 1980, 96) */
} iq_shader_env;
void iq_shader_env_default(iq_shader_env *env);

/* A wave at time t (seconds), as R_EvalWaveForm reads its 1024-entry tables:
 * base + table[(int64)((phase + t * frequency) * 1024) & 1023] * amplitude.
 * Noise is base + noise(t + phase... see docs) * amplitude. */
float iq_shader_wave_value(const iq_shader_wave *wave, double time);
/* The table entry itself (func, index & 1023): sin, square, triangle,
 * sawtooth, inverse sawtooth as tr_init.c builds them. */
float iq_shader_wave_table(uint32_t func, int64_t index);
/* Quake 3's 4D value noise (R_NoiseGet4f) in -1..1, on our own fixed lattice
 * (Quake 3 fills its lattice from rand(), so no two runs agree). */
float iq_shader_noise(float x, float y, float z, double t);

/* What a stage needs each frame, for drawing on the GPU. */
typedef struct iq_shader_stage_state {
    float color[4];                 /* RGBA in 0..1 (a byte / 255 as Quake 3 rounds it) when not per-vertex */
    uint32_t per_vertex;            /* bit 0: rgb is per vertex, bit 1: alpha is (iq_shader_colors) */
    /* texture matrix as a column-major 2x3: s' = m[0]*s + m[2]*t + m[4], t' = m[1]*s + m[3]*t + m[5].
     * The tcMods before the first turb are in `before`, the rest in `after`; turb (turb_count > 0)
     * adds its per-vertex offset between them (iq_shader_texcoords does it all on the CPU). */
    float before[6], after[6];
    uint32_t turb_count;
    float turb_phase, turb_amplitude;  /* the first turb: phase + time * frequency, and amplitude */
    uint32_t frame;                 /* animMap image to show */
} iq_shader_stage_state;

/* Evaluates a stage at env->time. Returns 0, or IQ_ERROR_INVALID_ARGUMENT. */
iq_error_code iq_shader_stage_eval(const iq_shader_stage *stage, const iq_shader_env *env, iq_shader_stage_state *out);

/* The stage's colour for each vertex (RGBA 0..1 into rgba[4 * n]), computed
 * as ComputeColors does: rgbGen then alphaGen, with lightingDiffuse and
 * lightingSpecular (RB_CalcDiffuseColor, RB_CalcSpecularAlpha) per vertex.
 * vertex_colors (RGBA 0..1, may be NULL: white) feed rgbGen/alphaGen vertex;
 * normals may be NULL only when neither lighting form is used. */
void iq_shader_colors(const iq_shader_stage *stage, const iq_shader_env *env, uint32_t n, const float *positions,
                      const float *normals, const float *vertex_colors, float *rgba);
/* The texture matrix of a tcMod chain at `time` (turb left out: identity). */
void iq_shader_tcmod_matrix(const iq_shader_tcmod *mods, uint32_t count, const iq_shader_env *env, float out[6]);
/* Texture coordinates per vertex: tcGen (base copies st, environment as
 * RB_CalcEnvironmentTexCoords, vector as dot products), then every tcMod in
 * order, turb included. st (2n, may be NULL for environment/vector), out 2n. */
void iq_shader_texcoords(const iq_shader_stage *stage, const iq_shader_env *env, uint32_t n, const float *positions,
                         const float *normals, const float *st, float *out);
/* Applies the shader's deforms in order to positions and normals (3n each,
 * in place): wave, normal, bulge (st: the base texcoords, 2n), move, as
 * RB_DeformTessGeometry. autosprite and autosprite2 rebuild quads toward the
 * view and are left to the renderer (docs/SHADERS.md); returns how many
 * deforms were skipped that way. */
uint32_t iq_shader_deform_vertices(const iq_q3_shader *shader, const iq_shader_env *env, uint32_t n, float *positions,
                          float *normals, const float *st);
/* autosprite and autosprite2 (kind: IQ_DEFORM_AUTOSPRITE or _AUTOSPRITE2), as ioquake3's
 * AutospriteDeform and Autosprite2Deform turn a surface's quads (each 4 consecutive vertices)
 * toward the view; axes: the view's forward, left and up (9 floats, unit, in the arrays' space).
 * autosprite: each quad becomes a square facing the view round its centre, radius |corner 0 -
 * centre| * 0.707: positions, normals (-forward), st (0/1 at the corners; may be NULL) and colours
 * (RGBA, 4 per vertex, the first vertex's for all four; may be NULL) rewritten, and its triangles
 * (0 1 3, 3 1 2 of each quad, (n / 4) * 6 indices) written to out_indices (may be NULL).
 * autosprite2: each quad keeps its two shortest edges, pivoted about the axis between their
 * middles to face the view; indices (the surface's triangles over these vertices, 6 per quad in
 * order) say which end goes which way; only positions change. Vertices past the last whole quad
 * are left as they are. Returns the triangles to draw: (n / 4) * 2 for autosprite, index_count / 3
 * for autosprite2 (its own), 0 for another kind. */
uint32_t iq_shader_autosprite(uint32_t kind, const float axes[9], uint32_t n, float *positions, float *normals,
                              float *st, float *colors, const uint32_t *indices, uint32_t index_count,
                              uint32_t *out_indices);

#ifdef __cplusplus
}
#endif
#endif
