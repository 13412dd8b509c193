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
