/* Shader scripts, names: a surface's or skin's shader name to its block, as
 * Quake 3's R_FindShader finds it, and the names of sort values. */
#include "quake3/iq_shader_internal.h"
#include <ctype.h>

/* Compares a requested name (extension already cut at `length`) with a block's name. */
static int same_name(const char *want, size_t length, const char *have) {
    size_t i;
    for (i = 0; i < length && have[i]; i++) {
        int a = tolower((unsigned char)want[i]), b = tolower((unsigned char)have[i]);
        if (a == '\\') a = '/';
        if (b == '\\') b = '/';
        if (a != b) return 0;
    }
    return i == length && have[i] == 0;
}

/* The length of name without its extension (COM_StripExtension: the last '.' after the last '/'). */
static size_t stripped_length(const char *name) {
    size_t n = strlen(name), dot = n;
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '/' || name[i] == '\\') dot = n;
        else if (name[i] == '.') dot = i;
    }
    return dot;
}

int32_t iq_shader_find(const iq_shader_script *script, const char *name) {
    if (!script || !name) return -1;
    size_t length = stripped_length(name);
    for (uint32_t i = 0; i < script->shader_count; i++)
        if (same_name(name, length, script->shaders[i].name)) return (int32_t)i;
    return -1;
}

const iq_q3_shader *iq_shader_find_in(const iq_shader_script *const *scripts, uint32_t count, const char *name, uint32_t *which) {
    for (uint32_t s = 0; scripts && s < count; s++) {
        int32_t i = iq_shader_find(scripts[s], name);
        if (i >= 0) {
            if (which) *which = s;
            return &scripts[s]->shaders[i];
        }
    }
    return NULL;
}

const char *iq_shader_sort_name(float sort) {
#define IQ_X(name, word, value) if (sort == value) return word;
    IQ_SHADER_SORTS(IQ_X)
#undef IQ_X
    if (sort == IQ_SORT_BLEND0) return "blend0";
    return NULL;
}

