/* The per-frame maths of Quake 3 shaders, as ioquake3's renderer computes it
 * (tr_shade_calc.c, tr_shade.c ComputeColors and R_BindAnimatedImage, the
 * tables of tr_init.c), written for this library. Pure functions of the
 * stage, the environment and the vertex data: no state, no allocation.
 *
 * Colours are computed in bytes as Quake 3 does (truncating float to int,
 * clamping to 0..255) and returned as byte / 255, so a test can compare them
 * exactly with values worked out by hand. */
#include "quake3/iq_shader.h"
#include "base/iq_internal.h"

#define TABLE_SIZE 1024        /* FUNCTABLE_SIZE */
#define TABLE_MASK (TABLE_SIZE - 1)
#define PI_D 3.14159265358979323846

void iq_shader_env_default(iq_shader_env *env) {
    memset(env, 0, sizeof *env);
    for (int i = 0; i < 4; i++) env->entity_color[i] = 1;
    env->identity_light = 1;
    for (int i = 0; i < 3; i++) {
        env->ambient_light[i] = 182;    /* tr.identityLight * 150, plus the minimum 32 every entity gets */
        env->directed_light[i] = 150;
        env->light_dir[i] = 0.57735027f;
    }
    env->specular_origin[0] = -960;     /* tr_shade_calc.c's lightOrigin ("FIXME: track dynamically") */
    env->specular_origin[1] = 1980;
    env->specular_origin[2] = 96;
}

// -- Waves

float iq_shader_wave_table(uint32_t func, int64_t index) {
    int i = (int)(index & TABLE_MASK);
    switch (func) {
    case IQ_WAVE_SIN: /* one period over entries 0..1023 (tr_init.c divides by 1023, not 1024) */
        return (float)sin((double)(i * 360.0f / (float)(TABLE_SIZE - 1)) * PI_D / 180.0f);
    case IQ_WAVE_SQUARE: return i < TABLE_SIZE / 2 ? 1.0f : -1.0f;
    case IQ_WAVE_TRIANGLE: {
        int k = i % (TABLE_SIZE / 2);
        float v = k < TABLE_SIZE / 4 ? (float)k / (TABLE_SIZE / 4) : 1.0f - (float)(k - TABLE_SIZE / 4) / (TABLE_SIZE / 4);
        return i < TABLE_SIZE / 2 ? v : -v;
    }
    case IQ_WAVE_SAWTOOTH: return (float)i / TABLE_SIZE;
    case IQ_WAVE_INVERSE_SAWTOOTH: return 1.0f - (float)i / TABLE_SIZE;
    default: return 0;
    }
}

/* Our lattice: Quake 3 fills s_noise_table and s_noise_perm from rand(); we
 * use a fixed integer hash so every run (and the GPU port) agrees. */
static uint32_t mix(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}
static int perm(int a) { return (int)(mix((uint32_t)(a & 255) + 0x9e37u) & 255); }
static float lattice(int x, int y, int z, int t) {
    int index = perm(x + perm(y + perm(z + perm(t))));
    return (float)(mix((uint32_t)index + 0x51edu) & 0xFFFF) / 65535.0f * 2.0f - 1.0f;
}
static float lerp(float a, float b, float f) { return a + (b - a) * f; }

float iq_shader_noise(float x, float y, float z, double t) {
    /* floor of a huge value would not fit an int: such inputs read as 0 */
    if (!(fabsf(x) < 1e9f && fabsf(y) < 1e9f && fabsf(z) < 1e9f && fabs(t) < 1e9)) return 0;
    int ix = (int)floorf(x), iy = (int)floorf(y), iz = (int)floorf(z), it = (int)floor(t);
    float fx = x - (float)ix, fy = y - (float)iy, fz = z - (float)iz, ft = (float)(t - it);
    float value[2];
    for (int i = 0; i < 2; i++) {
        float front = lerp(lerp(lattice(ix, iy, iz, it + i), lattice(ix + 1, iy, iz, it + i), fx),
                           lerp(lattice(ix, iy + 1, iz, it + i), lattice(ix + 1, iy + 1, iz, it + i), fx), fy);
        float back = lerp(lerp(lattice(ix, iy, iz + 1, it + i), lattice(ix + 1, iy, iz + 1, it + i), fx),
                          lerp(lattice(ix, iy + 1, iz + 1, it + i), lattice(ix + 1, iy + 1, iz + 1, it + i), fx), fy);
        value[i] = lerp(front, back, fz);
    }
    return lerp(value[0], value[1], ft);
}

/* (int64)(x) & mask without undefined behaviour for values past int64 (they read as 0). */
static int64_t table_index(double x) {
    return x > -9e18 && x < 9e18 ? (int64_t)x : 0;
}

float iq_shader_wave_value(const iq_shader_wave *w, double time) {
    if (w->func == IQ_WAVE_NOISE) /* RB_CalcWaveColor's form (the only one Quake 3 accepts) */
        return w->base + iq_shader_noise(0, 0, 0, (time + w->phase) * w->frequency) * w->amplitude;
    return w->base + iq_shader_wave_table(w->func, table_index((w->phase + time * w->frequency) * TABLE_SIZE)) * w->amplitude;
}

// -- Colours

static int to_byte(double v) { /* ri.ftol then a byte store, clamped instead of wrapped */
    if (!(v > 0)) return 0;
    return v >= 255 ? 255 : (int)v;
}
static int unit_byte(float v) { return to_byte((double)v * 255.0 + 0.5); } /* an input colour 0..1 to its byte */

static int wave_rgb_byte(const iq_shader_wave *w, const iq_shader_env *env) {
    float glow = w->func == IQ_WAVE_NOISE ? iq_shader_wave_value(w, env->time)
                                          : iq_shader_wave_value(w, env->time) * env->identity_light;
    if (glow < 0) glow = 0;
    else if (glow > 1) glow = 1;
    return to_byte(255 * glow);
}

static int wave_alpha_byte(const iq_shader_wave *w, const iq_shader_env *env) {
    float glow = iq_shader_wave_value(w, env->time);
    if (glow < 0) glow = 0;
    else if (glow > 1) glow = 1;
    return to_byte(255 * glow);
}

static int rgb_per_vertex(uint32_t gen) {
    return gen == IQ_RGBGEN_VERTEX || gen == IQ_RGBGEN_EXACT_VERTEX || gen == IQ_RGBGEN_ONE_MINUS_VERTEX ||
           gen == IQ_RGBGEN_LIGHTING_DIFFUSE;
}
static int alpha_per_vertex(const iq_shader_stage *st, const iq_shader_env *env) {
    switch (st->alpha_gen) {
    case IQ_ALPHAGEN_VERTEX: case IQ_ALPHAGEN_ONE_MINUS_VERTEX: case IQ_ALPHAGEN_LIGHTING_SPECULAR: case IQ_ALPHAGEN_PORTAL:
        return 1;
    case IQ_ALPHAGEN_IDENTITY: /* rgbGen vertex copies the vertex alpha too when identityLight is 1 */
        return st->rgb_gen == IQ_RGBGEN_VERTEX && env->identity_light == 1;
    default: return 0;
    }
}

/* The bytes of rgbGen and alphaGen that do not depend on the vertex. */
static void constant_bytes(const iq_shader_stage *st, const iq_shader_env *env, int out[4]) {
    int light = to_byte(255.0 * env->identity_light);
    int c;
    switch (st->rgb_gen) {
    case IQ_RGBGEN_IDENTITY: out[0] = out[1] = out[2] = 255; break;
    case IQ_RGBGEN_ENTITY: for (int i = 0; i < 3; i++) out[i] = unit_byte(env->entity_color[i]); break;
    case IQ_RGBGEN_ONE_MINUS_ENTITY: for (int i = 0; i < 3; i++) out[i] = 255 - unit_byte(env->entity_color[i]); break;
    case IQ_RGBGEN_WAVE: c = wave_rgb_byte(&st->rgb_wave, env); out[0] = out[1] = out[2] = c; break;
    case IQ_RGBGEN_CONST: for (int i = 0; i < 3; i++) out[i] = to_byte(255.0f * st->constant[i]); break;
    default: out[0] = out[1] = out[2] = light; break; /* identityLighting (and the per-vertex ones' placeholder) */
    }
    switch (st->alpha_gen) {
    case IQ_ALPHAGEN_CONST: out[3] = to_byte(255.0f * st->constant[3]); break;
    case IQ_ALPHAGEN_WAVE: out[3] = wave_alpha_byte(&st->alpha_wave, env); break;
    case IQ_ALPHAGEN_ENTITY: out[3] = unit_byte(env->entity_color[3]); break;
    case IQ_ALPHAGEN_ONE_MINUS_ENTITY: out[3] = 255 - unit_byte(env->entity_color[3]); break;
    default: out[3] = 255; break;
    }
}

static float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void normalize3(float *v) {
    float l = sqrtf(dot3(v, v));
    if (l > 0) v[0] /= l, v[1] /= l, v[2] /= l;
}

void iq_shader_colors(const iq_shader_stage *st, const iq_shader_env *env, uint32_t n, const float *positions,
                      const float *normals, const float *vertex_colors, float *rgba) {
    int base[4];
    constant_bytes(st, env, base);
    float ambient[3];
    int light = to_byte(255.0 * env->identity_light);
    for (int k = 0; k < 3; k++) ambient[k] = env->ambient_light[k] > light ? (float)light : env->ambient_light[k];
    for (uint32_t i = 0; i < n; i++) {
        int c[4] = {base[0], base[1], base[2], base[3]}, v[4] = {255, 255, 255, 255};
        if (vertex_colors)
            for (int k = 0; k < 4; k++) v[k] = unit_byte(vertex_colors[4 * i + k]);
        const float *p = positions ? positions + 3 * i : NULL, *nrm = normals ? normals + 3 * i : NULL;
        switch (st->rgb_gen) {
        case IQ_RGBGEN_EXACT_VERTEX: for (int k = 0; k < 3; k++) c[k] = v[k]; break;
        case IQ_RGBGEN_VERTEX:
            for (int k = 0; k < 3; k++) c[k] = env->identity_light == 1 ? v[k] : to_byte(v[k] * env->identity_light);
            break;
        case IQ_RGBGEN_ONE_MINUS_VERTEX:
            for (int k = 0; k < 3; k++) c[k] = to_byte((255 - v[k]) * env->identity_light);
            break;
        case IQ_RGBGEN_LIGHTING_DIFFUSE: { /* RB_CalcDiffuseColor */
            float incoming = nrm ? dot3(nrm, env->light_dir) : 0;
            for (int k = 0; k < 3; k++)
                c[k] = incoming <= 0 ? to_byte(ambient[k]) : to_byte(ambient[k] + incoming * env->directed_light[k]);
            break;
        }
        default: break;
        }
        switch (st->alpha_gen) {
        case IQ_ALPHAGEN_IDENTITY:
            if (st->rgb_gen == IQ_RGBGEN_VERTEX && env->identity_light == 1) c[3] = v[3];
            break;
        case IQ_ALPHAGEN_VERTEX: c[3] = v[3]; break;
        case IQ_ALPHAGEN_ONE_MINUS_VERTEX: c[3] = 255 - v[3]; break;
        case IQ_ALPHAGEN_LIGHTING_SPECULAR: { /* RB_CalcSpecularAlpha */
            if (!p || !nrm) { c[3] = 0; break; }
            float to_light[3], viewer[3], reflected[3];
            for (int k = 0; k < 3; k++) to_light[k] = env->specular_origin[k] - p[k], viewer[k] = env->view_origin[k] - p[k];
            normalize3(to_light);
            float d = dot3(nrm, to_light);
            for (int k = 0; k < 3; k++) reflected[k] = nrm[k] * 2 * d - to_light[k];
            float length = sqrtf(dot3(viewer, viewer));
            float l = length > 0 ? dot3(reflected, viewer) / length : 0;
            if (l < 0) c[3] = 0;
            else {
                l = l * l;
                l = l * l;
                c[3] = to_byte(l * 255);
            }
            break;
        }
        case IQ_ALPHAGEN_PORTAL: {
            if (!p) { c[3] = 255; break; }
            float d[3] = {p[0] - env->view_origin[0], p[1] - env->view_origin[1], p[2] - env->view_origin[2]};
            float len = sqrtf(dot3(d, d)) / (st->portal_range != 0 ? st->portal_range : 256);
            c[3] = len < 0 ? 0 : len > 1 ? 255 : to_byte(len * 255);
            break;
        }
        default: break;
        }
        for (int k = 0; k < 4; k++) rgba[4 * i + k] = (float)c[k] / 255.0f;
    }
}

// -- Texture coordinates

static void set_matrix(float m[6], float a, float b, float c, float d, float e, float f) {
    m[0] = a, m[1] = b, m[2] = c, m[3] = d, m[4] = e, m[5] = f;
}

/* m = x after m (x applied to what m gives). */
static void then(float m[6], const float x[6]) {
    float r[6];
    r[0] = x[0] * m[0] + x[2] * m[1];
    r[1] = x[1] * m[0] + x[3] * m[1];
    r[2] = x[0] * m[2] + x[2] * m[3];
    r[3] = x[1] * m[2] + x[3] * m[3];
    r[4] = x[0] * m[4] + x[2] * m[5] + x[4];
    r[5] = x[1] * m[4] + x[3] * m[5] + x[5];
    memcpy(m, r, sizeof r);
}

static double fraction(double v) { return v - floor(v); }

/* One tcMod as a matrix (turb: identity). */
static void tcmod_matrix(const iq_shader_tcmod *m, const iq_shader_env *env, float x[6]) {
    const double t = env->time;
    switch (m->type) {
    case IQ_TCMOD_SCROLL: /* RB_CalcScrollTexCoords: only the fraction, so coordinates stay small */
        set_matrix(x, 1, 0, 0, 1, (float)fraction(m->params[0] * t), (float)fraction(m->params[1] * t));
        break;
    case IQ_TCMOD_ENTITY_TRANSLATE:
        set_matrix(x, 1, 0, 0, 1, (float)fraction(env->entity_texcoord[0] * t), (float)fraction(env->entity_texcoord[1] * t));
        break;
    case IQ_TCMOD_SCALE: set_matrix(x, m->params[0], 0, 0, m->params[1], 0, 0); break;
    case IQ_TCMOD_ROTATE: { /* RB_CalcRotateTexCoords: about (0.5, 0.5), through the sine table */
        int64_t index = table_index(-m->params[0] * t * (TABLE_SIZE / 360.0f));
        float s = iq_shader_wave_table(IQ_WAVE_SIN, index), c = iq_shader_wave_table(IQ_WAVE_SIN, index + TABLE_SIZE / 4);
        set_matrix(x, c, s, -s, c, 0.5f - 0.5f * c + 0.5f * s, 0.5f - 0.5f * s - 0.5f * c);
        break;
    }
    case IQ_TCMOD_STRETCH: { /* RB_CalcStretchTexCoords: scale by 1/wave about (0.5, 0.5) */
        float w = iq_shader_wave_value(&m->wave, t);
        float p = fabsf(w) > 1e-6f ? 1.0f / w : (w < 0 ? -1e6f : 1e6f); /* Quake 3 divides by zero here */
        set_matrix(x, p, 0, 0, p, 0.5f - 0.5f * p, 0.5f - 0.5f * p);
        break;
    }
    case IQ_TCMOD_TRANSFORM:
        set_matrix(x, m->params[0], m->params[1], m->params[2], m->params[3], m->params[4], m->params[5]);
        break;
    default: set_matrix(x, 1, 0, 0, 1, 0, 0); break;
    }
}

void iq_shader_tcmod_matrix(const iq_shader_tcmod *mods, uint32_t count, const iq_shader_env *env, float out[6]) {
    set_matrix(out, 1, 0, 0, 1, 0, 0);
    for (uint32_t i = 0; i < count && i < IQ_SHADER_MAX_TCMODS; i++) {
        float x[6];
        tcmod_matrix(&mods[i], env, x);
        then(out, x);
    }
}

/* RB_CalcTurbulentTexCoords for one vertex. */
static void turb(const iq_shader_tcmod *m, const iq_shader_env *env, const float *p, float *st) {
    double now = m->wave.phase + env->time * m->wave.frequency;
    float x = p ? p[0] : 0, y = p ? p[1] : 0, z = p ? p[2] : 0;
    st[0] += iq_shader_wave_table(IQ_WAVE_SIN, table_index(((x + z) * 1.0 / 128 * 0.125 + now) * TABLE_SIZE)) * m->wave.amplitude;
    st[1] += iq_shader_wave_table(IQ_WAVE_SIN, table_index((y * 1.0 / 128 * 0.125 + now) * TABLE_SIZE)) * m->wave.amplitude;
}

void iq_shader_texcoords(const iq_shader_stage *st, const iq_shader_env *env, uint32_t n, const float *positions,
                         const float *normals, const float *uv, float *out) {
    for (uint32_t i = 0; i < n; i++) {
        const float *p = positions ? positions + 3 * i : NULL, *nrm = normals ? normals + 3 * i : NULL;
        float s = uv ? uv[2 * i] : 0, t = uv ? uv[2 * i + 1] : 0;
        if (st->tcgen == IQ_TCGEN_ENVIRONMENT && p && nrm) { /* RB_CalcEnvironmentTexCoords */
            float viewer[3] = {env->view_origin[0] - p[0], env->view_origin[1] - p[1], env->view_origin[2] - p[2]};
            normalize3(viewer);
            float d = dot3(nrm, viewer);
            float r1 = nrm[1] * 2 * d - viewer[1], r2 = nrm[2] * 2 * d - viewer[2];
            s = 0.5f + r1 * 0.5f;
            t = 0.5f - r2 * 0.5f;
        } else if (st->tcgen == IQ_TCGEN_VECTOR && p) {
            s = dot3(p, st->tcgen_vectors);
            t = dot3(p, st->tcgen_vectors + 3);
        }
        float c[2] = {s, t};
        for (uint32_t k = 0; k < st->tcmod_count && k < IQ_SHADER_MAX_TCMODS; k++) {
            const iq_shader_tcmod *m = &st->tcmods[k];
            if (m->type == IQ_TCMOD_TURB) {
                turb(m, env, p, c);
                continue;
            }
            float x[6];
            tcmod_matrix(m, env, x);
            float a = c[0], b = c[1];
            c[0] = a * x[0] + b * x[2] + x[4];
            c[1] = a * x[1] + b * x[3] + x[5];
        }
        out[2 * i] = c[0];
        out[2 * i + 1] = c[1];
    }
}

// -- A stage's state for the frame

iq_error_code iq_shader_stage_eval(const iq_shader_stage *st, const iq_shader_env *env, iq_shader_stage_state *out) {
    if (!st || !env || !out || !(fabs(env->time) <= 1e9)) return IQ_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    int bytes[4];
    constant_bytes(st, env, bytes);
    for (int k = 0; k < 4; k++) out->color[k] = (float)bytes[k] / 255.0f;
    out->per_vertex = (rgb_per_vertex(st->rgb_gen) ? 1u : 0u) | (alpha_per_vertex(st, env) ? 2u : 0u);
    set_matrix(out->before, 1, 0, 0, 1, 0, 0);
    set_matrix(out->after, 1, 0, 0, 1, 0, 0);
    for (uint32_t k = 0; k < st->tcmod_count && k < IQ_SHADER_MAX_TCMODS; k++) {
        const iq_shader_tcmod *m = &st->tcmods[k];
        if (m->type == IQ_TCMOD_TURB) {
            if (out->turb_count++ == 0) {
                out->turb_phase = (float)(m->wave.phase + env->time * m->wave.frequency);
                out->turb_amplitude = m->wave.amplitude;
            }
            continue;
        }
        float x[6];
        tcmod_matrix(m, env, x);
        then(out->turb_count ? out->after : out->before, x);
    }
    if (st->frame_count > 1) { /* R_BindAnimatedImage: in step with waves of the same frequency */
        int64_t index = table_index(env->time * st->anim_frequency * TABLE_SIZE) >> 10;
        if (index < 0) index = 0;
        out->frame = (uint32_t)(index % st->frame_count);
    }
    return IQ_ERROR_NONE;
}

// -- Deforms

uint32_t iq_shader_deform_vertices(const iq_q3_shader *sh, const iq_shader_env *env, uint32_t n, float *positions,
                                   float *normals, const float *st) {
    uint32_t skipped = 0;
    const double t = env->time;
    for (uint32_t d = 0; d < sh->deform_count && d < IQ_SHADER_MAX_DEFORMS; d++) {
        const iq_shader_deform *ds = &sh->deforms[d];
        switch (ds->type) {
        case IQ_DEFORM_WAVE: { /* RB_CalcDeformVertexes: along the normal, the phase spread by position */
            float scale = iq_shader_wave_value(&ds->wave, t);
            for (uint32_t i = 0; i < n; i++) {
                float *p = positions + 3 * i, *nrm = normals + 3 * i;
                if (ds->wave.frequency != 0) {
                    iq_shader_wave w = ds->wave;
                    w.phase += (p[0] + p[1] + p[2]) * ds->spread;
                    scale = iq_shader_wave_value(&w, t);
                }
                for (int k = 0; k < 3; k++) p[k] += nrm[k] * scale;
            }
            break;
        }
        case IQ_DEFORM_NORMAL: /* RB_CalcDeformNormals: noise on each normal component */
            for (uint32_t i = 0; i < n; i++) {
                float *p = positions + 3 * i, *nrm = normals + 3 * i;
                for (int k = 0; k < 3; k++)
                    nrm[k] += ds->wave.amplitude * iq_shader_noise(100.0f * k + p[0] * 0.98f, p[1] * 0.98f, p[2] * 0.98f,
                                                                    t * ds->wave.frequency);
                normalize3(nrm);
            }
            break;
        case IQ_DEFORM_BULGE: { /* RB_CalcBulgeVertexes: a sine along s */
            double now = t * ds->bulge_speed;
            for (uint32_t i = 0; i < n; i++) {
                float *p = positions + 3 * i, *nrm = normals + 3 * i;
                float s = st ? st[2 * i] : 0;
                int64_t off = table_index((float)(TABLE_SIZE / (PI_D * 2)) * (s * ds->bulge_width + now));
                float scale = iq_shader_wave_table(IQ_WAVE_SIN, off) * ds->bulge_height;
                for (int k = 0; k < 3; k++) p[k] += nrm[k] * scale;
            }
            break;
        }
        case IQ_DEFORM_MOVE: { /* RB_CalcMoveVertexes: the whole surface along a vector */
            float scale = iq_shader_wave_value(&ds->wave, t);
            for (uint32_t i = 0; i < n; i++)
                for (int k = 0; k < 3; k++) positions[3 * i + k] += ds->vector[k] * scale;
            break;
        }
        case IQ_DEFORM_NONE: break;
        default: skipped++; break;
        }
    }
    return skipped;
}

// -- Autosprites: quads turned toward the view (tr_shade_calc.c's AutospriteDeform, Autosprite2Deform)

uint32_t iq_shader_autosprite(uint32_t kind, const float axes[9], uint32_t n, float *positions, float *normals,
                              float *st, float *colors, const uint32_t *indices, uint32_t index_count,
                              uint32_t *out_indices) {
    const float *forward = axes, *left = axes + 3, *up = axes + 6;
    if (kind == IQ_DEFORM_AUTOSPRITE) {
        /* Each quad becomes a square facing the view round its centre (RB_AddQuadStamp): corners
         * +left+up, -left+up, -left-up, +left-up, st 0/1, the first vertex's colour, triangles 0 1 3, 3 1 2. */
        static const float sl[4] = {1, -1, -1, 1}, su[4] = {1, 1, -1, -1};
        static const float cs[4] = {0, 1, 1, 0}, ct[4] = {0, 0, 1, 1};
        static const uint32_t tri[6] = {0, 1, 3, 3, 1, 2};
        uint32_t quads = n / 4;
        for (uint32_t q = 0; q < quads; q++) {
            float *p = positions + (size_t)q * 12;
            float mid[3], delta[3];
            for (int k = 0; k < 3; k++) {
                mid[k] = 0.25f * (p[k] + p[3 + k] + p[6 + k] + p[9 + k]);
                delta[k] = p[k] - mid[k];
            }
            float radius = sqrtf(delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2]) * 0.707f;
            for (int c = 0; c < 4; c++) {
                for (int k = 0; k < 3; k++) {
                    p[c * 3 + k] = mid[k] + (sl[c] * left[k] + su[c] * up[k]) * radius;
                    if (normals) normals[(size_t)q * 12 + c * 3 + k] = -forward[k];
                }
                if (st) {
                    st[(size_t)q * 8 + c * 2] = cs[c];
                    st[(size_t)q * 8 + c * 2 + 1] = ct[c];
                }
                if (colors && c > 0) memcpy(colors + (size_t)q * 16 + c * 4, colors + (size_t)q * 16, 4 * sizeof(float));
            }
            if (out_indices)
                for (int k = 0; k < 6; k++) out_indices[(size_t)q * 6 + k] = q * 4 + tri[k];
        }
        return quads * 2;
    }
    if (kind != IQ_DEFORM_AUTOSPRITE2) return 0;
    /* Each quad keeps its two shortest edges, pivoted about the axis between their middles to face
     * the view; which end goes which way follows the direction the quad's triangles run along the edge. */
    static const int edges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    for (uint32_t i = 0, first = 0; i + 3 < n; i += 4, first += 6) {
        float *xyz = positions + (size_t)i * 3;
        float lengths[2] = {999999, 999999};
        int nums[2] = {0, 0};
        for (int j = 0; j < 6; j++) {
            const float *a = xyz + 3 * edges[j][0], *b = xyz + 3 * edges[j][1];
            float d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
            float l = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (l < lengths[0]) {
                nums[1] = nums[0]; lengths[1] = lengths[0];
                nums[0] = j; lengths[0] = l;
            } else if (l < lengths[1]) {
                nums[1] = j; lengths[1] = l;
            }
        }
        float mid[2][3], major[3], minor[3];
        for (int j = 0; j < 2; j++) {
            const float *a = xyz + 3 * edges[nums[j]][0], *b = xyz + 3 * edges[nums[j]][1];
            for (int k = 0; k < 3; k++) mid[j][k] = 0.5f * (a[k] + b[k]);
        }
        for (int k = 0; k < 3; k++) major[k] = mid[1][k] - mid[0][k];
        minor[0] = major[1] * forward[2] - major[2] * forward[1];
        minor[1] = major[2] * forward[0] - major[0] * forward[2];
        minor[2] = major[0] * forward[1] - major[1] * forward[0];
        float ml = sqrtf(minor[0] * minor[0] + minor[1] * minor[1] + minor[2] * minor[2]);
        if (ml > 0)
            for (int k = 0; k < 3; k++) minor[k] /= ml;
        for (int j = 0; j < 2; j++) {
            uint32_t va = i + (uint32_t)edges[nums[j]][0], vb = i + (uint32_t)edges[nums[j]][1];
            float l = 0.5f * sqrtf(lengths[j]);
            int k = 0;
            while (k < 5 && !(first + k + 1 < index_count && indices && indices[first + k] == va &&
                              indices[first + k + 1] == vb))
                k++;
            float sign = k == 5 ? 1.0f : -1.0f;
            for (int c = 0; c < 3; c++) {
                positions[(size_t)va * 3 + c] = mid[j][c] + sign * l * minor[c];
                positions[(size_t)vb * 3 + c] = mid[j][c] - sign * l * minor[c];
            }
        }
    }
    return index_count / 3;
}
