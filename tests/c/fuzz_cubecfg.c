/* libFuzzer harness for Cube 2 / Tesseract / Red Eclipse model .cfg files: on
 * success every word lies inside the input and belongs to a command, every
 * command's parent is an earlier block or expression word, and the word counts
 * add up; on failure the error has a code and a line.
 *   ./build.sh fuzz 600 */
// seeds: tests/fixtures/cubecfg
#include "formats/iq_cubecfg.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static iq_cubecfg c;
    static uint32_t counted[IQ_CUBECFG_MAX_COMMANDS];
    iq_error err;
    if (iq_cubecfg_parse(data, size, &c, &err) == IQ_ERROR_NONE) {
        if (c.word_count > IQ_CUBECFG_MAX_WORDS || c.command_count > IQ_CUBECFG_MAX_COMMANDS) abort();
        for (uint32_t i = 0; i < c.command_count; i++) counted[i] = 0;
        for (uint32_t i = 0; i < c.word_count; i++) {
            const iq_cubecfg_word *w = &c.words[i];
            if ((uint64_t)w->offset + w->length > size || w->command >= c.command_count || w->kind > IQ_CUBECFG_EXPR || !w->line) abort();
            counted[w->command]++;
        }
        for (uint32_t i = 0; i < c.command_count; i++) {
            const iq_cubecfg_command *cmd = &c.commands[i];
            if (counted[i] != cmd->word_count || cmd->word_count == 0) abort();
            if (cmd->parent >= 0 && ((uint32_t)cmd->parent >= c.word_count || c.words[cmd->parent].kind < IQ_CUBECFG_BLOCK ||
                                     c.words[cmd->parent].command >= i))
                abort();
        }
    } else if (err.code == IQ_ERROR_NONE || (err.code == IQ_ERROR_SYNTAX && err.line == 0)) {
        abort();
    }
    return 0;
}
