/* libFuzzer harness for the software renderer over every loader (format detected): a model that
 * loads keeps its invariants and renders (render_check.h): finite clip coordinates at its first,
 * middle and last frames, every mesh drawn without an error or a sanitizer report (plain, with
 * polygonOffset, turned by autosprite and autosprite2), and overlay lines over it.
 *   ./build.sh fuzz 600 */
// seeds: ../shared/corpus/iqm/mrfixit ../shared/corpus/iqm/raylib ../shared/corpus/md3/assimp ../shared/corpus/iqe/unvanquished/missiles/rocket
#include "check_model.h"
#include "render_check.h"
#include "interquake.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_error err;
    iq_model *m = iq_load_memory(data, size, NULL, &err);
    if (m) {
        if (check_model(m) || iqt_check_render(m)) abort();
        iq_free(m);
    } else if (err.code == IQ_ERROR_NONE) {
        abort();
    }
    return 0;
}
