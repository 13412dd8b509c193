/* Native tests of the Cube 2 / Tesseract / Red Eclipse model .cfg reader
 * (src/iq_cubecfg.c) under ASan/UBSan: hand-written fixtures
 * (tests/fixtures/cubecfg/) and hand-built cases with answers worked out from
 * the rules in iq_cubecfg.h. Run from the repository root. */
#include "check.h"
#include "formats/iq_cubecfg.h"
#include <string.h>

static iq_cubecfg cfg; /* 320 KB: not on the stack */

static int parse(const char *text, iq_error *err) { return iq_cubecfg_parse(text, strlen(text), &cfg, err) == IQ_ERROR_NONE; }

/* Word k of command c, NUL-terminated into buf (empty when absent). */
static const char *word(const char *text, uint32_t c, uint32_t k, char *buf, size_t size) {
    uint32_t seen = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < cfg.word_count; i++) {
        if (cfg.words[i].command != c) continue;
        if (seen++ == k) {
            size_t n = cfg.words[i].length < size - 1 ? cfg.words[i].length : size - 1;
            memcpy(buf, text + cfg.words[i].offset, n);
            buf[n] = '\0';
            break;
        }
    }
    return buf;
}

static uint32_t kind_of(uint32_t c, uint32_t k) {
    uint32_t seen = 0;
    for (uint32_t i = 0; i < cfg.word_count; i++)
        if (cfg.words[i].command == c && seen++ == k) return cfg.words[i].kind;
    return 99;
}

static void test_fixture_iqm(void) {
    size_t n;
    char *text = (char *)iqt_read_file("tests/fixtures/cubecfg/iqm.cfg", &n);
    CHECK(text != NULL, "missing tests/fixtures/cubecfg/iqm.cfg");
    if (!text) return;
    iq_error err;
    char a[64], b[64];
    CHECK(iq_cubecfg_parse(text, n, &cfg, &err) == IQ_ERROR_NONE, "iqm.cfg: %s", err.message);
    /* iqmload, iqmskin, iqmbumpmap, iqmskin, mdlalphatest (after ';'), mdlscale, mdltrans,
     * mdlyaw, mdlpitch, iqmtag, 3 x iqmanim */
    CHECK(cfg.command_count == 13, "%u commands", cfg.command_count);
    CHECK(!strcmp(word(text, 0, 0, a, sizeof a), "iqmload") && !strcmp(word(text, 0, 1, b, sizeof b), "creature.iqm"), "%s %s", a, b);
    CHECK(kind_of(0, 1) == IQ_CUBECFG_STRING && kind_of(0, 2) == IQ_CUBECFG_WORD, "kinds");
    CHECK(!strcmp(word(text, 1, 2, a, sizeof a), "<compress:2>body_col.jpg"), "skin %s", a);
    CHECK(cfg.commands[1].word_count == 4, "the comment ends the command: %u words", cfg.commands[1].word_count);
    CHECK(!strcmp(word(text, 3, 1, a, sizeof a), "Tail") && !strcmp(word(text, 4, 0, b, sizeof b), "mdlalphatest"), "';' splits: %s %s", a, b);
    CHECK(cfg.commands[4].line == 5 && cfg.commands[4].column == 31, "mdlalphatest at %u:%u", cfg.commands[4].line, cfg.commands[4].column);
    CHECK(!strcmp(word(text, 11, 1, a, sizeof a), "idle|mapmodel") && !strcmp(word(text, 11, 4, b, sizeof b), "-1"), "anim %s %s", a, b);
    CHECK(cfg.commands[12].line == 14, "line %u", cfg.commands[12].line);
    for (uint32_t c = 0; c < cfg.command_count; c++) CHECK(cfg.commands[c].parent == -1, "top level");
    CHECK(cfg.warning_count == 0, "%s", cfg.warning);
    free(text);
}

static void test_fixture_blocks(void) {
    size_t n;
    char *text = (char *)iqt_read_file("tests/fixtures/cubecfg/player.cfg", &n);
    CHECK(text != NULL, "missing tests/fixtures/cubecfg/player.cfg");
    if (!text) return;
    iq_error err;
    char a[96], b[96];
    CHECK(iq_cubecfg_parse(text, n, &cfg, &err) == IQ_ERROR_NONE, "player.cfg: %s", err.message);
    /* top: iqmdir, exec, if, if, md5anim, iqmanim; inside: iqmpitchtarget, iqmpitch, stringcmp (and
     * (mdlname) inside it), iqmskin, iqmskin */
    uint32_t top = 0, inner = 0;
    for (uint32_t c = 0; c < cfg.command_count; c++) {
        if (cfg.commands[c].parent < 0) top++;
        else inner++;
    }
    CHECK(top == 6 && inner == 6, "%u top, %u inside blocks", top, inner);
    /* command 2: if 1 [ ... ] [ ... ] */
    CHECK(!strcmp(word(text, 2, 0, a, sizeof a), "if") && kind_of(2, 2) == IQ_CUBECFG_BLOCK && kind_of(2, 3) == IQ_CUBECFG_BLOCK, "if");
    /* the commands inside the first block name it as parent and come right after */
    int32_t block = -1;
    for (uint32_t i = 0; i < cfg.word_count; i++)
        if (cfg.words[i].command == 2 && cfg.words[i].kind == IQ_CUBECFG_BLOCK) { block = (int32_t)i; break; }
    CHECK(block >= 0 && cfg.commands[3].parent == block, "parent %d of %d", cfg.commands[3].parent, block);
    CHECK(!strcmp(word(text, 3, 0, a, sizeof a), "iqmpitchtarget") && cfg.commands[3].line == 4 && cfg.commands[3].column == 5,
          "%s at %u:%u", a, cfg.commands[3].line, cfg.commands[3].column);
    /* the second if: an expression inside a block, blocks with iqmskin lines */
    uint32_t skins = 0, exprs = 0;
    for (uint32_t c = 0; c < cfg.command_count; c++) {
        if (!strcmp(word(text, c, 0, a, sizeof a), "iqmskin")) {
            skins++;
            CHECK(!strcmp(word(text, c, 1, b, sizeof b), "*"), "mesh %s", b);
        }
        if (!strcmp(a, "mdlname")) exprs++;
    }
    CHECK(skins == 2 && exprs == 1, "%u iqmskin, %u mdlname", skins, exprs);
    /* ^" stays inside the string */
    CHECK(!strcmp(word(text, cfg.command_count - 1, 1, a, sizeof a), "say ^\"hi^\""), "escaped quote: %s", a);
    free(text);
}

static void test_rules(void) {
    iq_error err;
    char a[64];
    /* a string the line ends before its quote: accepted, ends there, one warning */
    CHECK(parse("iqmskin Body \"body.jpg\niqmskin Tail tail.png", &err), "%s", err.message);
    CHECK(cfg.command_count == 2 && cfg.warning_count == 1 && strstr(cfg.warning, "line 1, column 14"), "%u %s", cfg.command_count, cfg.warning);
    CHECK(!strcmp(word("iqmskin Body \"body.jpg\niqmskin Tail tail.png", 0, 2, a, sizeof a), "body.jpg"), "%s", a);
    /* a comment inside a block does not close it, nor does a ] inside a string */
    const char *t = "if 1 [ a // ] not this\n b \"]\" ] [c]";
    CHECK(parse(t, &err), "%s", err.message);
    CHECK(cfg.command_count == 4, "if, a, b, c: %u", cfg.command_count);
    /* a NUL ends the text, as in the engines */
    CHECK(iq_cubecfg_parse("a b\0] c", 7, &cfg, &err) == IQ_ERROR_NONE && cfg.word_count == 2, "NUL: %u words", cfg.word_count);
    /* empty text, only comments */
    CHECK(parse("", &err) && cfg.command_count == 0, "empty");
    CHECK(parse("// x\n\n   ;;", &err) && cfg.command_count == 0, "comments");
    /* words glued to brackets and quotes split there */
    CHECK(parse("a[b]\"c\"d", &err) && cfg.word_count == 5 && cfg.command_count == 2 && cfg.commands[0].word_count == 4, "%u words", cfg.word_count);
}

static void test_errors(void) {
    iq_error err;
    CHECK(!parse("iqmskin x y\nif 1 [\n  a\n", &err) && err.code == IQ_ERROR_SYNTAX && err.line == 2 && err.column == 6,
          "unclosed [: %d %u:%u %s", err.code, err.line, err.column, err.message);
    CHECK(strstr(err.message, "missing ']'") != NULL, "%s", err.message);
    CHECK(cfg.command_count == 0 && cfg.word_count == 0, "nothing half-built");
    CHECK(!parse("a b ]", &err) && err.code == IQ_ERROR_SYNTAX && err.line == 1 && err.column == 5, "stray ]: %u:%u", err.line, err.column);
    CHECK(!parse("x [ ( ] )", &err) && err.code == IQ_ERROR_SYNTAX && err.column == 7 && strstr(err.message, "line 1, column 5"),
          "crossed: %u %s", err.column, err.message);
    CHECK(!parse("(a", &err) && err.code == IQ_ERROR_SYNTAX && strstr(err.message, "')'"), "%s", err.message);
    static char deep[200];
    memset(deep, '[', 100);
    memset(deep + 100, ']', 100);
    CHECK(iq_cubecfg_parse(deep, 200, &cfg, &err) != IQ_ERROR_NONE && err.code == IQ_ERROR_LIMIT, "deep: %d %s", err.code, err.message);
    CHECK(iq_cubecfg_parse(NULL, 4, &cfg, &err) != IQ_ERROR_NONE && err.code == IQ_ERROR_INVALID_ARGUMENT, "NULL");
    CHECK(iq_cubecfg_parse("a", 1, NULL, &err) != IQ_ERROR_NONE && err.code == IQ_ERROR_INVALID_ARGUMENT, "NULL out");
    CHECK(iq_cubecfg_parse("a", IQ_CUBECFG_MAX_BYTES + 1u, &cfg, &err) != IQ_ERROR_NONE && err.code == IQ_ERROR_LIMIT, "size");
    /* more words than the limit: 'limit' with the place */
    size_t n = (IQ_CUBECFG_MAX_WORDS + 1) * 2;
    char *many = malloc(n + 1);
    for (size_t i = 0; i < n; i += 2) { many[i] = 'w'; many[i + 1] = ' '; }
    many[n] = '\0';
    CHECK(iq_cubecfg_parse(many, n, &cfg, &err) != IQ_ERROR_NONE && err.code == IQ_ERROR_LIMIT && err.line == 1, "words: %s", err.message);
    for (size_t i = 0; i < n; i += 2) many[i + 1] = '\n';
    CHECK(iq_cubecfg_parse(many, n, &cfg, &err) != IQ_ERROR_NONE && err.code == IQ_ERROR_LIMIT && strstr(err.message, "commands"), "commands: %s", err.message);
    free(many);
    /* every prefix of a fixture is read or refused cleanly (ASan checks the reads) */
    size_t size;
    char *text = (char *)iqt_read_file("tests/fixtures/cubecfg/player.cfg", &size);
    if (text) {
        for (size_t k = 0; k <= size; k++) {
            int ok = iq_cubecfg_parse(text, k, &cfg, &err) == IQ_ERROR_NONE;
            CHECK(ok || (err.code == IQ_ERROR_SYNTAX && err.line > 0), "prefix %zu: %s", k, err.message);
            for (uint32_t i = 0; ok && i < cfg.word_count; i++)
                CHECK(cfg.words[i].offset + cfg.words[i].length <= k && cfg.words[i].command < cfg.command_count, "word %u in range", i);
        }
        free(text);
    }
}

int main(void) {
    test_fixture_iqm();
    test_fixture_blocks();
    test_rules();
    test_errors();
    return iqt_finish("test_cubecfg");
}
