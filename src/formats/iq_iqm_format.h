/* IQM v2 format facts, in one place for the reader (iq_iqm.c), the writer
 * (iq_iqm_write*.c) and IQE (which declares IQM vertex arrays): record sizes,
 * the header layout, vertex array types, component formats and how their
 * values are read and written, and the hashes vertices are grouped by.
 * Spec: shared/specs/iqm.txt. Not part of the public API. */
#ifndef IQ_IQM_FORMAT_H
#define IQ_IQM_FORMAT_H

#include "base/iq_internal.h"

#define IQM_MAGIC "INTERQUAKEMODEL" /* 16 bytes with its NUL */
#define IQM_VERSION 2

// -- Record sizes in bytes

#define IQM_HEADER_SIZE 124
#define IQM_MESH_SIZE 24
#define IQM_VERTEXARRAY_SIZE 20
#define IQM_TRIANGLE_SIZE 12 /* also an adjacency record */
#define IQM_JOINT_SIZE 48
#define IQM_POSE_SIZE 88
#define IQM_ANIM_SIZE 20
#define IQM_BOUNDS_SIZE 32
#define IQM_EXTENSION_SIZE 16

// -- Header: the 27 uint fields after the 16-byte magic, in file order

#define IQM_HEADER_FIELDS 27
typedef struct iqm_header {
    uint32_t version, filesize, flags;
    uint32_t num_text, ofs_text;
    uint32_t num_meshes, ofs_meshes;
    uint32_t num_vertexarrays, num_vertexes, ofs_vertexarrays;
    uint32_t num_triangles, ofs_triangles, ofs_adjacency;
    uint32_t num_joints, ofs_joints;
    uint32_t num_poses, ofs_poses;
    uint32_t num_anims, ofs_anims;
    uint32_t num_frames, num_framechannels, ofs_frames, ofs_bounds;
    uint32_t num_comment, ofs_comment;
    uint32_t num_extensions, ofs_extensions;
} iqm_header;

/* The fields from a header of at least IQM_HEADER_SIZE bytes (magic unchecked). */
void iqi_iqm_header_read(const uint8_t *d, iqm_header *h);
/* The magic and the fields into IQM_HEADER_SIZE bytes. */
void iqi_iqm_header_write(uint8_t *d, const iqm_header *h);

// -- Vertex arrays

/* Standard array types; custom arrays are IQM_CUSTOM + a text offset (in
 * IQM files) or + N for IQE's customN. */
enum {
    IQM_POSITION = 0, IQM_TEXCOORD, IQM_NORMAL, IQM_TANGENT, IQM_BLENDINDEXES, IQM_BLENDWEIGHTS, IQM_COLOR,
    IQM_STANDARD_TYPES,
    IQM_CUSTOM = 0x10
};
extern const char *const iqi_iqm_type_names[IQM_STANDARD_TYPES];

// -- Component formats (iq_component: byte ... double)

#define IQM_COMPONENT_FORMATS 9
extern const char *const iqi_component_names[IQM_COMPONENT_FORMATS];
extern const uint8_t iqi_component_size[IQM_COMPONENT_FORMATS];

/* A value as the IQM SDK normalises integer formats: unsigned c / (2^b - 1),
 * signed (2c + 1) / (2^b - 1); half, float and double as they are. */
double iqi_component_read(const uint8_t *q, iq_component format);
/* Integer formats as plain numbers (blend indices); the others as above. */
double iqi_component_read_plain(const uint8_t *q, iq_component format);
/* The inverse of iqi_component_read: rounded to nearest, clamped to the range. */
void iqi_component_write(uint8_t *dst, iq_component format, double v);

// -- Vertex keys

/* A hash of an exact position (-0 and 0 are the same position). */
uint32_t iqi_hash_position(const float v[3]);
/* A hash of a vertex's four joints and weights, bit for bit. */
uint32_t iqi_hash_influences(const uint16_t joints[4], const float weights[4]);
/* Open-addressing table size for n keys: a power of two >= 16 and >= 2n. */
uint64_t iqi_hash_table_size(uint32_t n);
/* pid[v] = the first vertex with v's exact position, through `table`
 * (table_size entries from iqi_hash_table_size, scratch). */
void iqi_position_ids(const float *positions, uint32_t n, uint32_t *table, uint64_t table_size, uint32_t *pid);

#endif
