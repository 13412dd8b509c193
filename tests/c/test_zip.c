/* Native tests of the zip (.pk3) central directory reader (src/iq_zip.c) under
 * ASan/UBSan: a stored archive written here from APPNOTE, every prefix and
 * every byte patched, each refusal with its code and offset, the three steps
 * the JS API calls. Also writes seed archives for fuzz_zip. Run from the
 * repository root. */
#include "check.h"
#include "iq_quake3.h"
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

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
    z = PATCHED((put16(bad + dir + 10, 8), put32(bad + dir + 20, 5), put32(bad + dir + 24, 5 * 1100 + 1)));
    CHECK(!z && err.code == IQ_ERROR_LIMIT && strstr(err.message, "bomb"), "ratio: %s", err.message);
    z = PATCHED((put16(bad + dir + 10, 8), put32(bad + dir + 20, 5), put32(bad + dir + 24, 5 * 1100)));
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
        CHECK(iq_zip_find_directory(zip + n - 22, 22, n, NULL, &dirinfo, &err) && dirinfo.offset == dir &&
              dirinfo.entry_count == 3 && dirinfo.end_record == n - 22, "find_directory from the last 22 bytes");
        CHECK(!iq_zip_find_directory(zip, n, n - 1, NULL, &dirinfo, &err) && err.code == IQ_ERROR_INVALID_ARGUMENT, "tail > archive");
        iq_zip_find_directory(zip + n - 22, 22, n, NULL, &dirinfo, &err);
        iq_zip *steps = iq_zip_read_directory(zip + dir, &dirinfo, NULL, &err);
        CHECK(steps && steps->entries[1].local_offset == 30 + 30 + 5 && steps->entries[1].data_offset == 0, "read_directory");
        CHECK(steps && !iq_zip_check_local_headers(steps, zip, 89, &err) && err.code == IQ_ERROR_INVALID_ARGUMENT, "header size");
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

int main(void) {
    test_zip();
    return iqt_finish("test_zip");
}
