/* What the vertex-animated readers (MD3, MDC, MD2, MDL) share: the fields
 * of id Software's binary layout, the frame arrays, the engines' normal
 * tables and clips made from frame names (and the one clip of MD3-like
 * files, which MDR takes too). Not part of the public API.
 *
 * Two homes, because MD3 is a core reader and the others are fetched on
 * demand (build.sh's ON_DEMAND_SOURCES): iq_vertex_formats.c (core) holds
 * what MD3 uses too; iq_anorms.c, iq_quake_palette.c and iq_frame_clips.c
 * (on demand) what only the Quake 1 and Quake 2 readers use. Every call
 * that can fail returns 1, or 0 with ctx's error set (iqi_fail). */
#ifndef IQ_VERTEX_FORMATS_H
#define IQ_VERTEX_FORMATS_H

#include "base/iq_internal.h"
#include "formats/iq_formats.h"

// -- id's binary layout (iq_vertex_formats.c): little-endian int32 counts and offsets, fixed-size names

/* The signed count at byte `at` into *out; a negative one fails ('bad_value' at `at`). */
int iqi_read_count(iqi_ctx *ctx, uint64_t at, const char *what, uint32_t *out);

/* `count` records of `elem` bytes at the signed offset stored at byte `field`,
 * counted from byte `base`, lie inside the file ('out_of_range' at `field`
 * if not): *out gets their file offset. An empty section (count 0) is never
 * read, as engines never read it: its offset is not checked and *out is 0. */
int iqi_read_section(iqi_ctx *ctx, uint64_t field, uint64_t base, const char *what, uint64_t count, uint64_t elem,
                     uint64_t *out);

/* A fixed-size name field copied into `out` (field_size + 1 bytes): up to
 * the first NUL, or the whole field when the writer left no NUL (counted in
 * *unterminated, for iqi_warn_unterminated_names). Returns `out`. */
const char *iqi_copy_name(const uint8_t *field, size_t field_size, char *out, uint32_t *unterminated);
/* The one warning for the names iqi_copy_name read to the end of their field (none for 0). */
void iqi_warn_unterminated_names(iqi_ctx *ctx, uint32_t count);

/* The header's frame count (read from byte `field`): 0 fails, as the
 * engines refuse a model with no geometry to show; over limits.max_frames fails. */
int iqi_check_frame_count(iqi_ctx *ctx, uint64_t field, uint32_t frames);

/* The header's end offset (int32 at byte `field`): inside the
 * `header_size`-byte header fails ('bad_filesize'); short of the file's size
 * or past it is a warning, as every section is checked against the bytes
 * present (engines copy ofsEnd bytes and ignore the rest). */
int iqi_check_end_offset(iqi_ctx *ctx, uint64_t field, uint32_t header_size);

// -- The model's arrays (iq_vertex_formats.c)

/* m->frame_positions and m->frame_normals for `frames` frames of
 * m->vertex_count vertices, m->positions and m->normals pointing at frame
 * 0, and m->texcoords when `texcoords`; nothing when there are no vertices. */
int iqi_alloc_vertex_frames(iqi_ctx *ctx, uint32_t frames, int texcoords);
/* One mesh over every vertex and triangle, with no name and no material yet
 * (MD2 and MDL: the skins are alternatives for the one surface). */
int iqi_single_mesh(iqi_ctx *ctx);
/* Each frame's xy radius from its positions (the files store only a sphere's radius). */
void iqi_frame_xy_radii(iq_model *m);
/* One looping clip "all" over every frame at IQ_MD3_DEFAULT_FRAMERATE (MD3,
 * MDC and MDR name no clips; a Quake 3 player's animation.cfg does). */
int iqi_clip_all_frames(iqi_ctx *ctx);

// -- Surfaces chained by their end offsets (MD3, MDC; iq_vertex_formats.c)

/* One surface, as the model-wide arrays need it. */
typedef struct iqi_surface {
    uint64_t at; /* file offset of the surface header */
    uint32_t shaders, verts, triangles;
    uint64_t shaders_at, triangles_at, st_at, xyz_at; /* file offsets, checked (0 for empty sections) */
    uint32_t first_vertex, first_triangle, first_shader;
} iqi_surface;

typedef struct iqi_surface_chain {
    uint32_t count, header_size;
    uint64_t at;                           /* the next surface header */
    uint64_t vertices, triangles, shaders; /* sums over the surfaces placed so far */
} iqi_surface_chain;

/* The chain of `count` surfaces (read from byte `count_field`) of
 * `header_size`-byte headers, the first at the offset stored at byte
 * `ofs_field`: c->at gets it. With no surfaces, a model with no tags either
 * is warned about; a count whose headers cannot fit in the file fails
 * ('truncated'), before anything is allocated for it. */
int iqi_surfaces_begin(iqi_ctx *ctx, iqi_surface_chain *c, uint32_t count, uint64_t count_field, uint64_t ofs_field,
                       uint32_t header_size, uint32_t tags);
/* Surface i (at c->at, its counts read) placed after the ones before it,
 * then the chain stepped by its end offset (int32 at byte `end_field` of its
 * header), which must move past the header or the chain overlaps itself
 * (or loops, for 0: 'bad_mesh'). */
int iqi_surfaces_next(iqi_ctx *ctx, iqi_surface_chain *c, iqi_surface *s, uint32_t i, uint32_t end_field);
/* The model's mesh, vertex, triangle and shader counts from the chain's sums,
 * and its arrays for them: meshes, shaders, the frame arrays (`frames` frames)
 * with texture coordinates, indices. */
int iqi_surfaces_arrays(iqi_ctx *ctx, const iqi_surface_chain *c, uint32_t frames);
/* Surface i's mesh (named by the 64-byte field at byte `name_field` of its
 * header), its shaders (68-byte records: a 64-byte name and an int32 index;
 * the first is the mesh's material) and its texture coordinates (two floats a
 * vertex, repaired) into those arrays; names with no NUL counted in *unterminated. */
int iqi_surface_decode(iqi_ctx *ctx, const iqi_surface *s, uint32_t i, uint32_t name_field, uint32_t *unterminated);

// -- Normals

/* Quake 3's packed normals (MD3 and MDC base frames), as its renderer
 * decodes them: the high byte the azimuth ("lat"), the low byte the zenith
 * ("lng"), both in steps of 2 pi / 256: n = (cos(lat) sin(lng), sin(lat)
 * sin(lng), cos(lng)), unit length by construction. `sines` from
 * iqi_latlong_sines: sines[i] = sin(i * 2 pi / 256). */
void iqi_latlong_sines(float sines[256]);
static inline void iqi_latlong_normal(uint16_t packed, const float *sines, float n[3]) {
    unsigned lat = (packed >> 8) & 0xff, lng = packed & 0xff;
    float sin_lat = sines[lat], cos_lat = sines[(lat + 64) & 0xff];
    float sin_lng = sines[lng], cos_lng = sines[(lng + 64) & 0xff];
    n[0] = cos_lat * sin_lng;
    n[1] = sin_lat * sin_lng;
    n[2] = cos_lng;
}

/* Quake's 162 normals (iq_anorms.c), indexed by a frame vertex's normal byte. */
#define IQI_ANORM_COUNT 162
extern const float iqi_anorms[IQI_ANORM_COUNT][3];

/* One frame of Quake 1 and Quake 2 vertices (iq_anorms.c): 4-byte records
 * (x, y, z bytes and an index into the 162 normals). Model vertex v is
 * record record_of[v] % records (MDL numbers its back-of-seam vertices past
 * the records), at byte * scale + translate; a normal index past the table
 * (an engine would read beyond it) gives (0, 0, 1) and is counted in
 * *bad_normals, for iqi_warn_bad_normals. */
void iqi_decode_byte_vertices(const uint8_t *frame_records, uint32_t records, const uint32_t *record_of, uint32_t nv,
                              const float scale[3], const float translate[3], float *positions, float *normals,
                              uint32_t *bad_normals);
void iqi_warn_bad_normals(iqi_ctx *ctx, uint32_t count);

// -- Quake 1 (iq_quake_palette.c, iq_frame_clips.c)

/* Quake's palette (iq_quake_palette.c): red, green, blue per 8-bit index. */
extern const uint8_t iqi_quake_palette[256 * 3];

/* Clips from the frame names in m->frame_info, the way Quake tools name
 * frames ("run1".."run6" -> "run"; docs/API-md2.md): consecutive frames
 * whose names differ only in a trailing number that counts up by one form
 * a clip, named by the name without the number. A name whose runs are
 * several ("pain101".."pain104", "pain201"..) keeps the number's leading
 * digits ("pain1", "pain2"), or gets "_1", "_2" when the numbers are short.
 * Every clip loops at `framerate`. `group_part` (NULL: none) keeps frame
 * groups whole: per frame 0 (named as above), 1 (starts a group: a clip of
 * its own, at group_rate[f] fps) or 2 (continues the group). */
int iqi_clips_from_frame_names(iqi_ctx *ctx, float framerate, const uint8_t *group_part, const float *group_rate);

#endif
