/* The readers' entries, one per model format: each fills ctx->model from
 * ctx->data or fails (returns 0 with ctx->error set). load/iq_load.c detects
 * the format, calls the reader and finishes the model; a reader only reads.
 * A new format adds its entry here and its case in iq_load_memory. */
#ifndef IQ_FORMATS_H
#define IQ_FORMATS_H

#include "base/iq_internal.h"

int iqi_parse_iqm(iqi_ctx *ctx); /* formats/iq_iqm.c */
int iqi_parse_iqe(iqi_ctx *ctx); /* formats/iqe/iq_iqe.c */
int iqi_parse_md3(iqi_ctx *ctx); /* formats/iq_md3.c */
int iqi_parse_md5(iqi_ctx *ctx); /* formats/iq_md5.c */
int iqi_parse_dpm(iqi_ctx *ctx); /* formats/iq_darkplaces.c */
int iqi_parse_zym(iqi_ctx *ctx); /* formats/iq_darkplaces.c */
int iqi_parse_mdr(iqi_ctx *ctx); /* formats/iq_mdr.c */
int iqi_parse_md2(iqi_ctx *ctx); /* formats/iq_md2.c */
int iqi_parse_mdl(iqi_ctx *ctx); /* formats/iq_mdl.c */
int iqi_parse_mdc(iqi_ctx *ctx); /* formats/iq_mdc.c */

/* Readers a build may leave out (build.sh's ON_DEMAND_SOURCES), by format, up to an entry with no
 * parse function: formats/iq_readers.c lists them; the one-file element's WASM links that file
 * built with IQI_WITHOUT_ON_DEMAND_READERS, which lists none. */
typedef struct iqi_reader {
    iq_format format;
    int (*parse)(iqi_ctx *ctx);
} iqi_reader;
extern const iqi_reader iqi_on_demand_readers[];
/* What a format games ship under our extensions is ("a Quake sprite (IDSP)"), or NULL; the same
 * file (formats/iq_readers.c): NULL for every file in the viewer's build. */
const char *iqi_sibling_format(const uint8_t *d, size_t n);

#endif
