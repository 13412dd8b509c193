/* Quake 3 shader scripts: the parser (every keyword of
 * tests/fixtures/shaders/every_keyword.shader read back), errors with line and
 * column, notes for what is not read, limits, name resolution; and every
 * per-frame formula against values worked out by hand (autosprite and
 * autosprite2 too; the derivation is in
 * the comment above each check); every heap allocation of a parse failing in
 * turn. Run from the project root. */
#include "check.h"
#include "sweeps.h"
#include "quake3/iq_shader.h"
#include <math.h>
#include <string.h>

#define NEAR(a, b, eps) (fabs((double)(a) - (double)(b)) <= (eps))
#define B(v) ((float)(v) / 255.0f) /* a byte as the colour functions return it */

static iq_shader_script *parse_text(const char *text, iq_error *err) { return iq_shader_parse(text, strlen(text), err); }

static iq_shader_script *parse_file(const char *path) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    CHECK(d != NULL, "%s missing (run from the project root)", path);
    if (!d) return NULL;
    iq_error err;
    iq_shader_script *s = iq_shader_parse(d, n, &err);
    CHECK(s != NULL, "%s: %s", path, err.message);
    free(d);
    return s;
}

static void expect_error(const char *text, iq_error_code code, uint32_t line, uint32_t column, const char *words) {
    iq_error err;
    iq_shader_script *s = parse_text(text, &err);
    CHECK(s == NULL, "parsed: %s", text);
    iq_shader_free(s);
    CHECK(err.code == code, "code %d, want %d (%s)", err.code, code, err.message);
    CHECK(err.line == line && err.column == column, "at %u:%u, want %u:%u (%s)", err.line, err.column, line, column, err.message);
    CHECK(strstr(err.message, words) != NULL, "'%s' lacks '%s'", err.message, words);
}

static void test_every_keyword(void) {
    iq_shader_script *s = parse_file("tests/fixtures/shaders/every_keyword.shader");
    if (!s) return;
    CHECK(s->shader_count == 2 && s->stage_count == 9, "%u shaders, %u stages", s->shader_count, s->stage_count);
    const iq_q3_shader *a = &s->shaders[0];
    CHECK(strcmp(a->name, "models/test/all.tga") == 0 && a->line == 2 && a->column == 1, "%s %u", a->name, a->line);
    CHECK(a->cull == IQ_CULL_NONE, "cull %u", a->cull);
    CHECK(a->sort_given == IQ_SORT_ADDITIVE && a->sort == IQ_SORT_ADDITIVE, "sort %g %g", a->sort_given, a->sort);
    CHECK(a->flags == (IQ_SHADER_NOMIPMAPS | IQ_SHADER_NOPICMIP | IQ_SHADER_POLYGON_OFFSET | IQ_SHADER_ENTITY_MERGABLE), "flags %x", a->flags);
    CHECK(a->deform_count == 3, "%u deforms", a->deform_count);
    const iq_shader_deform *d = a->deforms;
    CHECK(d[0].type == IQ_DEFORM_WAVE && NEAR(d[0].spread, 0.01, 1e-7) && d[0].wave.func == IQ_WAVE_SIN &&
          d[0].wave.base == 0 && d[0].wave.amplitude == 2 && d[0].wave.phase == 0.5f && d[0].wave.frequency == 1, "wave");
    CHECK(d[1].type == IQ_DEFORM_NORMAL && d[1].wave.amplitude == 0.5f && d[1].wave.frequency == 2, "normal: amplitude first, as tr_shader.c reads it");
    CHECK(d[2].type == IQ_DEFORM_BULGE && d[2].bulge_width == 3 && d[2].bulge_height == 4 && d[2].bulge_speed == 5, "bulge");
    CHECK(a->stage_count == 8, "%u stages", a->stage_count);

    const iq_shader_stage *st = a->stages;
    CHECK(st[0].map == IQ_MAP_IMAGE && !st[0].clamp && st[0].frame_count == 1 && strcmp(st[0].images[0].name, "models/test/skin.tga") == 0, "map");
    CHECK(st[0].rgb_gen == IQ_RGBGEN_LIGHTING_DIFFUSE && st[0].alpha_func == IQ_ALPHA_GE128 && st[0].depth_write == 1 &&
          st[0].blend_src == IQ_BLEND_NONE && st[0].line == 15, "stage 0 line %u", st[0].line);

    CHECK(st[1].clamp && strcmp(st[1].images[0].name, "models/test/glow.tga") == 0, "clampMap");
    CHECK(st[1].blend_src == IQ_BLEND_ONE && st[1].blend_dst == IQ_BLEND_ONE && st[1].depth_write == 0, "a blend turns depth writes off");
    CHECK(st[1].rgb_gen == IQ_RGBGEN_WAVE && st[1].rgb_wave.func == IQ_WAVE_TRIANGLE && st[1].rgb_wave.base == 0.25f &&
          st[1].rgb_wave.amplitude == 0.75f && st[1].rgb_wave.phase == 0.1f && st[1].rgb_wave.frequency == 2, "rgbGen wave");
    CHECK(st[1].alpha_gen == IQ_ALPHAGEN_WAVE && st[1].alpha_wave.func == IQ_WAVE_INVERSE_SAWTOOTH && st[1].alpha_wave.frequency == 0.5f, "alphaGen wave");
    CHECK(st[1].tcgen == IQ_TCGEN_ENVIRONMENT && st[1].tcmod_count == 4, "tcGen, %u tcMods", st[1].tcmod_count);
    const iq_shader_tcmod *m = st[1].tcmods;
    CHECK(m[0].type == IQ_TCMOD_SCROLL && m[0].params[0] == 0.5f && m[0].params[1] == -0.25f, "scroll");
    CHECK(m[1].type == IQ_TCMOD_SCALE && m[1].params[0] == 2 && m[1].params[1] == 3, "scale");
    CHECK(m[2].type == IQ_TCMOD_ROTATE && m[2].params[0] == 90, "rotate");
    CHECK(m[3].type == IQ_TCMOD_STRETCH && m[3].wave.func == IQ_WAVE_SQUARE && m[3].wave.base == 1 && m[3].wave.amplitude == 0.5f &&
          m[3].wave.frequency == 2, "stretch");

    CHECK(st[2].map == IQ_MAP_IMAGE && st[2].frame_count == 3 && st[2].anim_frequency == 4 &&
          strcmp(st[2].images[2].name, "models/test/f 3.tga") == 0 && st[2].images[3].name == NULL, "animMap with a quoted name");
    CHECK(st[2].blend_src == IQ_BLEND_SRC_ALPHA && st[2].blend_dst == IQ_BLEND_ONE_MINUS_SRC_ALPHA, "blend");
    CHECK(st[2].rgb_gen == IQ_RGBGEN_CONST && st[2].constant[0] == 0.5f && st[2].constant[1] == 0.25f && st[2].constant[2] == 1 &&
          st[2].alpha_gen == IQ_ALPHAGEN_CONST && st[2].constant[3] == 0.3f, "const");
    CHECK(st[2].tcgen == IQ_TCGEN_VECTOR && st[2].tcgen_vectors[0] == 0.01f && st[2].tcgen_vectors[4] == 0.02f, "tcGen vector");
    m = st[2].tcmods;
    CHECK(st[2].tcmod_count == 3 && m[0].type == IQ_TCMOD_TRANSFORM && m[0].params[2] == 3 && m[0].params[5] == 6, "transform");
    CHECK(m[1].type == IQ_TCMOD_TURB && m[1].wave.amplitude == 0.1f && m[1].wave.phase == 0.25f && m[1].wave.frequency == 1, "turb");
    CHECK(m[2].type == IQ_TCMOD_ENTITY_TRANSLATE && st[2].depth_func == IQ_DEPTH_EQUAL, "entityTranslate, depthFunc");

    CHECK(st[3].map == IQ_MAP_WHITE && st[3].images[0].name == NULL && st[3].blend_src == IQ_BLEND_DST_COLOR &&
          st[3].blend_dst == IQ_BLEND_ONE_MINUS_SRC_ALPHA && st[3].alpha_func == IQ_ALPHA_LT128, "$whiteimage");
    CHECK(st[3].rgb_gen == IQ_RGBGEN_VERTEX && st[3].alpha_gen == IQ_ALPHAGEN_VERTEX, "rgbGen vertex brings alphaGen vertex");
    CHECK(st[4].map == IQ_MAP_LIGHTMAP && st[4].blend_src == IQ_BLEND_DST_COLOR && st[4].blend_dst == IQ_BLEND_ZERO &&
          st[4].rgb_gen == IQ_RGBGEN_IDENTITY && st[4].alpha_gen == IQ_ALPHAGEN_LIGHTING_SPECULAR && st[4].alpha_func == IQ_ALPHA_GT0 &&
          st[4].tcgen == IQ_TCGEN_BASE && st[4].detail, "$lightmap stage");
    CHECK(st[5].rgb_gen == IQ_RGBGEN_ENTITY && st[5].alpha_gen == IQ_ALPHAGEN_ONE_MINUS_ENTITY, "entity");
    CHECK(st[6].blend_src == IQ_BLEND_SRC_ALPHA_SATURATE && st[6].blend_dst == IQ_BLEND_ONE_MINUS_SRC_COLOR &&
          st[6].rgb_gen == IQ_RGBGEN_ONE_MINUS_VERTEX && st[6].alpha_gen == IQ_ALPHAGEN_PORTAL && st[6].portal_range == 512, "portal");
    CHECK(st[7].blend_src == IQ_BLEND_ZERO && st[7].blend_dst == IQ_BLEND_SRC_COLOR && st[7].rgb_gen == IQ_RGBGEN_EXACT_VERTEX &&
          st[7].alpha_gen == IQ_ALPHAGEN_VERTEX, "exactVertex");

    const iq_q3_shader *b = &s->shaders[1];
    CHECK(b->deform_count == 2 && b->deforms[0].type == IQ_DEFORM_AUTOSPRITE && b->deforms[1].type == IQ_DEFORM_MOVE &&
          b->deforms[1].vector[2] == 10 && b->deforms[1].wave.func == IQ_WAVE_SAWTOOTH, "autosprite, move");
    CHECK(b->cull == IQ_CULL_BACK && b->sort_given == 12.5f && b->sort == 12.5f, "cull back, numeric sort");
    /* later rgbGen/alphaGen lines replace earlier ones */
    CHECK(b->stages[0].rgb_gen == IQ_RGBGEN_ONE_MINUS_ENTITY && b->stages[0].alpha_gen == IQ_ALPHAGEN_ONE_MINUS_VERTEX, "last wins");
    CHECK(s->note_count == 0, "%u notes, first: %s", s->note_count, s->notes_kept ? s->notes[0].detail : "");
    iq_shader_free(s);
}

static void test_defaults_and_sort(void) {
    iq_error err;
    /* Quake 3's defaults: identityLighting unless the source factor is not ONE or SRC_ALPHA;
     * GL_ONE GL_ZERO is no blend; the sort follows the first stage's blend and depth writes. */
    iq_shader_script *s = parse_text(
        "opaque { { map a } }\n"
        "filtered { { map a\n blendfunc filter } }\n"
        "added { { map a\n blendfunc add } }\n"
        "onezero { { map a\n blendFunc GL_ONE GL_ZERO } }\n"
        "grate { { map a\n blendfunc blend\n depthWrite } }\n"
        "decal { polygonOffset { map a } }\n"
        "sky { skyparms - 512 - }\n"
        "secondblend { { map a } { map b\n blendfunc add } }\n", &err);
    CHECK(s && s->shader_count == 8, "%s", err.message);
    if (!s) return;
    const iq_q3_shader *sh = s->shaders;
    CHECK(sh[0].stages[0].rgb_gen == IQ_RGBGEN_IDENTITY_LIGHTING && sh[0].sort == IQ_SORT_OPAQUE && sh[0].stages[0].depth_write, "opaque");
    CHECK(sh[1].stages[0].rgb_gen == IQ_RGBGEN_IDENTITY && sh[1].sort == IQ_SORT_BLEND0, "filter: identity, blend0");
    CHECK(sh[2].stages[0].rgb_gen == IQ_RGBGEN_IDENTITY_LIGHTING && sh[2].sort == IQ_SORT_BLEND0, "add");
    CHECK(sh[3].stages[0].blend_src == IQ_BLEND_NONE && sh[3].stages[0].depth_write && sh[3].sort == IQ_SORT_OPAQUE, "one zero");
    CHECK(sh[4].stages[0].depth_write && sh[4].sort == IQ_SORT_SEE_THROUGH, "blend + depthWrite: seeThrough");
    CHECK(sh[5].sort == IQ_SORT_DECAL, "polygonOffset: decal");
    CHECK(sh[6].sort == IQ_SORT_SKY && (sh[6].flags & IQ_SHADER_SKY) && !(sh[6].flags & IQ_SHADER_REFUSED), "sky");
    CHECK(sh[7].sort == IQ_SORT_OPAQUE, "only the first stage's blend sorts a shader");
    CHECK(strcmp(iq_shader_sort_name(IQ_SORT_SEE_THROUGH), "seeThrough") == 0 && iq_shader_sort_name(7.5f) == NULL, "names");
    CHECK(s->note_count == 1 && s->notes[0].kind == IQ_NOTE_IGNORED && strcmp(s->notes[0].keyword, "skyparms") == 0 &&
          s->notes[0].line == 12 && s->notes[0].shader == 6, "skyparms noted: %u %s %u %u", s->note_count, s->notes[0].keyword, s->notes[0].line, s->notes[0].shader);
    iq_shader_free(s);
}

static void test_notes(void) {
    iq_error err;
    iq_shader_script *s = parse_text(
        "a\n{\n  fancyGlow 1 2 3\n  {\n    map x.tga\n    specularMap y.tga 4\n    blendFunc GL_FOO GL_ONE\n    rgbGen bogus\n"
        "    tcMod wobble 1\n    alphaFunc GE200\n  }\n"
        "  deformVertexes wave 1 sin 0 1 0 1\n  deformVertexes wave 1 sin 0 1 0 1\n  deformVertexes wave 1 sin 0 1 0 1\n"
        "  deformVertexes wave 1 sin 0 1 0 1\n}\n"
        "b { { animMap 1 1 2 3 4 5 6 7 8 9 10 } }\n"
        "c { }\n"
        "d { {map 1} {map 2} {map 3} {map 4} {map 5} {map 6} {map 7} {map 8} {map 9} }\n", &err);
    CHECK(s != NULL, "unknown keywords never fail: %s", err.message);
    if (!s) return;
    CHECK(s->shader_count == 4 && s->shaders[0].stage_count == 1 && strcmp(s->shaders[0].stages[0].images[0].name, "x.tga") == 0,
          "the shader is kept");
    const iq_shader_note *n = s->notes;
    CHECK(s->note_count == 10 && s->notes_kept == 10, "%u notes", s->note_count);
    CHECK(n[0].kind == IQ_NOTE_UNKNOWN_KEYWORD && strcmp(n[0].keyword, "fancyGlow") == 0 && n[0].line == 3 && n[0].column == 3 &&
          strstr(n[0].detail, "1 2 3") != NULL, "%s: %s", n[0].keyword, n[0].detail);
    CHECK(n[1].kind == IQ_NOTE_UNKNOWN_KEYWORD && strcmp(n[1].keyword, "specularMap") == 0 && n[1].line == 6 &&
          strstr(n[1].detail, "y.tga 4") != NULL, "%s", n[1].detail);
    CHECK(n[2].kind == IQ_NOTE_UNKNOWN_VALUE && strcmp(n[2].keyword, "GL_FOO") == 0 && s->shaders[0].stages[0].blend_src == IQ_BLEND_ONE,
          "an unknown factor is GL_ONE");
    CHECK(strcmp(n[3].keyword, "bogus") == 0 && strcmp(n[4].keyword, "wobble") == 0 && s->shaders[0].stages[0].tcmod_count == 0, "rgbGen, tcMod");
    CHECK(strcmp(n[5].keyword, "GE200") == 0 && s->shaders[0].stages[0].alpha_func == IQ_ALPHA_ALL, "alphaFunc");
    CHECK(n[6].kind == IQ_NOTE_OVER_LIMIT && n[6].line == 15 && s->shaders[0].deform_count == 3, "a 4th deform");
    CHECK(n[7].kind == IQ_NOTE_OVER_LIMIT && n[7].shader == 1 && s->shaders[1].stages[0].frame_count == 8 &&
          strcmp(s->shaders[1].stages[0].images[7].name, "8") == 0, "animMap keeps 8 of 10");
    CHECK(n[8].shader == 2 && (s->shaders[2].flags & IQ_SHADER_REFUSED), "no stages");
    CHECK(n[9].shader == 3 && s->shaders[3].stage_count == 8 && (s->shaders[3].flags & IQ_SHADER_REFUSED), "9 stages: 8 kept, refused");
    iq_shader_free(s);

    /* only the first IQ_SHADER_MAX_NOTES are kept, all are counted */
    char *text = malloc(400 * 8 + 16);
    strcpy(text, "a {\n");
    for (int i = 0; i < 400; i++) strcat(text, "odd 1\n");
    strcat(text, "}\n");
    s = parse_text(text, &err);
    CHECK(s && s->note_count == 401 /* and "no stages" */ && s->notes_kept == IQ_SHADER_MAX_NOTES && s->notes[255].line == 257, "notes capped: %s %u %u", s ? "" : err.message, s ? s->note_count : 0, s ? s->notes[255].line : 0);
    iq_shader_free(s);
    free(text);
}

static void test_errors(void) {
    expect_error("a {\n  { map x\n  }\n", IQ_ERROR_TRUNCATED, 1, 1, "never closed");
    expect_error("a {\n  {\n    map x\n", IQ_ERROR_TRUNCATED, 2, 3, "stage opened here");
    expect_error("a\nb { }", IQ_ERROR_SYNTAX, 2, 1, "expected '{' after shader name 'a'");
    expect_error("a", IQ_ERROR_TRUNCATED, 1, 1, "has no '{'");
    expect_error("}", IQ_ERROR_SYNTAX, 1, 1, "expected a shader name");
    expect_error("a { /* open\n", IQ_ERROR_SYNTAX, 1, 5, "never closed");
    expect_error("a { { map \"x.tga\n } }", IQ_ERROR_SYNTAX, 1, 11, "quoted string");
    expect_error("a {\n { {", IQ_ERROR_SYNTAX, 2, 4, "inside a stage");
    expect_error("a {\n { map\n } }", IQ_ERROR_SYNTAX, 2, 4, "map: an image name is missing");
    expect_error("a {\n { map x\n   rgbGen wave sin 1 2\n } }", IQ_ERROR_SYNTAX, 3, 4, "base, amplitude, phase and frequency");
    expect_error("a {\n { map x\n   tcMod scroll fast 1\n } }", IQ_ERROR_SYNTAX, 3, 17, "expected a number, found 'fast'");
    expect_error("a {\n { map x\n   rgbGen const 1 1 1\n } }", IQ_ERROR_SYNTAX, 3, 17, "expected '('");
    expect_error("a {\n { map x\n   tcMod scale 1e20 1\n } }", IQ_ERROR_BAD_VALUE, 3, 16, "beyond");
    expect_error("a { { map x\n tcMod scale 1 1\n tcMod scale 1 1\n tcMod scale 1 1\n tcMod scale 1 1\n tcMod scale 1 1\n } }",
                 IQ_ERROR_LIMIT, 6, 2, "more than 4 tcMods");
    /* a NUL ends the text, as in the game */
    iq_error err;
    iq_shader_script *s = iq_shader_parse("a { { map x } }\0b {", 19, &err);
    CHECK(s && s->shader_count == 1, "NUL");
    iq_shader_free(s);
    /* atof reads the number at the front of '0.5f' (noted) */
    s = parse_text("a { { map x\n alphaGen const 0.5f } }", &err);
    CHECK(s && s->shaders[0].stages[0].constant[3] == 0.5f && s->note_count == 1 && s->notes[0].kind == IQ_NOTE_UNKNOWN_VALUE, "0.5f");
    iq_shader_free(s);
    CHECK(iq_shader_parse(NULL, 3, &err) == NULL && err.code == IQ_ERROR_INVALID_ARGUMENT, "NULL");
    s = iq_shader_parse(NULL, 0, &err);
    CHECK(s && s->shader_count == 0, "empty text");
    iq_shader_free(s);
}

static void test_limits(void) {
    iq_error err;
    char name[80];
    memset(name, 'n', 64);
    strcpy(name + 64, " { }");
    expect_error(name, IQ_ERROR_LIMIT, 1, 1, "at most 63");
    char *text = malloc(IQ_SHADER_MAX_BYTES + 1);
    memset(text, ' ', IQ_SHADER_MAX_BYTES + 1);
    CHECK(iq_shader_parse(text, IQ_SHADER_MAX_BYTES + 1, &err) == NULL && err.code == IQ_ERROR_LIMIT, "size");
    memset(text, 'w', 2000);
    memcpy(text, "a { ", 4);
    text[2000] = 0;
    expect_error(text, IQ_ERROR_LIMIT, 1, 5, "at most 1023");
    text[0] = 0;
    for (int i = 0; i <= IQ_SHADER_MAX_SHADERS; i++) strcat(text, "s{}\n");
    iq_shader_script *s = parse_text(text, &err);
    CHECK(!s && err.code == IQ_ERROR_LIMIT && err.line == IQ_SHADER_MAX_SHADERS + 1, "shader count: %s", err.message);
    iq_shader_free(s);
    text[strlen(text) - 4] = 0;
    s = parse_text(text, &err);
    CHECK(s && s->shader_count == IQ_SHADER_MAX_SHADERS, "4096 shaders");
    iq_shader_free(s);
    free(text);
}

static void test_find(void) {
    iq_shader_script *p = parse_file("tests/fixtures/shaders/player.shader");
    iq_error err;
    iq_shader_script *other = parse_text("models/players/sarge/band { { map other } }\nModels/Players/Sarge/Band { { map dup } }\n", &err);
    if (!p || !other) return;
    CHECK(iq_shader_find(p, "models/players/sarge/band.tga") == 0, "extension dropped");
    CHECK(iq_shader_find(p, "MODELS\\players\\Sarge\\VISOR.jpg") == 2, "case and backslashes");
    CHECK(iq_shader_find(p, "models/players/sarge/cigar") == 1, "no extension");
    CHECK(iq_shader_find(p, "models/players/sarge") == -1 && iq_shader_find(p, "models/players/sarge/band.x/y") == -1, "not found");
    CHECK(iq_shader_find(other, "models/players/sarge/band") == 0, "the first definition in a script wins");
    const iq_shader_script *order[2] = {other, p};
    uint32_t which = 9;
    const iq_q3_shader *sh = iq_shader_find_in(order, 2, "models/players/sarge/band.tga", &which);
    CHECK(sh && which == 0 && strcmp(sh->stages[0].images[0].name, "other") == 0, "the first script wins");
    sh = iq_shader_find_in(order, 2, "models/players/sarge/visor", &which);
    CHECK(sh && which == 1, "found in the second");
    CHECK(iq_shader_find_in(order, 2, "nothing", NULL) == NULL, "none");
    iq_shader_free(p);
    iq_shader_free(other);
    /* line endings: \r alone (old Mac files OpenArena ships), \r\n, and a stage on one line */
    iq_shader_script *le = parse_file("tests/fixtures/shaders/line_endings.shader");
    if (!le) return;
    CHECK(le->shader_count == 2 && le->shaders[1].line == 10 && le->shaders[0].stages[0].blend_src == IQ_BLEND_ONE &&
          le->shaders[1].stages[0].rgb_gen == IQ_RGBGEN_IDENTITY, "lines: %u", le->shaders[1].line);
    iq_shader_free(le);
}

// -- Maths

static void test_waves(void) {
    /* index = (int64)((phase + t * freq) * 1024) & 1023. The sine table is
     * sin(i * 360 / 1023 degrees): entry 256 is sin(90.088 deg) = 0.99999882,
     * not 1, so base 0.5 amp 0.5 at t = 0.25 gives 0.5 + 0.5 * 0.99999882 = 0.99999941. */
    iq_shader_wave w = {IQ_WAVE_SIN, 0.5f, 0.5f, 0, 1};
    CHECK(NEAR(iq_shader_wave_value(&w, 0.25), 0.99999941, 1e-7), "sin %.9f", iq_shader_wave_value(&w, 0.25));
    CHECK(iq_shader_wave_value(&w, 0) == 0.5f, "sin(0)");
    /* square: entry 614 (t = 0.6) is in the second half: -1; base 0 amp 2 -> -2 */
    w = (iq_shader_wave){IQ_WAVE_SQUARE, 0, 2, 0, 1};
    CHECK(iq_shader_wave_value(&w, 0.6) == -2, "square");
    /* triangle: 128 -> 128/256 = 0.5; 384 -> 1 - 128/256 = 0.5; 640 -> -0.5; 768 -> -1 */
    w = (iq_shader_wave){IQ_WAVE_TRIANGLE, 0, 1, 0.125f, 1};
    CHECK(iq_shader_wave_value(&w, 0) == 0.5f, "tri 128");
    w.phase = 0.375f;
    CHECK(iq_shader_wave_value(&w, 0) == 0.5f, "tri 384");
    w.phase = 0.625f;
    CHECK(iq_shader_wave_value(&w, 0) == -0.5f, "tri 640");
    w.phase = 0.75f;
    CHECK(iq_shader_wave_value(&w, 0) == -1.0f, "tri 768");
    /* sawtooth: (0.1 + 0.3 * 2) * 1024 = 716.8 -> 716 -> 716/1024 = 0.69921875; 1 + 2 * that = 2.3984375 */
    w = (iq_shader_wave){IQ_WAVE_SAWTOOTH, 1, 2, 0.1f, 2};
    CHECK(NEAR(iq_shader_wave_value(&w, 0.3), 2.3984375, 1e-6), "saw %.7f", iq_shader_wave_value(&w, 0.3));
    w.func = IQ_WAVE_INVERSE_SAWTOOTH; /* 1 + 2 * (1 - 0.69921875) = 1.6015625 */
    CHECK(NEAR(iq_shader_wave_value(&w, 0.3), 1.6015625, 1e-6), "inverse saw");
    /* negative phases wrap through & 1023: (int64)(-256) & 1023 = 768 -> 768/1024 = 0.75 */
    w = (iq_shader_wave){IQ_WAVE_SAWTOOTH, 0, 1, -0.25f, 0};
    CHECK(iq_shader_wave_value(&w, 123.0) == 0.75f, "negative phase");
    /* noise: lattice values at whole t, linear between: t = 0.5 is the mean of t = 0 and t = 1 */
    float n0 = iq_shader_noise(0, 0, 0, 0), n1 = iq_shader_noise(0, 0, 0, 1), nh = iq_shader_noise(0, 0, 0, 0.5);
    CHECK(NEAR(nh, (n0 + n1) / 2, 1e-6) && fabsf(n0) <= 1 && fabsf(n1) <= 1 && n0 != n1, "noise %g %g %g", n0, n1, nh);
    w = (iq_shader_wave){IQ_WAVE_NOISE, 1, 2, 0, 1}; /* base + noise((t + phase) * freq) * amp */
    CHECK(NEAR(iq_shader_wave_value(&w, 1), 1 + 2 * n1, 1e-6), "noise wave");
}

static iq_shader_stage stage(uint32_t rgb, uint32_t alpha) {
    iq_shader_stage s;
    memset(&s, 0, sizeof s);
    s.rgb_gen = rgb;
    s.alpha_gen = alpha;
    s.portal_range = 256;
    return s;
}

static void test_colors(void) {
    iq_shader_env env;
    iq_shader_env_default(&env);
    iq_shader_stage_state out;
    /* rgbGen wave sin 0.5 0.5 0 1 at t = 0: entry 0 -> 0.5 -> (int)(255 * 0.5 = 127.5) = 127 */
    iq_shader_stage s = stage(IQ_RGBGEN_WAVE, IQ_ALPHAGEN_IDENTITY);
    s.rgb_wave = (iq_shader_wave){IQ_WAVE_SIN, 0.5f, 0.5f, 0, 1};
    CHECK(iq_shader_stage_eval(&s, &env, &out) == 0 && out.color[0] == B(127) && out.color[2] == B(127) && out.color[3] == 1 &&
          out.per_vertex == 0, "wave %g", out.color[0] * 255);
    /* with identityLight 0.5 (overbright): 0.25 -> 63.75 -> 63; identityLighting -> 127 */
    env.identity_light = 0.5f;
    iq_shader_stage_eval(&s, &env, &out);
    CHECK(out.color[0] == B(63), "overbright %g", out.color[0] * 255);
    s.rgb_gen = IQ_RGBGEN_IDENTITY_LIGHTING;
    iq_shader_stage_eval(&s, &env, &out);
    CHECK(out.color[1] == B(127), "identityLighting");
    env.identity_light = 1;
    /* alphaGen wave sawtooth 0 1 0 1 at t = 0.5: entry 512 -> 0.5 -> 127 */
    s = stage(IQ_RGBGEN_IDENTITY, IQ_ALPHAGEN_WAVE);
    s.alpha_wave = (iq_shader_wave){IQ_WAVE_SAWTOOTH, 0, 1, 0, 1};
    env.time = 0.5;
    iq_shader_stage_eval(&s, &env, &out);
    CHECK(out.color[0] == 1 && out.color[3] == B(127), "alpha wave");
    /* alphaGen wave is clamped: base 2 -> 1 -> 255 */
    s.alpha_wave.base = 2;
    iq_shader_stage_eval(&s, &env, &out);
    CHECK(out.color[3] == 1, "clamped");
    /* const ( 0.5 0.25 1 ), alpha 0.3: 127.5 -> 127, 63.75 -> 63, 255, 76.5 -> 76 */
    s = stage(IQ_RGBGEN_CONST, IQ_ALPHAGEN_CONST);
    s.constant[0] = 0.5f, s.constant[1] = 0.25f, s.constant[2] = 1, s.constant[3] = 0.3f;
    iq_shader_stage_eval(&s, &env, &out);
    CHECK(out.color[0] == B(127) && out.color[1] == B(63) && out.color[2] == 1 && out.color[3] == B(76), "const");
    /* entity (1, 0.5, 0, 0.2) as bytes 255, 128, 0, 51; oneMinus: 0, 127, 255, 204 */
    env.entity_color[1] = 0.5f, env.entity_color[2] = 0, env.entity_color[3] = 0.2f;
    s = stage(IQ_RGBGEN_ENTITY, IQ_ALPHAGEN_ENTITY);
    iq_shader_stage_eval(&s, &env, &out);
    CHECK(out.color[0] == 1 && out.color[1] == B(128) && out.color[2] == 0 && out.color[3] == B(51), "entity");
    s = stage(IQ_RGBGEN_ONE_MINUS_ENTITY, IQ_ALPHAGEN_ONE_MINUS_ENTITY);
    iq_shader_stage_eval(&s, &env, &out);
    CHECK(out.color[0] == 0 && out.color[1] == B(127) && out.color[2] == 1 && out.color[3] == B(204), "oneMinusEntity");

    /* per vertex */
    float pos[6] = {0, 0, 0, 0, 0, 0}, nrm[6] = {1, 0, 0, -1, 0, 0}, rgba[8];
    float vc[8] = {0.2f, 0.4f, 0.6f, 0.8f, 1, 1, 1, 1};
    /* lightingDiffuse, light (0.6, 0, 0.8), ambient 100, directed 150:
     * n = +x: incoming 0.6 -> 100 + 90 = 190; n = -x: incoming -0.6 <= 0 -> ambient 100 */
    iq_shader_env_default(&env);
    env.light_dir[0] = 0.6f, env.light_dir[1] = 0, env.light_dir[2] = 0.8f;
    for (int k = 0; k < 3; k++) env.ambient_light[k] = 100;
    s = stage(IQ_RGBGEN_LIGHTING_DIFFUSE, IQ_ALPHAGEN_IDENTITY);
    iq_shader_stage_eval(&s, &env, &out);
    CHECK(out.per_vertex == 1, "rgb per vertex");
    iq_shader_colors(&s, &env, 2, pos, nrm, NULL, rgba);
    CHECK(rgba[0] == B(190) && rgba[3] == 1 && rgba[4] == B(100), "diffuse %g %g", rgba[0] * 255, rgba[4] * 255);
    /* ambient is clamped to identityLightByte (255): 300 + 0.6 * 150 -> 255 either way */
    for (int k = 0; k < 3; k++) env.ambient_light[k] = 300;
    iq_shader_colors(&s, &env, 2, pos, nrm, NULL, rgba);
    CHECK(rgba[0] == 1 && rgba[4] == 1, "clamped ambient");
    /* lightingSpecular, light at (0,0,10), n = +z at the origin: to light (0,0,1), d = 1,
     * reflected (0,0,1). Eye (0,0,5): l = 5/5 = 1 -> 255. Eye (5,0,5): l = 5/sqrt(50) =
     * 0.7071, l^4 = 0.25 -> 63.75 -> 63. Eye (0,0,-5): l = -1 < 0 -> 0. */
    float up[3] = {0, 0, 1};
    s = stage(IQ_RGBGEN_IDENTITY, IQ_ALPHAGEN_LIGHTING_SPECULAR);
    env.specular_origin[0] = env.specular_origin[1] = 0, env.specular_origin[2] = 10;
    float eyes[3][3] = {{0, 0, 5}, {5, 0, 5}, {0, 0, -5}};
    float want[3] = {1, B(63), 0};
    for (int e = 0; e < 3; e++) {
        memcpy(env.view_origin, eyes[e], sizeof eyes[e]);
        iq_shader_colors(&s, &env, 1, pos, up, NULL, rgba);
        CHECK(rgba[3] == want[e] && rgba[0] == 1, "specular %d: %g", e, rgba[3] * 255);
    }
    /* vertex colours (0.2 0.4 0.6 0.8) as bytes 51 102 153 204; rgbGen vertex brings their alpha */
    s = stage(IQ_RGBGEN_VERTEX, IQ_ALPHAGEN_VERTEX);
    iq_shader_colors(&s, &env, 2, pos, nrm, vc, rgba);
    CHECK(rgba[0] == B(51) && rgba[1] == B(102) && rgba[2] == B(153) && rgba[3] == B(204) && rgba[7] == 1, "vertex");
    /* identityLight 0.5: 25.5 -> 25, 51, 76.5 -> 76; alpha untouched */
    env.identity_light = 0.5f;
    iq_shader_colors(&s, &env, 1, pos, nrm, vc, rgba);
    CHECK(rgba[0] == B(25) && rgba[1] == B(51) && rgba[2] == B(76) && rgba[3] == B(204), "vertex overbright");
    env.identity_light = 1;
    s = stage(IQ_RGBGEN_ONE_MINUS_VERTEX, IQ_ALPHAGEN_ONE_MINUS_VERTEX);
    iq_shader_colors(&s, &env, 1, pos, nrm, vc, rgba);
    CHECK(rgba[0] == B(204) && rgba[1] == B(153) && rgba[2] == B(102) && rgba[3] == B(51), "oneMinusVertex");
    s = stage(IQ_RGBGEN_EXACT_VERTEX, IQ_ALPHAGEN_IDENTITY); /* exactVertex then alphaGen identity -> 255 */
    iq_shader_colors(&s, &env, 1, pos, nrm, vc, rgba);
    CHECK(rgba[0] == B(51) && rgba[3] == 1, "exactVertex");
    /* portal: range 100, vertex 50 from the eye -> 0.5 * 255 = 127.5 -> 127 */
    s = stage(IQ_RGBGEN_IDENTITY, IQ_ALPHAGEN_PORTAL);
    s.portal_range = 100;
    float far[3] = {0, 50, 0};
    memset(env.view_origin, 0, sizeof env.view_origin);
    iq_shader_colors(&s, &env, 1, far, up, NULL, rgba);
    CHECK(rgba[3] == B(127), "portal %g", rgba[3] * 255);
}

static void apply(const float m[6], float s, float t, float out[2]) {
    out[0] = m[0] * s + m[2] * t + m[4];
    out[1] = m[1] * s + m[3] * t + m[5];
}

static void test_texcoords(void) {
    iq_shader_env env;
    iq_shader_env_default(&env);
    float m[6], p[2];
    iq_shader_tcmod mods[4];
    memset(mods, 0, sizeof mods);
    /* scroll 0.5 -0.25 at t = 3: 1.5 -> 0.5, -0.75 -> 0.25 (only the fraction is kept) */
    mods[0].type = IQ_TCMOD_SCROLL, mods[0].params[0] = 0.5f, mods[0].params[1] = -0.25f;
    env.time = 3;
    iq_shader_tcmod_matrix(mods, 1, &env, m);
    CHECK(m[0] == 1 && m[3] == 1 && m[4] == 0.5f && m[5] == 0.25f, "scroll %g %g", m[4], m[5]);
    /* scale 2 3 then that scroll: (1, 1) -> (2, 3) -> (2.5, 3.25) */
    mods[1] = mods[0];
    mods[0].type = IQ_TCMOD_SCALE, mods[0].params[0] = 2, mods[0].params[1] = 3;
    iq_shader_tcmod_matrix(mods, 2, &env, m);
    apply(m, 1, 1, p);
    CHECK(p[0] == 2.5f && p[1] == 3.25f, "scale then scroll: %g %g", p[0], p[1]);
    /* rotate 90 deg/s at t = 1: degs = -90, index = (int64)(-90 * 1024/360) = -256 -> & 1023 = 768:
     * sin = table[768] = sin(270.264 deg) = -0.99998939, cos = table[0] = 0. Matrix
     * (c, s, -s, c, 0.5 - 0.5c + 0.5s, 0.5 - 0.5s - 0.5c): (1, 0.5) -> (0.5 * 0.99998939 + 0.0000053,
     * -0.99998939 + 0.9999947) = (0.5, 0.0000053) */
    memset(mods, 0, sizeof mods);
    mods[0].type = IQ_TCMOD_ROTATE, mods[0].params[0] = 90;
    env.time = 1;
    iq_shader_tcmod_matrix(mods, 1, &env, m);
    CHECK(m[0] == 0 && NEAR(m[1], -0.99998939, 1e-7) && NEAR(m[2], 0.99998939, 1e-7), "rotate %g %g", m[1], m[2]);
    apply(m, 1, 0.5f, p);
    CHECK(NEAR(p[0], 0.5, 1e-6) && NEAR(p[1], 0.0000053, 1e-6), "rotate point %g %g", p[0], p[1]);
    /* stretch sin base 2 amp 0: 1/2 about the centre: (0.5, 0, 0, 0.5, 0.25, 0.25); (1, 1) -> (0.75, 0.75) */
    mods[0].type = IQ_TCMOD_STRETCH, mods[0].wave = (iq_shader_wave){IQ_WAVE_SIN, 2, 0, 0, 1};
    iq_shader_tcmod_matrix(mods, 1, &env, m);
    apply(m, 1, 1, p);
    CHECK(m[0] == 0.5f && m[4] == 0.25f && p[0] == 0.75f && p[1] == 0.75f, "stretch");
    /* transform 1 2 3 4 5 6: s' = s + 3t + 5, t' = 2s + 4t + 6; (1, 1) -> (9, 12) */
    mods[0].type = IQ_TCMOD_TRANSFORM;
    for (int k = 0; k < 6; k++) mods[0].params[k] = (float)(k + 1);
    iq_shader_tcmod_matrix(mods, 1, &env, m);
    apply(m, 1, 1, p);
    CHECK(p[0] == 9 && p[1] == 12, "transform %g %g", p[0], p[1]);
    /* entityTranslate with shaderTexCoord (0.25, 0) at t = 3: 0.75 */
    mods[0].type = IQ_TCMOD_ENTITY_TRANSLATE;
    env.entity_texcoord[0] = 0.25f;
    env.time = 3;
    iq_shader_tcmod_matrix(mods, 1, &env, m);
    CHECK(m[4] == 0.75f && m[5] == 0, "entityTranslate");

    /* A stage: scale 2 2, turb (amp 0.1 phase 0.25 freq 0), scroll 0.5 0 at t = 1.
     * turb at the origin: entry (0 + 0.25) * 1024 = 256 -> 0.99999882 * 0.1 added to s and t.
     * (1, 1) -> scale (2, 2) -> turb (2.1, 2.1) -> scroll (2.6, 2.1). */
    iq_shader_stage st = stage(IQ_RGBGEN_IDENTITY, IQ_ALPHAGEN_IDENTITY);
    st.tcmod_count = 3;
    st.tcmods[0].type = IQ_TCMOD_SCALE, st.tcmods[0].params[0] = st.tcmods[0].params[1] = 2;
    st.tcmods[1].type = IQ_TCMOD_TURB, st.tcmods[1].wave = (iq_shader_wave){IQ_WAVE_SIN, 0, 0.1f, 0.25f, 0};
    st.tcmods[2].type = IQ_TCMOD_SCROLL, st.tcmods[2].params[0] = 0.5f;
    env.time = 1;
    iq_shader_stage_state out;
    iq_shader_stage_eval(&st, &env, &out);
    CHECK(out.turb_count == 1 && out.before[0] == 2 && out.before[4] == 0 && out.after[0] == 1 && out.after[4] == 0.5f &&
          out.turb_phase == 0.25f && out.turb_amplitude == 0.1f, "stage matrices");
    float origin[3] = {0, 0, 0}, up[3] = {0, 0, 1}, uv[2] = {1, 1}, res[2];
    iq_shader_texcoords(&st, &env, 1, origin, up, uv, res);
    CHECK(NEAR(res[0], 2.6, 1e-6) && NEAR(res[1], 2.1, 1e-6), "chain with turb %g %g", res[0], res[1]);

    /* tcGen environment at the origin, n = +z. Eye (0,0,10): viewer (0,0,1), d = 1,
     * reflected (0,0,1): s = 0.5 + 0 = 0.5, t = 0.5 - 0.5 = 0. Eye (10,0,0): d = 0,
     * reflected (-1,0,0): (0.5, 0.5). n = +y, eye (0,10,0): reflected (0,1,0): (1, 0.5). */
    st = stage(IQ_RGBGEN_IDENTITY, IQ_ALPHAGEN_IDENTITY);
    st.tcgen = IQ_TCGEN_ENVIRONMENT;
    env.view_origin[2] = 10;
    iq_shader_texcoords(&st, &env, 1, origin, up, NULL, res);
    CHECK(res[0] == 0.5f && res[1] == 0, "env 1: %g %g", res[0], res[1]);
    env.view_origin[2] = 0, env.view_origin[0] = 10;
    iq_shader_texcoords(&st, &env, 1, origin, up, NULL, res);
    CHECK(res[0] == 0.5f && res[1] == 0.5f, "env 2: %g %g", res[0], res[1]);
    float ny[3] = {0, 1, 0};
    env.view_origin[0] = 0, env.view_origin[1] = 10;
    iq_shader_texcoords(&st, &env, 1, origin, ny, NULL, res);
    CHECK(res[0] == 1 && res[1] == 0.5f, "env 3: %g %g", res[0], res[1]);
    /* tcGen vector ( 0.01 0 0 ) ( 0 0.02 0 ) at (100, 50, 7): (1, 1) */
    st.tcgen = IQ_TCGEN_VECTOR;
    st.tcgen_vectors[0] = 0.01f, st.tcgen_vectors[4] = 0.02f;
    float at[3] = {100, 50, 7};
    iq_shader_texcoords(&st, &env, 1, at, up, NULL, res);
    CHECK(NEAR(res[0], 1, 1e-6) && NEAR(res[1], 1, 1e-6), "vector %g %g", res[0], res[1]);

    /* animMap 2 fps, 3 frames: index = (int64)(t * 2 * 1024) >> 10, mod 3.
     * t = 1.6: 3276 >> 10 = 3 -> 0; t = 1.2: 2457 >> 10 = 2 -> 2; t = 0.4: 819 >> 10 = 0 */
    st.frame_count = 3;
    st.anim_frequency = 2;
    double times[3] = {1.6, 1.2, 0.4};
    uint32_t frames[3] = {0, 2, 0};
    for (int k = 0; k < 3; k++) {
        env.time = times[k];
        iq_shader_stage_eval(&st, &env, &out);
        CHECK(out.frame == frames[k], "animMap at %g: %u", times[k], out.frame);
    }
    env.time = NAN;
    CHECK(iq_shader_stage_eval(&st, &env, &out) == IQ_ERROR_INVALID_ARGUMENT, "NaN time");
}

static void test_deforms(void) {
    iq_shader_env env;
    iq_shader_env_default(&env);
    iq_q3_shader sh;
    memset(&sh, 0, sizeof sh);
    float pos[6] = {0, 0, 0, 10, 20, 20}, nrm[6] = {0, 0, 1, 0, 0, 1}, st[4] = {0, 0, 1, 0};
    /* wave div 100 (spread 0.01), square 0 2 0 1, t = 0: vertex 0: entry 0 -> +1 -> z + 2;
     * vertex 1: off = (10 + 20 + 20) * 0.01 = 0.5 -> entry 512 -> -1 -> z - 2 */
    sh.deform_count = 1;
    sh.deforms[0].type = IQ_DEFORM_WAVE;
    sh.deforms[0].spread = 0.01f;
    sh.deforms[0].wave = (iq_shader_wave){IQ_WAVE_SQUARE, 0, 2, 0, 1};
    CHECK(iq_shader_deform_vertices(&sh, &env, 2, pos, nrm, st) == 0, "none skipped");
    CHECK(pos[2] == 2 && pos[5] == 18 && pos[3] == 10, "wave %g %g", pos[2], pos[5]);
    /* frequency 0: one value for every vertex, no spread: square base 1 amp 0 -> +1 */
    sh.deforms[0].wave = (iq_shader_wave){IQ_WAVE_SQUARE, 1, 0, 0, 0};
    iq_shader_deform_vertices(&sh, &env, 2, pos, nrm, st);
    CHECK(pos[2] == 3 && pos[5] == 19, "wave, frequency 0");
    /* move ( 0 0 10 ) square 0 1 0 1 at t = 0: entry 0 -> 1 -> z + 10 */
    sh.deforms[0].type = IQ_DEFORM_MOVE;
    sh.deforms[0].vector[2] = 10;
    sh.deforms[0].wave = (iq_shader_wave){IQ_WAVE_SQUARE, 0, 1, 0, 1};
    iq_shader_deform_vertices(&sh, &env, 2, pos, nrm, st);
    CHECK(pos[2] == 13 && pos[5] == 29 && pos[0] == 0, "move");
    /* bulge width 1 height 2 speed 0: off = (int64)(162.97466 * s); s = 0 -> entry 0 -> 0;
     * s = 1 -> entry 162 = sin(57.0088 deg) = 0.8387542 -> z + 1.6775084 */
    sh.deforms[0].type = IQ_DEFORM_BULGE;
    sh.deforms[0].bulge_width = 1, sh.deforms[0].bulge_height = 2, sh.deforms[0].bulge_speed = 0;
    iq_shader_deform_vertices(&sh, &env, 2, pos, nrm, st);
    CHECK(pos[2] == 13 && NEAR(pos[5], 29 + 1.6775084, 1e-5), "bulge %.7f", pos[5] - 29);
    /* normal: noise added to each component, then renormalised; amplitude 0 changes nothing */
    sh.deforms[0].type = IQ_DEFORM_NORMAL;
    sh.deforms[0].wave = (iq_shader_wave){IQ_WAVE_NONE, 0, 0, 0, 2};
    iq_shader_deform_vertices(&sh, &env, 2, pos, nrm, st);
    CHECK(nrm[2] == 1 && nrm[5] == 1, "normal, amplitude 0");
    sh.deforms[0].wave.amplitude = 0.5f;
    env.time = 0.3;
    iq_shader_deform_vertices(&sh, &env, 2, pos, nrm, st);
    float len = sqrtf(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    CHECK(NEAR(len, 1, 1e-5) && nrm[2] != 1, "normal wiggled, unit length: %g", len);
    /* autosprite needs the view axes: counted as skipped, nothing moved */
    sh.deforms[0].type = IQ_DEFORM_AUTOSPRITE;
    float before = pos[5];
    CHECK(iq_shader_deform_vertices(&sh, &env, 2, pos, nrm, st) == 1 && pos[5] == before, "autosprite skipped");
}

// -- Every heap allocation of a parse failing in turn (sweeps.h): a clean out_of_memory, nothing left

typedef struct { const unsigned char *text; size_t size; uint32_t shaders; } script_bytes;

static int parse_attempt(const void *arg, iq_error *err) {
    const script_bytes *b = arg;
    iq_shader_script *s = iq_shader_parse(b->text, b->size, err);
    int ok = s && s->shader_count == b->shaders;
    iq_shader_free(s);
    return ok;
}

static void test_allocation_failures(void) {
    size_t n;
    unsigned char *d = iqt_read_file("tests/fixtures/shaders/every_keyword.shader", &n);
    CHECK(d != NULL, "every_keyword.shader missing");
    if (!d) return;
    iq_shader_script *s = iq_shader_parse(d, n, NULL);
    script_bytes b = {d, n, s ? s->shader_count : 0};
    iq_shader_free(s);
    iqt_allocation_sweep("every_keyword.shader", parse_attempt, &b);
    /* more shaders than the first block of 16 holds: the array grows, and each growth fails in turn */
    static char many[40 * 32];
    size_t at = 0;
    for (int i = 0; i < 40; i++) at += (size_t)snprintf(many + at, sizeof many - at, "s%d { cull none }\n", i);
    script_bytes m = {(const unsigned char *)many, at, 40};
    iqt_allocation_sweep("40 shaders", parse_attempt, &m);
    free(d);
}

/* What the engines accept and we read as they do: Nexuiz's scripts/mflag.shader and
 * onslaught.shader leave out deformVertexes wave's spread ("wave sin 0 3 0 0.1"); Quake 3's
 * ParseDeform reads 'sin' with atof (0: spread 100), the next word as the function ('0': not one,
 * so sin) and stops at the missing frequency (0); DarkPlaces reads the same numbers. */
static void test_engine_leniency(void) {
    iq_error err;
    iq_shader_script *s = parse_text("mflagshader\n\t{\n\tcull none\n\tdeformVertexes wave sin 0 3 0 0.1\n\t{\n\tmap models/mflag/flag.tga\n\t}\n\t}\n", &err);
    CHECK(s != NULL, "mflag: %s (line %u, column %u)", err.message, err.line, err.column);
    if (!s) return;
    const iq_shader_deform *d = &s->shaders[0].deforms[0];
    CHECK(s->shaders[0].deform_count == 1 && d->type == IQ_DEFORM_WAVE && d->spread == 100.0f, "spread %g", d->spread);
    CHECK(d->wave.func == IQ_WAVE_SIN && d->wave.base == 3.0f && d->wave.amplitude == 0.0f && fabsf(d->wave.phase - 0.1f) < 1e-6f &&
          d->wave.frequency == 0.0f, "wave %u %g %g %g %g", d->wave.func, d->wave.base, d->wave.amplitude, d->wave.phase, d->wave.frequency);
    CHECK(s->note_count == 4 && strcmp(s->notes[0].keyword, "sin") == 0 && s->notes[0].line == 4 && s->notes[0].column == 22 &&
          strcmp(s->notes[1].keyword, "0") == 0 && strstr(s->notes[2].detail, "3 of the wave's 4 numbers") != NULL && strstr(s->notes[3].detail, "spread 100") != NULL,
          "%u notes: %s / %s", s->note_count, s->note_count ? s->notes[0].keyword : "", s->note_count > 2 ? s->notes[2].detail : "");
    iq_shader_free(s);
    /* a spread given and numbers missing at the line's end: 0, noted */
    s = parse_text("a {\n deformVertexes wave 10 square 1 2\n { map x }\n}\n", &err);
    CHECK(s && s->shaders[0].deforms[0].spread == 0.1f && s->shaders[0].deforms[0].wave.func == IQ_WAVE_SQUARE &&
          s->shaders[0].deforms[0].wave.amplitude == 2.0f && s->shaders[0].deforms[0].wave.phase == 0.0f && s->note_count == 1,
          "missing phase and frequency: %s", s ? "" : err.message);
    iq_shader_free(s);
    /* a word that is no number where a number must be, after the spread, is still an error */
    expect_error("a {\n deformVertexes wave 1 sin 0 x 0 1\n}\n", IQ_ERROR_SYNTAX, 2, 30, "expected a number, found 'x'");
}

static void test_autosprite(void) {
    /* Looking along +Y (left -X, up +Z): a flat square in the XY plane centred on (10, 20, 30) becomes
     * a square facing the view, radius |corner - centre| * 0.707, st at its corners, vertex 0's colour,
     * normals toward the viewer, triangles 0 1 3, 3 1 2. */
    const float axes[9] = {0, 1, 0, -1, 0, 0, 0, 0, 1};
    float p[15] = {12, 22, 30, 8, 22, 30, 8, 18, 30, 12, 18, 30, 5, 5, 5};
    float n[15] = {0}, st[10] = {0}, c[20];
    for (int i = 0; i < 20; i++) c[i] = (float)i / 20;
    uint32_t out[6];
    uint32_t tris = iq_shader_autosprite(IQ_DEFORM_AUTOSPRITE, axes, 5, p, n, st, c, NULL, 0, out);
    CHECK(tris == 2, "one quad, two triangles (the fifth vertex is no quad)");
    float r = sqrtf(8) * 0.707f;
    const float want[12] = {10 - r, 20, 30 + r, 10 + r, 20, 30 + r, 10 + r, 20, 30 - r, 10 - r, 20, 30 - r};
    int wrong = 0;
    for (int i = 0; i < 12; i++) wrong += fabsf(p[i] - want[i]) > 1e-5f;
    CHECK(wrong == 0, "autosprite corners: (%g %g %g) (%g %g %g)", p[0], p[1], p[2], p[3], p[4], p[5]);
    CHECK(p[12] == 5 && p[13] == 5 && p[14] == 5, "the vertex past the last quad stays");
    CHECK(n[1] == -1 && n[4] == -1 && n[10] == -1 && n[0] == 0, "normals toward the viewer");
    const float want_st[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    CHECK(memcmp(st, want_st, sizeof want_st) == 0, "st at the corners");
    CHECK(c[4] == c[0] && c[15] == c[3] && c[16] == 16.0f / 20, "vertex 0's colour on the quad only");
    const uint32_t want_idx[6] = {0, 1, 3, 3, 1, 2};
    CHECK(memcmp(out, want_idx, sizeof out) == 0, "Quake 3's triangles");
    /* autosprite2: a 10 x 2 quad along X seen edge-on (looking along +Y) pivots about its long axis
     * into the XZ plane; the short edge the triangles run along (1 -> 2) goes the other way. */
    float q[12] = {0, -1, 0, 10, -1, 0, 10, 1, 0, 0, 1, 0};
    const uint32_t idx[6] = {0, 1, 3, 3, 1, 2};
    tris = iq_shader_autosprite(IQ_DEFORM_AUTOSPRITE2, axes, 4, q, NULL, NULL, NULL, idx, 6, NULL);
    const float want2[12] = {0, 0, 1, 10, 0, -1, 10, 0, 1, 0, 0, -1};
    wrong = 0;
    for (int i = 0; i < 12; i++) wrong += fabsf(q[i] - want2[i]) > 1e-6f;
    CHECK(tris == 2 && wrong == 0, "autosprite2: (%g %g %g) (%g %g %g) (%g %g %g) (%g %g %g)", q[0], q[1], q[2], q[3], q[4],
          q[5], q[6], q[7], q[8], q[9], q[10], q[11]);
    CHECK(iq_shader_autosprite(IQ_DEFORM_WAVE, axes, 4, q, NULL, NULL, NULL, idx, 6, NULL) == 0, "another deform: nothing");
}

int main(void) {
    test_every_keyword();
    test_allocation_failures();
    test_defaults_and_sort();
    test_notes();
    test_errors();
    test_limits();
    test_find();
    test_waves();
    test_colors();
    test_texcoords();
    test_deforms();
    test_engine_leniency();
    test_autosprite();
    return iqt_finish("test_shader");
}
