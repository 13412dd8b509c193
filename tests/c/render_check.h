/* The renderer's invariant for any model the loader accepts (tests and fuzzers): posed at its
 * first, middle and last frames, framed by iqt_view_box, every vertex's clip coordinates are
 * finite, and every mesh draws into a small supersampled target without an error, plain, with
 * polygonOffset and turned by autosprite and autosprite2; so do the overlays' lines over it (its
 * triangles' edges depth-tested, lines between its vertices on top). Returns 0 when all holds. */
#ifndef IQT_RENDER_CHECK_H
#define IQT_RENDER_CHECK_H
#include "interquake.h"
#include "render/iq_render.h"
#include "quake3/iq_shader.h"
#include <stdlib.h>
#include <math.h>
#include <string.h>

/* A view of a box for the native checks (the element's and iq.render()'s camera is
 * web/scene/camera.js): from 35 degrees round Z and 12 up, far enough back to see all of it;
 * unusable bounds (not finite, reversed, beyond 1e7, as framing.js's sane()) frame the unit box. */
typedef struct iqt_box_view {
    float view_projection[16];
    float light[3];
    float forward[3], left[3], up[3]; /* the view's axes, Quake 3's names (autosprite) */
} iqt_box_view;

static inline void iqt_view_box(const float bmin[3], const float bmax[3], double fov, double aspect, iqt_box_view *out) {
    double lo[3], hi[3], c[3], r = 0;
    int ok = 1;
    for (int k = 0; k < 3; k++)
        if (!(fabs(bmin[k]) < 1e7 && fabs(bmax[k]) < 1e7 && bmin[k] <= bmax[k])) ok = 0;
    for (int k = 0; k < 3; k++) {
        lo[k] = ok ? bmin[k] : -1;
        hi[k] = ok ? bmax[k] : 1;
        c[k] = (lo[k] + hi[k]) / 2;
        r += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    }
    r = sqrt(r) / 2;
    if (r < 1e-3) r = 1e-3;
    const double deg = 3.14159265358979323846 / 180;
    double yaw = 35 * deg, pitch = 12 * deg;
    double dist = r / tan(fov / 2) * 1.5 * (aspect < 1 ? 1 / aspect : 1);
    double e[3] = {c[0] + dist * cos(pitch) * cos(yaw), c[1] + dist * cos(pitch) * sin(yaw), c[2] + dist * sin(pitch)};
    double f[3] = {c[0] - e[0], c[1] - e[1], c[2] - e[2]}, fl = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int k = 0; k < 3; k++) f[k] /= fl;
    double s[3] = {f[1], -f[0], 0}, sl = sqrt(s[0] * s[0] + s[1] * s[1]); /* f x (0, 0, 1) */
    for (int k = 0; k < 3; k++) s[k] /= sl;
    double u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]};
    double view[16] = {s[0], u[0], -f[0], 0, s[1], u[1], -f[1], 0, s[2], u[2], -f[2], 0,
                       -(s[0] * e[0] + s[1] * e[1] + s[2] * e[2]), -(u[0] * e[0] + u[1] * e[1] + u[2] * e[2]),
                       f[0] * e[0] + f[1] * e[1] + f[2] * e[2], 1};
    double n = fmax(dist - 2 * r, dist * 0.01), fa = dist + 2 * r, t = 1 / tan(fov / 2);
    double proj[16] = {t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, (fa + n) / (n - fa), -1, 0, 0, 2 * fa * n / (n - fa), 0};
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) {
            double v = 0;
            for (int k = 0; k < 4; k++) v += proj[k * 4 + row] * view[col * 4 + k];
            out->view_projection[col * 4 + row] = (float)v;
        }
    double l[3] = {cos(yaw + 0.6) * cos(0.7), sin(yaw + 0.6) * cos(0.7), sin(0.7)}; /* over the viewer's shoulder */
    for (int k = 0; k < 3; k++) {
        out->light[k] = (float)l[k];
        out->forward[k] = (float)f[k];
        out->left[k] = (float)-s[k];
        out->up[k] = (float)u[k];
    }
}

static inline int iqt_check_render(iq_model *m) {
    if (!m->vertex_count || !m->triangle_count) return 0;
    iq_render_target *t = iq_render_target_new(24, 16, 2, NULL);
    if (!t) return 0; /* out of memory is not the model's fault */
    float frames[3] = {0, 0, 0};
    int nframes = 1;
    if (m->frame_count > 1) {
        frames[1] = (float)(m->frame_count - 1) * 0.5f;
        frames[2] = (float)(m->frame_count - 1);
        nframes = 3;
    }
    int bad = 0;
    for (int f = 0; f < nframes && !bad; f++) {
        if (iq_evaluate(m, frames[f]) != 0) { bad = 1; break; }
        const float *p = m->instance->skinned_positions;
        const float *n = m->instance->skinned_normals;
        float bmin[3] = {INFINITY, INFINITY, INFINITY}, bmax[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t v = 0; v < m->vertex_count; v++)
            for (int k = 0; k < 3; k++) {
                float x = p[v * 3 + k];
                if (x < bmin[k]) bmin[k] = x;
                if (x > bmax[k]) bmax[k] = x;
            }
        iqt_box_view cam;
        iqt_view_box(bmin, bmax, 0.6, 1.5, &cam);
        for (int i = 0; i < 16; i++) if (!isfinite(cam.view_projection[i])) bad = 3;
        const float *vp = cam.view_projection;
        for (uint32_t v = 0; v < m->vertex_count && !bad; v++)
            for (int r = 0; r < 4; r++) {
                float c = vp[r] * p[v * 3] + vp[4 + r] * p[v * 3 + 1] + vp[8 + r] * p[v * 3 + 2] + vp[12 + r];
                if (!isfinite(c)) { bad = 4; break; }
            }
        iq_render_view view;
        memset(&view, 0, sizeof view);
        memcpy(view.view_projection, cam.view_projection, sizeof view.view_projection);
        memcpy(view.light, cam.light, sizeof view.light);
        view.ambient = 0.45f;
        view.intensity = 0.7f;
        for (uint32_t i = 0; i < m->mesh_count && !bad; i++) {
            const iq_mesh *mesh = &m->meshes[i];
            if (!mesh->triangle_count) continue;
            iq_render_surface s;
            memset(&s, 0, sizeof s);
            s.positions = p;
            s.normals = n;
            s.texcoords = m->texcoords;
            s.colors = m->colors;
            s.vertex_count = m->vertex_count;
            s.indices = m->indices + (size_t)mesh->first_triangle * 3;
            s.triangle_count = mesh->triangle_count;
            for (int k = 0; k < 4; k++) s.matrix[k * 5] = 1;
            s.lit = 1;
            s.depth_write = 1;
            if (iq_render_draw(t, &view, &s, NULL) != IQ_ERROR_NONE) bad = 5;
            s.offset_factor = -1;
            s.offset_units = -2;
            s.lit = 0;
            s.depth_func = IQ_DEPTH_EQUAL;
            if (!bad && iq_render_draw(t, &view, &s, NULL) != IQ_ERROR_NONE) bad = 6;
        }
        /* The wireframe's form (index pairs, one colour, depth-tested) and the overlays' (coloured
         * pairs of vertices, on top). */
        iq_render_lines l;
        memset(&l, 0, sizeof l);
        l.positions = p;
        l.vertex_count = m->vertex_count;
        l.indices = m->indices;
        l.segment_count = (uint32_t)(((uint64_t)m->triangle_count * 3) / 2);
        for (int k = 0; k < 4; k++) l.matrix[k * 5] = 1;
        l.color[1] = 1;
        l.depth_test = 1;
        if (!bad && iq_render_draw_lines(t, &view, &l, NULL) != IQ_ERROR_NONE) bad = 7;
        l.indices = NULL;
        l.colors = n ? n : p;
        l.segment_count = m->vertex_count / 2;
        l.depth_test = 0;
        if (!bad && iq_render_draw_lines(t, &view, &l, NULL) != IQ_ERROR_NONE) bad = 8;
        /* Autosprites over a copy of the posed vertices, drawn with the triangles they give. */
        uint32_t nv = m->vertex_count;
        float *sp = malloc((size_t)nv * 6 * sizeof(float));
        uint32_t *si = malloc(((size_t)nv / 4 * 6 + 1) * sizeof(uint32_t));
        if (sp && si && !bad) {
            float axes[9];
            memcpy(axes, cam.forward, sizeof cam.forward);
            memcpy(axes + 3, cam.left, sizeof cam.left);
            memcpy(axes + 6, cam.up, sizeof cam.up);
            for (uint32_t kind = IQ_DEFORM_AUTOSPRITE; kind <= IQ_DEFORM_AUTOSPRITE2 && !bad; kind++) {
                memcpy(sp, p, (size_t)nv * 3 * sizeof(float));
                memset(sp + (size_t)nv * 3, 0, (size_t)nv * 3 * sizeof(float));
                uint32_t tris = iq_shader_autosprite(kind, axes, nv, sp, sp + (size_t)nv * 3, NULL, NULL, m->indices,
                                                     m->triangle_count * 3, si);
                iq_render_surface s;
                memset(&s, 0, sizeof s);
                s.positions = sp;
                s.normals = sp + (size_t)nv * 3;
                s.vertex_count = nv;
                s.indices = kind == IQ_DEFORM_AUTOSPRITE ? si : m->indices;
                s.triangle_count = tris;
                for (int k = 0; k < 4; k++) s.matrix[k * 5] = 1;
                s.depth_write = 1;
                if (iq_render_draw(t, &view, &s, NULL) != IQ_ERROR_NONE) bad = 9;
            }
        }
        free(sp);
        free(si);
    }
    uint8_t px[24 * 16 * 4];
    iq_render_resolve(t, px);
    iq_render_target_free(t);
    return bad;
}
#endif
