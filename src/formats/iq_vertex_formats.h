/* What the vertex-animated readers of the Quake 1 and Quake 2 family (MD2,
 * MDL, MDC) share: the engines' normal table and clips made from frame
 * names. Not part of the public API. */
#ifndef IQ_VERTEX_FORMATS_H
#define IQ_VERTEX_FORMATS_H

#include "base/iq_internal.h"
#include "formats/iq_formats.h"

/* Quake's 162 normals (iq_anorms.c), indexed by a frame vertex's normal byte. */
#define IQI_ANORM_COUNT 162
extern const float iqi_anorms[IQI_ANORM_COUNT][3];
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
