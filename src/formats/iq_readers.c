/* The readers a build may leave out (formats/iq_formats.h, iqi_reader), up
 * to the entry with no parse function. The one-file element's
 * interquake-viewer.wasm compiles this file with
 * IQI_WITHOUT_ON_DEMAND_READERS (an empty list: it reads IQM, IQE and MD3
 * itself), and interquake-readers.wasm, fetched when a file needs it, as it
 * is. A new reader adds its line here and its files to ON_DEMAND_SOURCES in
 * build.sh. One line per reader. */
#include "formats/iq_vertex_formats.h"

const iqi_reader iqi_on_demand_readers[] = {
#ifndef IQI_WITHOUT_ON_DEMAND_READERS
    {IQ_FORMAT_MD2, iqi_parse_md2},
    {IQ_FORMAT_MDL, iqi_parse_mdl},
    {IQ_FORMAT_MDC, iqi_parse_mdc},
    {IQ_FORMAT_MD5, iqi_parse_md5},
    {IQ_FORMAT_DPM, iqi_parse_dpm},
    {IQ_FORMAT_ZYM, iqi_parse_zym},
    {IQ_FORMAT_MDR, iqi_parse_mdr},
#endif
    {IQ_FORMAT_AUTO, 0}, /* the end */
};

/* Formats that games ship under our extensions (Xonotic has Quake 1 MDL
 * files named .md3), named in the load's error instead of "unknown"; the
 * viewer's build leaves the names out with the readers (an unknown format
 * there). */
#ifndef IQI_WITHOUT_ON_DEMAND_READERS
static const struct { const char *magic; size_t size; const char *what; } siblings[] = {
    {"MDSW", 4, "a Wolfenstein MDS model (MDSW)"},
    {"MDMW", 4, "a Wolfenstein: Enemy Territory MDM mesh (MDMW)"},
    {"MDXW", 4, "a Wolfenstein: Enemy Territory MDX skeleton (MDXW)"},
    {"IDST", 4, "a Half-Life studio MDL model (IDST)"},
    {"IDSQ", 4, "a Half-Life MDL sequence file (IDSQ)"},
    {"IDSP", 4, "a Quake sprite (IDSP)"},
    {"ACTRHEAD", 8, "an Unreal PSK mesh (ACTRHEAD)"},
    {"ANIMHEAD", 8, "an Unreal PSA animation (ANIMHEAD)"},
    {"glTF", 4, "a binary glTF model (glTF)"},
    {"Kaydara FBX Binary", 18, "a binary FBX model (Kaydara FBX Binary)"},
};
#endif

const char *iqi_sibling_format(const uint8_t *d, size_t n) {
#ifndef IQI_WITHOUT_ON_DEMAND_READERS
    for (size_t i = 0; i < sizeof siblings / sizeof siblings[0]; i++)
        if (n >= siblings[i].size && memcmp(d, siblings[i].magic, siblings[i].size) == 0) return siblings[i].what;
#else
    (void)d;
    (void)n;
#endif
    return NULL;
}
