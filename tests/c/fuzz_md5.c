/* libFuzzer harness for the MD5 reader (.md5mesh and .md5anim; the format
 * forced, so mutations of the first line still reach the parser). A
 * successful load must keep every invariant and survive evaluation, the GLB
 * writer and the IQM writer; an anim must attach to the hand-written mesh
 * (or be refused with a code) and leave it sound.
 *   ./build.sh fuzz 600 */
// seeds: tests/fixtures/md5
#include "check_model.h"
#include "glb_check.h"
#include "interquake.h"
#include <stdio.h>
#include <stdlib.h>

static const char mesh_text[] =
    "MD5Version 10\ncommandline \"\"\nnumJoints 3\nnumMeshes 1\njoints {\n"
    "\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n\"arm\" 0 ( 1 0 0 ) ( 0 0 0.70710678 )\n\"hand\" 1 ( 1 -2 0 ) ( 0 0 1 )\n}\n"
    "mesh {\nshader \"s\"\nnumverts 3\nvert 0 ( 0 0 ) 0 1\nvert 1 ( 1 0 ) 1 1\nvert 2 ( 0 1 ) 2 2\nnumtris 1\ntri 0 0 1 2\n"
    "numweights 4\nweight 0 0 1 ( 0 0 1 )\nweight 1 1 1 ( 1 0 0 )\nweight 2 1 0.5 ( 0 0 1 )\nweight 3 2 0.5 ( 0 -2 1 )\n}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.format = IQ_FORMAT_MD5;
    opts.name = "fuzz.md5anim";
    iq_error err;
    iq_model *m = iq_load_memory(data, size, &opts, &err);
    if (!m) {
        if (err.code == IQ_ERROR_NONE) abort();
        return 0;
    }
    if (check_model(m) || check_evaluate(m) || iqt_check_glb(m)) abort();
    size_t out_size;
    uint8_t *bytes = iq_write_iqm(m, &out_size, &err);
    if (!bytes) abort();
    iq_model *back = iq_load_memory(bytes, out_size, NULL, &err);
    if (!back || check_model(back) || back->vertex_count != m->vertex_count || back->joint_count != m->joint_count ||
        back->frame_count != m->frame_count)
        abort();
    iq_free(back);
    iq_free_bytes(bytes);
    if (m->frame_count) {
        iq_model *mesh = iq_load_memory(mesh_text, sizeof mesh_text - 1, NULL, &err);
        if (!mesh) abort();
        int code = iq_attach_animations(mesh, m, &err);
        if (code != 0 && err.code == IQ_ERROR_NONE) abort();
        if (check_model(mesh) || check_evaluate(mesh)) abort();
        iq_free(mesh);
    }
    iq_free(m);
    return 0;
}
