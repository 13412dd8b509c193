/* Native tests of the zip (.pk3) central directory reader (src/quake3/iq_zip.c) under
 * ASan/UBSan: a stored archive written here from APPNOTE, every prefix and
 * every byte patched, each refusal with its code and offset, the three steps
 * the JS API calls, every heap allocation failing in turn. Also writes seed
 * archives for fuzz_zip. Run from the repository root. */
#include "check.h"
#include "sweeps.h"
#include "quake3/iq_quake3.h"
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

// -- Zip: a small writer of stored entries, written from APPNOTE

static uint32_t crc32_of(const unsigned char *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    }
    return ~c;
}
static void put16(unsigned char *p, unsigned v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void put32(unsigned char *p, uint32_t v) { put16(p, v & 0xFFFF); put16(p + 2, v >> 16); }

typedef struct { const char *name; const char *data; } zfile;

/* Writes a stored zip; returns its size. *dir_at gets the directory offset. */
static size_t write_zip(unsigned char *out, const zfile *files, int count, size_t *dir_at) {
    size_t at = 0, local[16];
    for (int i = 0; i < count; i++) {
        size_t nl = strlen(files[i].name), dl = strlen(files[i].data);
        local[i] = at;
        unsigned char *h = out + at;
        memset(h, 0, 30);
        put32(h, 0x04034b50); put16(h + 4, 20); put32(h + 14, crc32_of((const unsigned char *)files[i].data, dl));
        put32(h + 18, (uint32_t)dl); put32(h + 22, (uint32_t)dl); put16(h + 26, (unsigned)nl);
        memcpy(h + 30, files[i].name, nl);
        memcpy(h + 30 + nl, files[i].data, dl);
        at += 30 + nl + dl;
    }
    size_t dir = at;
    for (int i = 0; i < count; i++) {
        size_t nl = strlen(files[i].name), dl = strlen(files[i].data);
        unsigned char *h = out + at;
        memset(h, 0, 46);
        put32(h, 0x02014b50); put16(h + 4, 20); put16(h + 6, 20);
        put32(h + 16, crc32_of((const unsigned char *)files[i].data, dl));
        put32(h + 20, (uint32_t)dl); put32(h + 24, (uint32_t)dl); put16(h + 28, (unsigned)nl);
        put32(h + 42, (uint32_t)local[i]);
        memcpy(h + 46, files[i].name, nl);
        at += 46 + nl;
    }
    unsigned char *e = out + at;
    memset(e, 0, 22);
    put32(e, 0x06054b50); put16(e + 8, (unsigned)count); put16(e + 10, (unsigned)count);
    put32(e + 12, (uint32_t)(at - dir)); put32(e + 16, (uint32_t)dir);
    *dir_at = dir;
    return at + 22;
}

static iq_zip *open_copy(const unsigned char *d, size_t n, const iq_zip_limits *lim, iq_error *err) {
    unsigned char *copy = malloc(n ? n : 1); /* exact size, so ASan sees any overread */
    memcpy(copy, d, n);
    iq_zip *z = iq_zip_open(copy, n, lim, err);
    free(copy);
    return z;
}

static void test_zip(void) {
    static unsigned char zip[4096], bad[4096];
    zfile files[] = {{"models/players/x/animation.cfg", "sex m"}, {"Models\\Players\\X\\LOWER.md3", "IDP3...."}, {"empty", ""}};
    size_t dir, n = write_zip(zip, files, 3, &dir);
    iq_error err;
    iq_zip *z = open_copy(zip, n, NULL, &err);
    CHECK(z && z->entry_count == 3, "open: %s", err.message);
    if (z) {
        CHECK(z->entries[0].data_offset == 30 + 30 && z->entries[0].uncompressed_size == 5 && z->entries[0].method == 0, "entry 0");
        CHECK(!memcmp(zip + z->entries[1].name_offset, "Models\\Players", 14) && z->entries[1].name_length == 26, "entry 1 name");
        CHECK(z->entries[0].crc32 == crc32_of((const unsigned char *)"sex m", 5), "crc");
        CHECK(z->entries[2].uncompressed_size == 0 && z->total_size == 13, "total");
    }
    iq_zip_free(z);
    mkdir("build", 0777); /* seeds for fuzz_zip */
    mkdir("build/fuzz-corpus", 0777);
    mkdir("build/fuzz-corpus/fuzz_zip", 0777);
    FILE *f = fopen("build/fuzz-corpus/fuzz_zip/seed-stored.zip", "wb");
    if (f) { fwrite(zip, 1, n, f); fclose(f); }

    /* a comment after the end record is allowed */
    memcpy(bad, zip, n);
    put16(bad + n - 2, 5);
    memcpy(bad + n, "hello", 5);
    z = open_copy(bad, n + 5, NULL, &err);
    CHECK(z && z->entry_count == 3, "comment: %s", err.message);
    iq_zip_free(z);

    /* every prefix fails with an error, never a crash */
    int loaded = 0;
    for (size_t len = 0; len < n; len++) {
        z = open_copy(zip, len, NULL, &err);
        if (z || err.code == IQ_ERROR_NONE) loaded++;
        iq_zip_free(z);
    }
    CHECK(loaded == 0, "%d prefixes opened", loaded);
    /* every byte patched: opens or fails with a code */
    int silent = 0;
    for (size_t i = 0; i < n; i++) {
        for (int v = 0; v < 3; v++) {
            memcpy(bad, zip, n);
            bad[i] = v == 0 ? 0 : v == 1 ? 0xFF : (unsigned char)(bad[i] + 1);
            z = open_copy(bad, n, NULL, &err);
            if (!z && err.code == IQ_ERROR_NONE) silent++;
            if (z) for (uint32_t k = 0; k < z->entry_count; k++)
                if ((uint64_t)z->entries[k].data_offset + z->entries[k].compressed_size > n) silent++;
            iq_zip_free(z);
        }
    }
    CHECK(silent == 0, "%d patched archives broke the contract", silent);

    size_t eocd = n - 22;
#define PATCHED(expr) (memcpy(bad, zip, n), (expr), open_copy(bad, n, NULL, &err))
    z = PATCHED(put32(bad + eocd + 16, (uint32_t)dir + 10));
    CHECK(!z && err.code == IQ_ERROR_OUT_OF_RANGE && err.offset == (int64_t)eocd + 12, "directory past the end record: %s", err.message);
    z = PATCHED(put32(bad + eocd + 12, 46 * 3 - 1));
    CHECK(!z && err.code == IQ_ERROR_TRUNCATED, "truncated directory: %s", err.message);
    z = PATCHED(put32(bad + dir + 42, (uint32_t)dir));
    CHECK(!z && err.code == IQ_ERROR_OUT_OF_RANGE, "local header inside the directory: %s", err.message);
    z = PATCHED((put32(bad + dir + 20, 4000), put32(bad + dir + 24, 4000)));
    CHECK(!z && err.code == IQ_ERROR_OUT_OF_RANGE && strstr(err.message, "animation.cfg"), "entry past the end: %s", err.message);
    z = PATCHED((put16(bad + dir + 10, 8), put32(bad + dir + 20, 5), put32(bad + dir + 24, 5 * IQ_ZIP_DEFAULT_MAX_RATIO + 1)));
    CHECK(!z && err.code == IQ_ERROR_LIMIT && strstr(err.message, "bomb"), "ratio: %s", err.message);
    z = PATCHED((put16(bad + dir + 10, 8), put32(bad + dir + 20, 5), put32(bad + dir + 24, 5 * IQ_ZIP_DEFAULT_MAX_RATIO)));
    CHECK(z != NULL, "ratio at the limit opens: %s", err.message);
    iq_zip_free(z);
    iq_zip_limits lim = {0, 0, 12, 0};
    memcpy(bad, zip, n);
    z = open_copy(bad, n, &lim, &err);
    CHECK(!z && err.code == IQ_ERROR_LIMIT && strstr(err.message, "13"), "total size limit: %s", err.message);
    lim = (iq_zip_limits){2, 0, 0, 0};
    z = open_copy(bad, n, &lim, &err);
    CHECK(!z && err.code == IQ_ERROR_LIMIT, "entry limit");
    lim = (iq_zip_limits){0, 20, 0, 0};
    z = open_copy(bad, n, &lim, &err);
    CHECK(!z && err.code == IQ_ERROR_LIMIT && strstr(err.message, "30-byte name"), "name limit: %s", err.message);
    z = PATCHED(put32(bad + dir + 24, 6));
    CHECK(!z && err.code == IQ_ERROR_BAD_VALUE, "stored sizes differ");
    z = PATCHED(put32(bad + dir + 24, 0xFFFFFFFFu));
    CHECK(!z && err.code == IQ_ERROR_UNSUPPORTED && strstr(err.message, "ZIP64"), "zip64 sizes");
    z = PATCHED(put16(bad + eocd + 4, 1));
    CHECK(!z && err.code == IQ_ERROR_UNSUPPORTED, "multi-disk");
    z = PATCHED(put32(bad + dir, 0x12345678));
    CHECK(!z && err.code == IQ_ERROR_BAD_MAGIC && err.offset == (int64_t)dir, "directory signature");
    z = PATCHED(put32(bad, 0));
    CHECK(!z && err.code == IQ_ERROR_BAD_MAGIC && err.offset == 0, "local signature");
    z = PATCHED(put16(bad + dir + 28, 0));
    CHECK(!z && err.code == IQ_ERROR_BAD_STRING, "empty name");
    z = PATCHED(put32(bad + eocd, 0));
    CHECK(!z && err.code == IQ_ERROR_UNKNOWN_FORMAT, "no end record");
    /* the three steps directly, as the JS API calls them; misuse is an argument error */
    {
        iq_zip_directory dirinfo;
        CHECK((iq_zip_find_directory(zip + n - 22, 22, n, NULL, &dirinfo, &err) == IQ_ERROR_NONE) && dirinfo.offset == dir &&
              dirinfo.entry_count == 3 && dirinfo.end_record == n - 22, "find_directory from the last 22 bytes");
        CHECK((iq_zip_find_directory(zip, n, n - 1, NULL, &dirinfo, &err) != IQ_ERROR_NONE) && err.code == IQ_ERROR_INVALID_ARGUMENT, "tail > archive");
        iq_zip_find_directory(zip + n - 22, 22, n, NULL, &dirinfo, &err);
        iq_zip *steps = iq_zip_read_directory(zip + dir, &dirinfo, NULL, &err);
        CHECK(steps && steps->entries[1].local_offset == 30 + 30 + 5 && steps->entries[1].data_offset == 0, "read_directory");
        CHECK(steps && (iq_zip_check_local_headers(steps, zip, 89, &err) != IQ_ERROR_NONE) && err.code == IQ_ERROR_INVALID_ARGUMENT, "header size");
        iq_zip_free(steps);
        iq_zip_directory lie = dirinfo;
        lie.entry_count = 1000;
        CHECK(!iq_zip_read_directory(zip + dir, &lie, NULL, &err) && err.code == IQ_ERROR_INVALID_ARGUMENT, "forged description");
    }
    /* methods and encryption are the reader's business: the directory opens */
    z = PATCHED((put16(bad + dir + 10, 12), put16(bad + dir + 8, 1)));
    CHECK(z && z->entries[0].method == 12 && (z->entries[0].flags & IQ_ZIP_FLAG_ENCRYPTED), "bzip2 + encrypted listed");
    iq_zip_free(z);
#undef PATCHED
}

/* Seconds of CPU since `start`: a generous bound in the bomb tests, so they
 * fail if work grows with the declared sizes, never from a slow machine. */
static double seconds_since(clock_t start) { return (double)(clock() - start) / CLOCKS_PER_SEC; }

/* count stored entries "e<i>" of one byte each, in a malloc'd archive; the end
 * record says `declared` entries. */
static unsigned char *write_many(uint32_t count, uint32_t declared, size_t *size) {
    size_t cap = (size_t)count * (30 + 8 + 1 + 46 + 8) + 22, at = 0;
    unsigned char *out = malloc(cap);
    uint32_t *local = malloc((size_t)count * sizeof *local);
    char name[16];
    for (uint32_t i = 0; i < count; i++) {
        size_t nl = (size_t)snprintf(name, sizeof name, "e%u", i);
        local[i] = (uint32_t)at;
        memset(out + at, 0, 30);
        put32(out + at, 0x04034b50); put16(out + at + 4, 20); put32(out + at + 14, crc32_of((const unsigned char *)"x", 1));
        put32(out + at + 18, 1); put32(out + at + 22, 1); put16(out + at + 26, (unsigned)nl);
        memcpy(out + at + 30, name, nl);
        out[at + 30 + nl] = 'x';
        at += 30 + nl + 1;
    }
    size_t dir = at;
    for (uint32_t i = 0; i < count; i++) {
        size_t nl = (size_t)snprintf(name, sizeof name, "e%u", i);
        memset(out + at, 0, 46);
        put32(out + at, 0x02014b50); put16(out + at + 4, 20); put16(out + at + 6, 20);
        put32(out + at + 16, crc32_of((const unsigned char *)"x", 1)); put32(out + at + 20, 1); put32(out + at + 24, 1);
        put16(out + at + 28, (unsigned)nl); put32(out + at + 42, local[i]);
        memcpy(out + at + 46, name, nl);
        at += 46 + nl;
    }
    memset(out + at, 0, 22);
    put32(out + at, 0x06054b50); put16(out + at + 8, declared); put16(out + at + 10, declared);
    put32(out + at + 12, (uint32_t)(at - dir)); put32(out + at + 16, (uint32_t)dir);
    free(local);
    *size = at + 22;
    return out;
}

/* An end record that understates the count: read through when the real
 * entries fit the limit, refused (not the first 65535 silently) when not. */
static void test_understated_count(void) {
    size_t n;
    iq_error err;
    unsigned char *d = write_many(10, 4, &n);
    iq_zip *z = iq_zip_open(d, n, NULL, &err);
    CHECK(z && z->entry_count == 10 && z->warning_count == 1 && strstr(z->warning, "says 4 entries") &&
          z->entries[9].data_offset == z->entries[9].local_offset + 30 + 2, "10 entries, 4 declared: %s", z ? z->warning : err.message);
    iq_zip_free(z);
    iq_zip_limits lim = {8, 0, 0, 0};
    z = iq_zip_open(d, n, &lim, &err);
    CHECK(!z && err.code == IQ_ERROR_LIMIT && strstr(err.message, "more than 8"), "over a lower entry limit: %s", err.message);
    free(d);

    clock_t start = clock();
    d = write_many(100000, 0xFFFF, &n); /* 100,000 entries; the 16-bit count says 65535 */
    double build = seconds_since(start);
    start = clock();
    z = iq_zip_open(d, n, NULL, &err);
    double took = seconds_since(start);
    CHECK(!z && err.code == IQ_ERROR_LIMIT && strstr(err.message, "says 65535 entries") && strstr(err.message, "ZIP64") &&
          err.offset == (int64_t)n - 22 + 10, "100,000 entries declared as 65535: %s", err.message);
    CHECK(took < 1.0, "refusing 100,000 entries took %.3f s", took);
    printf("test_zip: 100,000 entries (%zu bytes, built in %.3f s) refused in %.4f s\n", n, build, took);
    iq_zip_free(z);
    /* modulo 65536 (100000 - 65536 = 34464): also refused */
    put16(d + n - 22 + 8, 34464); put16(d + n - 22 + 10, 34464);
    z = iq_zip_open(d, n, NULL, &err);
    CHECK(!z && err.code == IQ_ERROR_LIMIT && strstr(err.message, "says 34464"), "count modulo 65536: %s", err.message);
    iq_zip_free(z);
    free(d);
}

/* Entries sharing bytes are refused: one stream under two names, and a local
 * header inside another entry's data (the overlapping zip bomb). */
static void test_overlaps(void) {
    static unsigned char zip[4096], bad[4096];
    zfile files[] = {{"a.md3", "0123456789"}, {"b.md3", "abcdefghijabcdefghijabcdefghijabcdefghij"}, {"c.md3", "xyz"}};
    size_t dir, n = write_zip(zip, files, 3, &dir);
    iq_error err;
    size_t second = dir + 46 + 5, third = second + 46 + 5; /* the second and third directory entries */
    /* b's directory entry points at a's local header and sizes: one stream, two names */
    memcpy(bad, zip, n);
    memcpy(bad + second + 16, zip + dir + 16, 12);
    put32(bad + second + 42, 0);
    clock_t start = clock();
    iq_zip *z = iq_zip_open(bad, n, NULL, &err);
    CHECK(!z && err.code == IQ_ERROR_OUT_OF_RANGE && strstr(err.message, "'a.md3'") && strstr(err.message, "'b.md3'") &&
          strstr(err.message, "overlap") && err.offset == 0, "shared stream: %s", err.message);
    CHECK(seconds_since(start) < 1.0, "overlap check time");
    /* c's local header (copied whole) sits inside b's data, and c's directory entry points there */
    memcpy(bad, zip, n);
    size_t b_data = 30 + 5 + 10 + 30 + 5, c_local = 30 + 5 + 10 + 30 + 5 + 40;
    memcpy(bad + b_data + 1, zip + c_local, 30 + 5 + 3);
    put32(bad + third + 42, (uint32_t)(b_data + 1));
    z = iq_zip_open(bad, n, NULL, &err);
    CHECK(!z && err.code == IQ_ERROR_OUT_OF_RANGE && strstr(err.message, "'b.md3'") && strstr(err.message, "'c.md3'") &&
          err.offset == (int64_t)b_data + 1, "local header inside another entry's data: %s", err.message);
    /* the original, untouched, opens */
    z = iq_zip_open(zip, n, NULL, &err);
    CHECK(z && z->entry_count == 3, "no overlap: %s", err.message);
    iq_zip_free(z);
}

/* A 1 GiB entry deflated at 1011:1 (what deflate does to zeros) passes the
 * old 1100:1 limit; the default now refuses it from the directory alone. */
static void test_ratio_bomb(void) {
    uint32_t packed = 1062000, size = 1u << 30; /* 1011:1 */
    size_t n = 30 + 4 + packed + 46 + 4 + 22;
    unsigned char *d = calloc(1, n);
    put32(d, 0x04034b50); put16(d + 8, 8); put32(d + 18, packed); put32(d + 22, size); put16(d + 26, 4);
    memcpy(d + 30, "bomb", 4);
    unsigned char *c = d + 30 + 4 + packed;
    put32(c, 0x02014b50); put16(c + 10, 8); put32(c + 20, packed); put32(c + 24, size); put16(c + 28, 4);
    memcpy(c + 46, "bomb", 4);
    unsigned char *e = c + 50;
    put32(e, 0x06054b50); put16(e + 8, 1); put16(e + 10, 1); put32(e + 12, 50); put32(e + 16, (uint32_t)(c - d));
    iq_error err;
    iq_zip *z = iq_zip_open(d, n, NULL, &err);
    CHECK(!z && err.code == IQ_ERROR_LIMIT && strstr(err.message, "limit of 1000:1"), "1011:1 bomb: %s", err.message);
    iq_zip_limits loose = {0, 0, 0, 1100};
    z = iq_zip_open(d, n, &loose, &err);
    CHECK(z && z->entries[0].uncompressed_size == size, "opens under a 1100:1 limit: %s", err.message);
    iq_zip_free(z);
    free(d);
}

// -- Every heap allocation failing in turn (sweeps.h): a clean out_of_memory, nothing left

typedef struct { const unsigned char *data; size_t size; } zip_bytes;

static int open_attempt(const void *arg, iq_error *err) {
    const zip_bytes *z = arg;
    iq_zip *zip = iq_zip_open(z->data, z->size, NULL, err);
    int ok = zip && zip->entry_count == 40;
    iq_zip_free(zip);
    return ok;
}

/* The three steps the JS API calls, as it calls them. */
static int steps_attempt(const void *arg, iq_error *err) {
    const zip_bytes *z = arg;
    iq_zip_directory dir;
    if (iq_zip_find_directory(z->data + z->size - 22, 22, z->size, NULL, &dir, err) != IQ_ERROR_NONE) return 0;
    iq_zip *zip = iq_zip_read_directory(z->data + dir.offset, &dir, NULL, err);
    if (!zip) return 0;
    unsigned char *headers = malloc((size_t)zip->entry_count * 30 + 1);
    for (uint32_t i = 0; i < zip->entry_count; i++) memcpy(headers + 30 * (size_t)i, z->data + zip->entries[i].local_offset, 30);
    int ok = iq_zip_check_local_headers(zip, headers, (size_t)zip->entry_count * 30, err) == IQ_ERROR_NONE;
    free(headers);
    iq_zip_free(zip);
    return ok;
}

static void test_allocation_failures(void) {
    size_t n;
    unsigned char *d = write_many(40, 40, &n);
    zip_bytes z = {d, n};
    iqt_allocation_sweep("iq_zip_open (40 entries)", open_attempt, &z);
    iqt_allocation_sweep("the three zip steps (40 entries)", steps_attempt, &z);
    free(d);
}

int main(void) {
    test_zip();
    test_allocation_failures();
    test_understated_count();
    test_overlaps();
    test_ratio_bomb();
    return iqt_finish("test_zip");
}
