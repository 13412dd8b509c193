/* What the IQM reader's files share (not part of the public API): the parser
 * state, the section and string checks (iq_iqm.c), the vertex arrays
 * (iq_iqm_vertex.c) and the skeleton, poses, frames and animations
 * (iq_iqm_skeleton.c). iq_iqm.c's iqi_parse_iqm calls them in the file's order. */
#ifndef IQ_IQM_INTERNAL_H
#define IQ_IQM_INTERNAL_H

#include "formats/iq_iqm_format.h"
#include "formats/iq_formats.h"

/* Byte offset of a header field, for error messages that point at it. */
#define FIELD_OFFSET(field) (16 + (int64_t)offsetof(iqm_header, field))

typedef struct iqm_parser {
    iqi_ctx *ctx;
    iqm_header h;
    const uint8_t *d; /* input, limited to the header's filesize */
    size_t size;
    const char *text; /* copy of the text table, NUL-terminated */
} iqm_parser;

/* A pose record: its parent and channel mask, and each channel's offset and scale. */
typedef struct pose {
    int32_t parent;
    uint32_t mask;
    float offset[10], scale[10];
} pose;

/* iq_iqm.c: a section's range (empty ones anywhere), a name from the text table. */
int iqi_iqm_check_section(iqm_parser *p, const char *what, int64_t field, uint32_t ofs, uint64_t num, uint64_t elem_size,
                          uint32_t align);
int iqi_iqm_get_string(iqm_parser *p, uint32_t ofs, int64_t where, const char *what, const char **out);

/* iq_iqm_vertex.c: every vertex array into the model's canonical arrays, custom ones kept. */
int iqi_iqm_read_vertex_arrays(iqm_parser *p);

/* iq_iqm_skeleton.c */
int iqi_iqm_read_joints(iqm_parser *p);
int iqi_iqm_read_poses(iqm_parser *p, pose **out);
int iqi_iqm_read_frames(iqm_parser *p, const pose *poses);
int iqi_iqm_read_anims(iqm_parser *p);

#endif
