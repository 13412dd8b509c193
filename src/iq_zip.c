/* The central directory of a zip (.pk3) archive, read for untrusted input.
 *
 * Order of work: find the end record (searching back over a comment of up to
 * 65535 bytes), check it describes a single-disk, non-ZIP64 archive whose
 * directory lies before it, then read every directory entry and the local
 * header it points at, checking that names, extra fields and data all lie
 * inside the archive and before the directory. Limits (entry count, name
 * length, declared total size and compression ratio) refuse zip bombs before
 * anything is inflated. Inflating is the caller's job (the JS API uses fflate
 * and checks the CRC-32 recorded here). Spec: PKWARE APPNOTE.TXT, sections
 * 4.3.7 (local header), 4.3.12 (central directory header), 4.3.16 (end record). */
#include "iq_quake3.h"
#include "iq_internal.h"
#include <stdio.h>
#include <stdlib.h>

#define EOCD_SIZE 22
#define EOCD_SIGNATURE 0x06054b50u
#define ZIP64_LOCATOR_SIGNATURE 0x07064b50u
#define CENTRAL_SIZE 46
#define CENTRAL_SIGNATURE 0x02014b50u
#define LOCAL_SIZE 30
#define LOCAL_SIGNATURE 0x04034b50u
#define MAX_COMMENT 65535

static void fill_limits(iq_zip_limits *l, const iq_zip_limits *given) {
    if (given) *l = *given;
    else memset(l, 0, sizeof *l);
    if (!l->max_entries || l->max_entries > 65535) l->max_entries = 65535;
    if (!l->max_name_length) l->max_name_length = 1024;
    if (!l->max_total_size) l->max_total_size = (uint64_t)2 << 30;
    if (!l->max_ratio) l->max_ratio = 1100;
}

/* The last end record whose comment fits the file exactly or leaves trailing
 * bytes (some tools append junk); -1 when there is none. */
static int64_t find_end_record(const uint8_t *d, size_t size) {
    size_t lowest = size - EOCD_SIZE > MAX_COMMENT ? size - EOCD_SIZE - MAX_COMMENT : 0;
    for (size_t at = size - EOCD_SIZE + 1; at-- > lowest;) {
        if (iqi_u32(d + at) == EOCD_SIGNATURE && at + EOCD_SIZE + iqi_u16(d + at + 20) <= size) return (int64_t)at;
    }
    return -1;
}

/* A name for messages: at most 60 bytes, non-printing bytes as '?'. */
static const char *entry_name(const uint8_t *name, uint32_t length, char buf[64]) {
    uint32_t n = length < 60 ? length : 60;
    for (uint32_t i = 0; i < n; i++) buf[i] = name[i] >= 32 && name[i] < 127 ? (char)name[i] : '?';
    buf[n] = 0;
    return buf;
}

static int read_entry(iqi_ctx *ctx, const iq_zip_limits *lim, iq_zip *zip, uint32_t index, uint64_t *at,
                      uint64_t dir_end, uint64_t dir_offset) {
    const uint8_t *d = ctx->data;
    char buf[64];
    uint64_t h = *at;
    if (h + CENTRAL_SIZE > dir_end)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, (int64_t)h,
                        "central directory entry %u needs 46 bytes at offset %llu; the directory ends at %llu", index,
                        (unsigned long long)h, (unsigned long long)dir_end);
    if (iqi_u32(d + h) != CENTRAL_SIGNATURE)
        return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, (int64_t)h, "central directory entry %u: signature 0x%08x, expected 0x%08x",
                        index, iqi_u32(d + h), CENTRAL_SIGNATURE);
    iq_zip_entry *e = &zip->entries[index];
    e->flags = iqi_u16(d + h + 8);
    e->method = iqi_u16(d + h + 10);
    e->crc32 = iqi_u32(d + h + 16);
    e->compressed_size = iqi_u32(d + h + 20);
    e->uncompressed_size = iqi_u32(d + h + 24);
    uint32_t name_length = iqi_u16(d + h + 28), extra_length = iqi_u16(d + h + 30), comment_length = iqi_u16(d + h + 32);
    uint32_t local = iqi_u32(d + h + 42);
    uint64_t next = h + CENTRAL_SIZE + name_length + extra_length + comment_length;
    if (next > dir_end)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, (int64_t)h + 28,
                        "central directory entry %u: its name, extra field and comment (%u + %u + %u bytes) run past "
                        "the end of the directory at %llu", index, name_length, extra_length, comment_length,
                        (unsigned long long)dir_end);
    e->name_offset = (uint32_t)(h + CENTRAL_SIZE);
    e->name_length = name_length;
    const char *name = entry_name(d + e->name_offset, name_length, buf);
    if (name_length == 0)
        return iqi_fail(ctx, IQ_ERROR_BAD_STRING, (int64_t)h + 28, "central directory entry %u has an empty name", index);
    if (name_length > lim->max_name_length)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, (int64_t)h + 28, "entry %u ('%s...'): a %u-byte name; the limit is %u", index,
                        name, name_length, lim->max_name_length);
    if (e->compressed_size == 0xFFFFFFFFu || e->uncompressed_size == 0xFFFFFFFFu || local == 0xFFFFFFFFu)
        return iqi_fail(ctx, IQ_ERROR_UNSUPPORTED, (int64_t)h + 20, "entry '%s' uses ZIP64 sizes, which are not supported",
                        name);
    /* The local header repeats the name and may carry a different extra field. */
    if ((uint64_t)local + LOCAL_SIZE > dir_offset)
        return iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, (int64_t)h + 42,
                        "entry '%s': its local header at offset %u does not fit before the central directory at %llu",
                        name, local, (unsigned long long)dir_offset);
    if (iqi_u32(d + local) != LOCAL_SIGNATURE)
        return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, local, "entry '%s': local header signature 0x%08x, expected 0x%08x", name,
                        iqi_u32(d + local), LOCAL_SIGNATURE);
    uint64_t data = (uint64_t)local + LOCAL_SIZE + iqi_u16(d + local + 26) + iqi_u16(d + local + 28);
    if (data + e->compressed_size > dir_offset)
        return iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, local,
                        "entry '%s': %u bytes of data at offset %llu run past the start of the central directory at %llu",
                        name, e->compressed_size, (unsigned long long)data, (unsigned long long)dir_offset);
    e->data_offset = (uint32_t)data;
    if (e->method == IQ_ZIP_STORED && e->compressed_size != e->uncompressed_size)
        return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, (int64_t)h + 20,
                        "entry '%s' is stored (not compressed) but its sizes differ: %u stored, %u uncompressed", name,
                        e->compressed_size, e->uncompressed_size);
    if (e->method == IQ_ZIP_DEFLATE && e->uncompressed_size > 0 &&
        (uint64_t)e->uncompressed_size > (uint64_t)(e->compressed_size ? e->compressed_size : 1) * lim->max_ratio)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, (int64_t)h + 20,
                        "entry '%s' claims %u bytes from %u compressed, a ratio over %u:1 that deflate cannot reach "
                        "(a zip bomb?)", name, e->uncompressed_size, e->compressed_size, lim->max_ratio);
    zip->total_size += e->uncompressed_size;
    if (zip->total_size > lim->max_total_size)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, (int64_t)h + 24,
                        "the entries up to '%s' add up to %llu uncompressed bytes, over the limit of %llu", name,
                        (unsigned long long)zip->total_size, (unsigned long long)lim->max_total_size);
    *at = next;
    return 1;
}

iq_zip *iq_zip_open(const void *data, size_t size, const iq_zip_limits *limits, iq_error *error) {
    iq_error local_error;
    iq_zip_limits lim;
    iqi_ctx ctx;
    if (!error) error = &local_error;
    memset(error, 0, sizeof *error);
    error->offset = -1;
    memset(&ctx, 0, sizeof ctx);
    ctx.data = data;
    ctx.size = size;
    ctx.error = error;
    fill_limits(&lim, limits);
    if (!data && size) {
        iqi_fail(&ctx, IQ_ERROR_INVALID_ARGUMENT, -1, "data is NULL");
        return NULL;
    }
    if (size < EOCD_SIZE) {
        iqi_fail(&ctx, IQ_ERROR_TRUNCATED, 0, "%zu bytes cannot be a zip archive (the end record alone has 22)", size);
        return NULL;
    }
    if (size > 0xFFFFFFFFu) {
        iqi_fail(&ctx, IQ_ERROR_UNSUPPORTED, -1, "archives over 4 GiB need ZIP64, which is not supported");
        return NULL;
    }
    const uint8_t *d = data;
    int64_t eocd = find_end_record(d, size);
    if (eocd < 0) {
        iqi_fail(&ctx, IQ_ERROR_UNKNOWN_FORMAT, -1,
                 "not a zip archive: no end-of-central-directory record in the last %zu bytes",
                 size < EOCD_SIZE + MAX_COMMENT ? size : (size_t)EOCD_SIZE + MAX_COMMENT);
        return NULL;
    }
    const uint8_t *r = d + eocd;
    uint32_t disk = iqi_u16(r + 4), dir_disk = iqi_u16(r + 6), here = iqi_u16(r + 8), count = iqi_u16(r + 10);
    uint64_t dir_size = iqi_u32(r + 12), dir_offset = iqi_u32(r + 16);
    if (eocd >= 20 && iqi_u32(d + eocd - 20) == ZIP64_LOCATOR_SIGNATURE) {
        iqi_fail(&ctx, IQ_ERROR_UNSUPPORTED, eocd - 20, "a ZIP64 archive; only classic zip archives are supported");
        return NULL;
    }
    if (disk != 0 || dir_disk != 0 || here != count) {
        iqi_fail(&ctx, IQ_ERROR_UNSUPPORTED, eocd + 4,
                 "a multi-disk (split) archive: disk %u, directory on disk %u, %u of %u entries here", disk, dir_disk,
                 here, count);
        return NULL;
    }
    if (dir_offset + dir_size > (uint64_t)eocd) {
        iqi_fail(&ctx, IQ_ERROR_OUT_OF_RANGE, eocd + 12,
                 "the central directory (%llu bytes at offset %llu) runs past the end record at %lld",
                 (unsigned long long)dir_size, (unsigned long long)dir_offset, (long long)eocd);
        return NULL;
    }
    if (count > lim.max_entries) {
        iqi_fail(&ctx, IQ_ERROR_LIMIT, eocd + 10, "%u entries; the limit is %u", count, lim.max_entries);
        return NULL;
    }
    if ((uint64_t)count * CENTRAL_SIZE > dir_size) {
        iqi_fail(&ctx, IQ_ERROR_TRUNCATED, eocd + 12, "%u entries cannot fit in a %llu-byte central directory", count,
                 (unsigned long long)dir_size);
        return NULL;
    }
    iq_zip *zip = calloc(1, sizeof *zip);
    if (zip && count) zip->entries = calloc(count, sizeof *zip->entries);
    if (!zip || (count && !zip->entries)) {
        iq_zip_free(zip);
        iqi_fail(&ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory for %u zip entries", count);
        return NULL;
    }
    uint64_t at = dir_offset;
    for (uint32_t i = 0; i < count; i++) {
        if (!read_entry(&ctx, &lim, zip, i, &at, dir_offset + dir_size, dir_offset)) {
            iq_zip_free(zip);
            return NULL;
        }
    }
    zip->entry_count = count;
    if (at != dir_offset + dir_size) {
        snprintf(zip->warning, sizeof zip->warning, "%llu bytes after the last directory entry were ignored",
                 (unsigned long long)(dir_offset + dir_size - at));
        zip->warning_count++;
    }
    return zip;
}

void iq_zip_free(iq_zip *zip) {
    if (!zip) return;
    free(zip->entries);
    free(zip);
}
