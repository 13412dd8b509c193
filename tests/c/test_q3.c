/* Native tests of the Quake 3 companion parsers under ASan/UBSan: animation.cfg
 * (formats.md section 2, bad-input case 33) and .skin (case 34), with answers
 * worked out by hand from the rules (the zip reader: test_zip.c). Run from the
 * repository root. */
#include "check.h"
#include "quake3/iq_quake3.h"
#include <math.h>
#include <string.h>

#define SARGE "../shared/corpus/md3/openarena/models/players/sarge/"

static int cfg(const char *text, iq_q3_config *c, iq_error *err) { return iq_q3_parse_animation_cfg(text, strlen(text), c, err) == IQ_ERROR_NONE; }

/* The 25 required entries with round numbers: entry i starts at 10*i, has 5
 * frames (LEGS_WALK: -5), loops 0 except LEGS_RUN (3), fps 20 (LEGS_IDLE: 0). */
static void table25(char *out, size_t size) {
    size_t n = 0;
    for (int i = 0; i < IQ_Q3_REQUIRED_ENTRIES; i++)
        n += (size_t)snprintf(out + n, size - n, "%d %d %d %d // %s\n", 10 * i, i == IQ_Q3_LEGS_WALK ? -5 : 5,
                              i == IQ_Q3_LEGS_RUN ? 3 : 0, i == IQ_Q3_LEGS_IDLE ? 0 : 20, iq_q3_animation_name((unsigned)i));
}

static void test_cfg_sarge(void) {
    size_t n;
    unsigned char *d = iqt_read_file(SARGE "animation.cfg", &n);
    CHECK(d != NULL, "missing sarge animation.cfg");
    if (!d) return;
    iq_q3_config c;
    iq_error err;
    CHECK((iq_q3_parse_animation_cfg(d, n, &c, &err) == IQ_ERROR_NONE), "sarge: %s (line %u)", err.message, err.line);
    CHECK(c.sex == 'm' && c.table_entries == 25, "sex %c entries %u", c.sex, c.table_entries);
    /* skip = 153 - 90 = 63 */
    CHECK(c.legs_skip == 63, "skip %d", c.legs_skip);
    const iq_q3_animation *a = c.animations;
    CHECK(a[IQ_Q3_BOTH_DEAD1].first_frame == 29 && a[IQ_Q3_BOTH_DEAD1].frame_count == 1, "dead1");
    CHECK(a[IQ_Q3_TORSO_GESTURE].first_frame == 90 && a[IQ_Q3_TORSO_GESTURE].frame_count == 40 &&
          a[IQ_Q3_TORSO_GESTURE].frame_lerp == 76, "gesture lerp %u (1000/13 = 76)", a[IQ_Q3_TORSO_GESTURE].frame_lerp);
    CHECK(a[IQ_Q3_LEGS_WALKCR].first_frame == 90 && a[IQ_Q3_LEGS_WALKCR].loop_frames == 8, "walkcr %d", a[IQ_Q3_LEGS_WALKCR].first_frame);
    CHECK(a[IQ_Q3_LEGS_RUN].first_frame == 173 - 63 && a[IQ_Q3_LEGS_RUN].fps == 15 && a[IQ_Q3_LEGS_RUN].frame_lerp == 66, "run");
    CHECK(a[IQ_Q3_LEGS_TURN].first_frame == 254 - 63 && a[IQ_Q3_LEGS_TURN].frame_count == 7, "turn");
    CHECK(a[IQ_Q3_LEGS_TURN].line == 40, "turn line %u", a[IQ_Q3_LEGS_TURN].line);
    for (int i = IQ_Q3_TORSO_GETFLAG; i <= IQ_Q3_TORSO_NEGATIVE; i++)
        CHECK(a[i].first_frame == 90 && a[i].frame_count == 40 && !a[i].from_file && !a[i].reversed, "TA default %d", i);
    CHECK(a[IQ_Q3_LEGS_BACKCR].first_frame == 90 && a[IQ_Q3_LEGS_BACKCR].reversed, "backcr");
    CHECK(a[IQ_Q3_LEGS_BACKWALK].first_frame == 161 - 63 && a[IQ_Q3_LEGS_BACKWALK].reversed &&
          a[IQ_Q3_LEGS_BACKWALK].frame_count == 12, "backwalk");
    CHECK(c.warning_count == 0, "warning %s", c.warning);
    free(d);
}

static void test_cfg_rules(void) {
    static char text[8192], table[4096];
    iq_q3_config c;
    iq_error err;
    table25(table, sizeof table);

    /* keywords in any order, any case, with comments between */
    snprintf(text, sizeof text, "/* block\ncomment */ FIXEDTORSO sex F // x\nheadoffset 1.5 -2 3e1\nfootsteps mech fixedlegs\n%s", table);
    CHECK(cfg(text, &c, &err), "keywords: %s", err.message);
    CHECK(c.sex == 'f' && c.footsteps == IQ_Q3_FOOTSTEPS_MECH && c.fixed_legs && c.fixed_torso, "keywords parsed");
    CHECK(c.head_offset[0] == 1.5f && c.head_offset[1] == -2 && c.head_offset[2] == 30, "headoffset");
    /* skip = 130 - 60 = 70: LEGS_WALKCR 130 -> 60, LEGS_TURN 240 -> 170 */
    CHECK(c.legs_skip == 70 && c.animations[IQ_Q3_LEGS_WALKCR].first_frame == 60 &&
          c.animations[IQ_Q3_LEGS_TURN].first_frame == 170, "skip %d", c.legs_skip);
    CHECK(c.animations[IQ_Q3_TORSO_STAND2].first_frame == 120, "torso frames are not shifted");
    CHECK(c.animations[IQ_Q3_LEGS_WALK].reversed && c.animations[IQ_Q3_LEGS_WALK].frame_count == 5, "negative = reversed");
    CHECK(c.animations[IQ_Q3_LEGS_BACKWALK].reversed == 1, "backwalk of a reversed walk is still reversed (a copy with reversed set)");
    CHECK(c.animations[IQ_Q3_LEGS_IDLE].fps == 1 && c.animations[IQ_Q3_LEGS_IDLE].frame_lerp == 1000, "fps 0 -> 1");
    CHECK(c.animations[IQ_Q3_LEGS_RUN].loop_frames == 3, "loop");
    CHECK(c.animations[IQ_Q3_TORSO_GETFLAG].first_frame == 60 && c.animations[IQ_Q3_TORSO_GETFLAG].frame_lerp == 50, "TA defaults");

    /* sex n, footsteps default, unknown words are warnings */
    snprintf(text, sizeof text, "sex neuter footsteps default banana %s", table);
    CHECK(cfg(text, &c, &err) && c.sex == 'n' && c.warning_count == 1 && strstr(c.warning, "banana"), "unknown word warns");
    snprintf(text, sizeof text, "footsteps clogs %s", table);
    CHECK(cfg(text, &c, &err) && c.footsteps == 0 && c.warning_count == 1 && strstr(c.warning, "clogs"), "bad footsteps");

    /* all 31 entries: the Team Arena ones come from the file and are not rebased */
    size_t n = (size_t)snprintf(text, sizeof text, "%s", table);
    for (int i = 25; i < 31; i++) n += (size_t)snprintf(text + n, sizeof text - n, "%d 2 0 10\n", 500 + i);
    CHECK(cfg(text, &c, &err) && c.table_entries == 31, "31 entries: %s", err.message);
    CHECK(c.animations[IQ_Q3_TORSO_NEGATIVE].first_frame == 530 && c.animations[IQ_Q3_TORSO_NEGATIVE].from_file, "TA from file");
    /* more than 31: ignored with a warning */
    snprintf(text + n, sizeof text - n, "1 2 3 4\n");
    CHECK(cfg(text, &c, &err) && c.warning_count == 1 && strstr(c.warning, "31st"), "extra warns: %s", c.warning);
    /* 27 entries: TORSO_PATROL onwards defaults */
    n = (size_t)snprintf(text, sizeof text, "%s 700 3 0 10 701 3 0 10", table);
    CHECK(cfg(text, &c, &err) && c.table_entries == 27 && c.animations[IQ_Q3_TORSO_GUARDBASE].first_frame == 701 &&
          c.animations[IQ_Q3_TORSO_PATROL].first_frame == 60, "27 entries");
    /* a partial 26th entry is an error */
    snprintf(text, sizeof text, "%s 700 3", table);
    CHECK(!cfg(text, &c, &err) && err.code == IQ_ERROR_TRUNCATED && strstr(err.message, "TORSO_GETFLAG"), "partial: %s", err.message);

    /* fewer than 25 entries: error naming the missing one, at the end of the text */
    snprintf(text, sizeof text, "%s", table);
    *strstr(text, "240 5") = 0; /* cut LEGS_TURN: 24 lines remain */
    CHECK(!cfg(text, &c, &err) && err.code == IQ_ERROR_BAD_ANIMATION && strstr(err.message, "LEGS_TURN") && err.line == 25,
          "24 entries: %s line %u", err.message, err.line);
    CHECK(!cfg("sex m\n", &c, &err) && err.code == IQ_ERROR_BAD_ANIMATION && strstr(err.message, "BOTH_DEATH1"), "no table");
    CHECK(!cfg("", &c, &err) && err.code == IQ_ERROR_BAD_ANIMATION, "empty file");

    /* syntax and values, with line and column */
    snprintf(text, sizeof text, "%s", table);
    memcpy(strstr(text, "30 5 0 20"), "30 x 0 20", 9);
    CHECK(!cfg(text, &c, &err) && err.code == IQ_ERROR_SYNTAX && err.line == 4 && err.column == 4 &&
          strstr(err.message, "BOTH_DEAD2 frame count"), "syntax: %s at %u:%u", err.message, err.line, err.column);
    snprintf(text, sizeof text, "%s", table);
    memcpy(strstr(text, "30 5 0 20"), "30 5 0 -1", 9);
    CHECK(!cfg(text, &c, &err) && err.code == IQ_ERROR_BAD_VALUE && err.line == 4, "negative fps: %s", err.message);
    snprintf(text, sizeof text, "%s", table);
    memcpy(strstr(text, "30 5 0 20"), "30 5 -1 2", 9);
    CHECK(!cfg(text, &c, &err) && err.code == IQ_ERROR_BAD_VALUE, "negative loop: %s", err.message);
    snprintf(text, sizeof text, "%s", table);
    memcpy(strstr(text, "30 5 0 20 "), "30 5 0 2e4", 10);
    CHECK(!cfg(text, &c, &err) && err.code == IQ_ERROR_BAD_VALUE && strstr(err.message, "1000"), "fps 20000: %s", err.message);
    snprintf(text, sizeof text, "%s", table);
    memcpy(strstr(text, "30 5 0 20 "), "30 9 9 nan", 10);
    CHECK(!cfg(text, &c, &err) && err.code == IQ_ERROR_SYNTAX, "fps nan");
    snprintf(text, sizeof text, "99999999999 %s", table);
    CHECK(!cfg(text, &c, &err) && err.code == IQ_ERROR_LIMIT && err.line == 1, "huge first frame");
    snprintf(text, sizeof text, "%s", table);
    memcpy(strstr(text, "30 5 0 20 "), "30 5 9 20 ", 10);
    CHECK(cfg(text, &c, &err) && c.animations[IQ_Q3_BOTH_DEAD2].loop_frames == 5 && c.warning_count == 1, "loop > count clamps");
    snprintf(text, sizeof text, "/* never closed %s", table);
    CHECK(!cfg(text, &c, &err) && err.code == IQ_ERROR_SYNTAX && err.line == 1 && err.column == 1, "open comment");
    snprintf(text, sizeof text, "sex \"m\n%s", table);
    CHECK(!cfg(text, &c, &err) && err.code == IQ_ERROR_SYNTAX && err.line == 1 && err.column == 5, "open quote");
    /* "25//comment" is the number 25, as cgame's atoi reads it */
    snprintf(text, sizeof text, "%s", table);
    memcpy(strstr(text, "30 5 0 20 "), "30 5 0 20//", 11);
    CHECK(cfg(text, &c, &err) && c.animations[IQ_Q3_BOTH_DEAD2].fps == 20, "comment glued to a number: %s", err.message);
    /* a NUL ends the text, as in the game */
    char with_nul[] = "sex f\0garbage";
    CHECK((iq_q3_parse_animation_cfg(with_nul, sizeof with_nul, &c, &err) != IQ_ERROR_NONE) && err.code == IQ_ERROR_BAD_ANIMATION, "NUL ends");

    /* the size rule: 19998 bytes load, 19999 do not */
    static char big[20001];
    memset(big, ' ', sizeof big);
    memcpy(big, table, strlen(table));
    CHECK((iq_q3_parse_animation_cfg(big, 19998, &c, &err) == IQ_ERROR_NONE), "19998 bytes: %s", err.message);
    CHECK(iq_q3_parse_animation_cfg(big, 19999, &c, &err) == IQ_ERROR_LIMIT && err.code == IQ_ERROR_LIMIT, "19999 bytes: the code returned is the one filled");
}

static int skin(const char *text, iq_skin *s, iq_error *err) { return iq_q3_parse_skin(text, strlen(text), s, err) == IQ_ERROR_NONE; }

static void test_skins(void) {
    static iq_skin s;
    iq_error err;
    size_t n;
    unsigned char *d = iqt_read_file(SARGE "upper_red.skin", &n);
    CHECK(d && (iq_q3_parse_skin(d, n, &s, &err) == IQ_ERROR_NONE), "upper_red.skin");
    CHECK(s.surface_count == 1 && !strcmp(s.surfaces[0].name, "u_torso") &&
          !strcmp(s.surfaces[0].shader, "models/players/grism/redskin.tga"), "upper_red: %u", s.surface_count);
    free(d);
    d = iqt_read_file(SARGE "head_classic.skin", &n); /* ends in "tag_head" without a newline */
    CHECK(d && (iq_q3_parse_skin(d, n, &s, &err) == IQ_ERROR_NONE) && s.surface_count == 1 && !strcmp(s.surfaces[0].shader, "models/players/grism/morphedg.tga"),
          "head_classic");
    free(d);

    CHECK(skin("// c\nU_Torso , \"models/a b.tga\"\r\n/* x\n y */ tag_weapon\nl_tag_x,foo /* a\nb */\nh_head,x.tga // c\n"
               "TAG_Y,bar.tga\nw_wings\nz_last,\"q.tga\"",
               &s, &err),
          "mixed: %s", err.message);
    CHECK(s.surface_count == 5, "count %u", s.surface_count);
    CHECK(!strcmp(s.surfaces[0].name, "u_torso") && !strcmp(s.surfaces[0].shader, "models/a b.tga") && s.surfaces[0].line == 2,
          "quotes, spaces around the comma, lower case");
    CHECK(!strcmp(s.surfaces[1].name, "h_head") && !strcmp(s.surfaces[1].shader, "x.tga"), "tag lines, and the rest of their line, skipped");
    CHECK(!strcmp(s.surfaces[2].name, "tag_y") && !strcmp(s.surfaces[2].shader, "bar.tga"), "TAG_ is not tag_ (strstr is case sensitive)");
    CHECK(!strcmp(s.surfaces[3].name, "w_wings") && s.surfaces[3].shader[0] == 0, "missing shader is empty, not the next line");
    CHECK(!strcmp(s.surfaces[4].name, "z_last") && !strcmp(s.surfaces[4].shader, "q.tga"), "last");
    /* "u_vest," with nothing after the comma: the game's CommaParse skips the line
     * end and takes the next word (OpenArena's beret upper_cooldude.skin), even a
     * tag_ word; "," left over becomes a surface name no mesh has, as in the game. */
    CHECK(skin("u_body,b.tga\r\nu_vest,\r\ntag_head,\r\nu_arm , \n // c\n \"a r.tga\"\nu_leg,l.tga", &s, &err),
          "empty after comma: %s", err.message);
    CHECK(s.surface_count == 5 && !strcmp(s.surfaces[1].name, "u_vest") && !strcmp(s.surfaces[1].shader, "tag_head") &&
          !strcmp(s.surfaces[2].name, ",") && !strcmp(s.surfaces[3].name, "u_arm") && !strcmp(s.surfaces[3].shader, "a r.tga") &&
          !strcmp(s.surfaces[4].name, "u_leg") && !strcmp(s.surfaces[4].shader, "l.tga"),
          "next word after an empty comma: %u %s %s", s.surface_count, s.surfaces[1].shader, s.surfaces[2].name);
    CHECK(s.warning_count == 2 && strstr(s.warning, "'u_vest,'") && strstr(s.warning, "'tag_head' (line 3)"), "warned: %s", s.warning);
    CHECK(skin("a,b\nz_end,", &s, &err) && s.surface_count == 2 && s.surfaces[1].shader[0] == 0 && s.warning_count == 0,
          "a comma at the end of the text: no word to take");
    CHECK(skin("a,b\nz_end,  /* x */ // y\n", &s, &err) && s.surface_count == 2 && s.surfaces[1].shader[0] == 0, "only comments after");
    CHECK(skin("empty, \"\"\nnext,n.tga", &s, &err) && s.surface_count == 2 && s.surfaces[0].shader[0] == 0 &&
          !strcmp(s.surfaces[1].shader, "n.tga"), "a quoted empty shader on its line stays empty");
    CHECK(skin("", &s, &err) && s.surface_count == 0, "empty skin");
    CHECK(skin("a,b\n\"\",c\nd,e", &s, &err) && s.surface_count == 1 && s.warning_count == 1, "empty name stops");
    CHECK(!skin("a,\"b\nc,d", &s, &err) && err.code == IQ_ERROR_SYNTAX && err.line == 1 && err.column == 3, "open quote");
    CHECK(!skin("a,b /* open", &s, &err) && err.code == IQ_ERROR_SYNTAX && err.column == 5, "open comment");
    char name[100];
    memset(name, 'n', 64);
    strcpy(name + 64, ",x.tga");
    CHECK(!skin(name, &s, &err) && err.code == IQ_ERROR_LIMIT, "64-char surface name");
    name[63] = ',';
    CHECK(skin(name, &s, &err) && strlen(s.surfaces[0].name) == 63, "63-char surface name");

    /* 300 surfaces: the first 256 are kept, the rest counted */
    static char many[300 * 24];
    size_t len = 0;
    for (int i = 0; i < 300; i++) len += (size_t)snprintf(many + len, sizeof many - len, "s%d,t%d.tga\n", i, i);
    CHECK(skin(many, &s, &err) && s.surface_count == 256 && !strcmp(s.surfaces[255].name, "s255") && s.warning_count == 1 &&
          strstr(s.warning, "44 surfaces"), "256 cap: %u %s", s.surface_count, s.warning);
}

static void test_fixtures(void) {
    size_t n;
    iq_error err;
    static iq_q3_config c;
    static iq_skin s;
    unsigned char *d = iqt_read_file("tests/fixtures/q3/animation.cfg", &n);
    CHECK(d && (iq_q3_parse_animation_cfg(d, n, &c, &err) == IQ_ERROR_NONE), "fixture cfg: %s", d ? err.message : "missing");
    CHECK(c.sex == 'f' && c.footsteps == IQ_Q3_FOOTSTEPS_BOOT && c.head_offset[2] == -2.5f && c.fixed_legs && c.fixed_torso,
          "fixture keywords");
    CHECK(c.table_entries == 31 && c.animations[IQ_Q3_TORSO_GETFLAG].first_frame == 90 &&
          c.animations[IQ_Q3_TORSO_GETFLAG].from_file && c.animations[IQ_Q3_TORSO_NEGATIVE].first_frame == 115, "fixture TA");
    CHECK(c.animations[IQ_Q3_LEGS_RUN].reversed && c.animations[IQ_Q3_LEGS_RUN].first_frame == 110 &&
          c.animations[IQ_Q3_TORSO_GESTURE].frame_lerp == 1000, "fixture run, gesture");
    free(d);
    d = iqt_read_file("tests/fixtures/q3/upper_test.skin", &n);
    CHECK(d && (iq_q3_parse_skin(d, n, &s, &err) == IQ_ERROR_NONE) && s.surface_count == 3, "fixture skin");
    CHECK(!strcmp(s.surfaces[0].name, "u_torso") && !strcmp(s.surfaces[0].shader, "models/players/test/body.tga") &&
          !strcmp(s.surfaces[1].shader, "models/players/test/wings") && !strcmp(s.surfaces[2].name, "u_visor") &&
          s.surfaces[2].shader[0] == 0, "fixture skin surfaces");
    free(d);
}


/* The Quake 3 clock (iq_q3_playhead), worked out by hand: 5 frames from 10,
 * 20 fps (50 ms a frame), the last 3 looping. */
static void test_q3_clock(void) {
    iq_q3_animation a;
    memset(&a, 0, sizeof a);
    a.first_frame = 10;
    a.frame_count = 5;
    a.loop_frames = 3;
    a.fps = 20;
    a.frame_lerp = 50;
    iq_playhead h;
    CHECK(iq_q3_playhead(&a, 0.26, 100, &h) == 0 && h.frame_a == 12 && h.frame_b == 13 && fabs(h.blend - 0.2) < 1e-12 &&
              h.loops == 1 && !h.finished && h.duration == 0.25,
          "looping: 260 ms is step 5 = frame 12, toward 13 (%u %u %g loops %d)", h.frame_a, h.frame_b, h.blend, h.loops);
    CHECK(iq_q3_playhead(&a, 0.04, 100, &h) == 0 && h.frame_a == 10 && h.frame_b == 11 && fabs(h.blend - 0.8) < 1e-12 &&
              h.loops == 0, "40 ms: 80%% from frame 10 to 11");
    CHECK(iq_q3_playhead(&a, 0.40, 100, &h) == 0 && h.frame_a == 12 && h.frame_b == 13 && h.loops == 2, "400 ms: step 8 wraps to frame 12 again, second loop");
    a.loop_frames = 0;
    CHECK(iq_q3_playhead(&a, 0.26, 100, &h) == 0 && h.frame_a == 14 && h.frame_b == 14 && h.blend == 0 && h.finished,
          "not looping: holds the last frame, finished");
    CHECK(iq_q3_playhead(&a, 0.19, 100, &h) == 0 && h.frame_a == 13 && h.frame_b == 14 && !h.finished, "not finished before the last step");
    a.reversed = 1;
    CHECK(iq_q3_playhead(&a, 0.06, 100, &h) == 0 && h.frame_a == 13 && h.frame_b == 12 && fabs(h.blend - 0.2) < 1e-12,
          "reversed: counts down from frame 14");
    CHECK(iq_q3_playhead(&a, 0.06, 13, &h) == 0 && h.frame_a == 12 && h.frame_b == 12 && h.blend == 0,
          "frames past the part's 13 frames clamp to its last (and then nothing blends)");
    CHECK(iq_q3_playhead(&a, -5, 100, &h) == 0 && h.frame_a == 14, "before the start: the first step");
    CHECK(iq_q3_playhead(&a, NAN, 100, &h) == IQ_ERROR_INVALID_ARGUMENT, "NaN time is refused");
    a.frame_lerp = 0; /* fps over 1000 gives (int)(1000 / fps) == 0 in cgame: no division by zero here */
    CHECK(iq_q3_playhead(&a, 1e9, 100, &h) == 0 && h.frame_a == 10, "a zero frame_lerp steps a millisecond a frame");
}

int main(void) {
    test_q3_clock();
    test_fixtures();
    test_cfg_sarge();
    test_cfg_rules();
    test_skins();
    return iqt_finish("test_q3");
}
