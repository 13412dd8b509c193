/* The central directory of a zip (.pk3) archive, read for untrusted input.
 *
 * Order of work: find the end record (searching back over a comment of up to
 * 65535 bytes), check it describes a single-disk, non-ZIP64 archive whose
 * directory lies before it, then read every directory entry and the local
 * header it points at, checking that names, extra fields and data all lie
 * inside the archive and before the directory, and that no two entries share
 * bytes (one stream listed twice is inflated twice). An end record that
 * understates the entry count is read through to the directory's real
 * entries. Limits (entry count, name length, declared total size and
 * compression ratio) refuse zip bombs before anything is inflated. Inflating is the caller's job (the JS API uses fflate
 * and checks the CRC-32 recorded here). Spec: PKWARE APPNOTE.TXT, sections
 * 4.3.7 (local header), 4.3.12 (central directory header), 4.3.16 (end record). */
#include "quake3/iq_quake3.h"
#include "base/iq_internal.h"
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
    if (!l->max_ratio) l->max_ratio = IQ_ZIP_DEFAULT_MAX_RATIO;
}

/* The last end record whose comment fits the file exactly or leaves trailing
 * bytes (some tools append junk); -1 when there is none. t holds the last n
 * bytes of the archive; the result is an index into t. */
static int64_t find_end_record(const uint8_t *t, size_t n) {
    size_t lowest = n - EOCD_SIZE > MAX_COMMENT ? n - EOCD_SIZE - MAX_COMMENT : 0;
    for (size_t at = n - EOCD_SIZE + 1; at-- > lowest;) {
        if (iqi_u32(t + at) == EOCD_SIGNATURE && at + EOCD_SIZE + iqi_u16(t + at + 20) <= n) return (int64_t)at;
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

static void start(iqi_ctx *ctx, iq_error *error, iq_error *local, iq_zip_limits *lim, const iq_zip_limits *given) {
    error = iqi_error_reset(error, local);
    memset(ctx, 0, sizeof *ctx);
    ctx->error = error;
    fill_limits(lim, given);
}

// -- Step 1: the end record

static int find_directory(const void *tail, size_t tail_size, uint64_t archive_size, const iq_zip_limits *limits,
                          iq_zip_directory *out, iq_error *error) {
    iq_error local_error;
    iq_zip_limits lim;
    iqi_ctx ctx;
    start(&ctx, error, &local_error, &lim, limits);
    if (!out || (!tail && tail_size) || tail_size > archive_size)
        return iqi_fail(&ctx, IQ_ERROR_INVALID_ARGUMENT, -1, "bad arguments: %zu tail bytes of a %llu-byte archive",
                        tail_size, (unsigned long long)archive_size);
    memset(out, 0, sizeof *out);
    out->archive_size = archive_size;
    if (archive_size < EOCD_SIZE)
        return iqi_fail(&ctx, IQ_ERROR_TRUNCATED, 0, "%llu bytes cannot be a zip archive (the end record alone has 22)",
                        (unsigned long long)archive_size);
    if (archive_size > 0xFFFFFFFFu)
        return iqi_fail(&ctx, IQ_ERROR_UNSUPPORTED, -1, "archives over 4 GiB need ZIP64, which is not supported");
    if (tail_size < EOCD_SIZE)
        return iqi_fail(&ctx, IQ_ERROR_INVALID_ARGUMENT, -1, "the tail must hold at least the 22-byte end record");
    const uint8_t *t = tail;
    uint64_t base = archive_size - tail_size; /* archive offset of t[0] */
    int64_t found = find_end_record(t, tail_size);
    if (found < 0)
        return iqi_fail(&ctx, IQ_ERROR_UNKNOWN_FORMAT, -1,
                        "not a zip archive: no end-of-central-directory record in the last %zu bytes",
                        tail_size < EOCD_SIZE + MAX_COMMENT ? tail_size : (size_t)EOCD_SIZE + MAX_COMMENT);
    uint64_t eocd = base + (uint64_t)found;
    const uint8_t *r = t + found;
    uint32_t disk = iqi_u16(r + 4), dir_disk = iqi_u16(r + 6), here = iqi_u16(r + 8), count = iqi_u16(r + 10);
    uint64_t dir_size = iqi_u32(r + 12), dir_offset = iqi_u32(r + 16);
    if (found >= 20 && iqi_u32(r - 20) == ZIP64_LOCATOR_SIGNATURE)
        return iqi_fail(&ctx, IQ_ERROR_UNSUPPORTED, (int64_t)eocd - 20, "a ZIP64 archive; only classic zip archives are supported");
    if (disk != 0 || dir_disk != 0 || here != count)
        return iqi_fail(&ctx, IQ_ERROR_UNSUPPORTED, (int64_t)eocd + 4,
                        "a multi-disk (split) archive: disk %u, directory on disk %u, %u of %u entries here", disk,
                        dir_disk, here, count);
    if (dir_offset + dir_size > eocd)
        return iqi_fail(&ctx, IQ_ERROR_OUT_OF_RANGE, (int64_t)eocd + 12,
                        "the central directory (%llu bytes at offset %llu) runs past the end record at %llu",
                        (unsigned long long)dir_size, (unsigned long long)dir_offset, (unsigned long long)eocd);
    if (count > lim.max_entries)
        return iqi_fail(&ctx, IQ_ERROR_LIMIT, (int64_t)eocd + 10, "%u entries; the limit is %u", count, lim.max_entries);
    if ((uint64_t)count * CENTRAL_SIZE > dir_size)
        return iqi_fail(&ctx, IQ_ERROR_TRUNCATED, (int64_t)eocd + 12, "%u entries cannot fit in a %llu-byte central directory",
                        count, (unsigned long long)dir_size);
    out->offset = dir_offset;
    out->size = dir_size;
    out->end_record = eocd;
    out->entry_count = count;
    return 1;
}

// -- Step 2: the central directory

/* Reads entry `index` at directory position *at (relative to the directory). */
static int read_entry(iqi_ctx *ctx, const iq_zip_limits *lim, iq_zip *zip, uint32_t index, uint64_t *at) {
    const uint8_t *d = ctx->data;
    const iq_zip_directory *dir = &zip->directory;
    char buf[64];
    uint64_t h = *at;
    int64_t where = (int64_t)(dir->offset + h); /* archive offset, for messages */
    if (h + CENTRAL_SIZE > dir->size)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, where,
                        "central directory entry %u needs 46 bytes at offset %lld; the directory ends at %llu", index,
                        (long long)where, (unsigned long long)(dir->offset + dir->size));
    if (iqi_u32(d + h) != CENTRAL_SIGNATURE)
        return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, where, "central directory entry %u: signature 0x%08x, expected 0x%08x",
                        index, iqi_u32(d + h), CENTRAL_SIGNATURE);
    iq_zip_entry *e = &zip->entries[index];
    e->flags = iqi_u16(d + h + 8);
    e->method = iqi_u16(d + h + 10);
    e->crc32 = iqi_u32(d + h + 16);
    e->compressed_size = iqi_u32(d + h + 20);
    e->uncompressed_size = iqi_u32(d + h + 24);
    uint32_t name_length = iqi_u16(d + h + 28), extra_length = iqi_u16(d + h + 30), comment_length = iqi_u16(d + h + 32);
    e->local_offset = iqi_u32(d + h + 42);
    uint64_t next = h + CENTRAL_SIZE + name_length + extra_length + comment_length;
    if (next > dir->size)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, where + 28,
                        "central directory entry %u: its name, extra field and comment (%u + %u + %u bytes) run past "
                        "the end of the directory at %llu", index, name_length, extra_length, comment_length,
                        (unsigned long long)(dir->offset + dir->size));
    e->name_offset = (uint32_t)(dir->offset + h + CENTRAL_SIZE);
    e->name_length = name_length;
    const char *name = entry_name(d + h + CENTRAL_SIZE, name_length, buf);
    if (name_length == 0)
        return iqi_fail(ctx, IQ_ERROR_BAD_STRING, where + 28, "central directory entry %u has an empty name", index);
    if (name_length > lim->max_name_length)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, where + 28, "entry %u ('%s...'): a %u-byte name; the limit is %u", index,
                        name, name_length, lim->max_name_length);
    if (e->compressed_size == 0xFFFFFFFFu || e->uncompressed_size == 0xFFFFFFFFu || e->local_offset == 0xFFFFFFFFu)
        return iqi_fail(ctx, IQ_ERROR_UNSUPPORTED, where + 20, "entry '%s' uses ZIP64 sizes, which are not supported", name);
    /* The local header (30 bytes, then the name again and its own extra field) comes first. */
    if ((uint64_t)e->local_offset + LOCAL_SIZE > dir->offset)
        return iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, where + 42,
                        "entry '%s': its local header at offset %u does not fit before the central directory at %llu",
                        name, e->local_offset, (unsigned long long)dir->offset);
    if ((uint64_t)e->local_offset + LOCAL_SIZE + e->compressed_size > dir->offset)
        return iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, where + 20,
                        "entry '%s': %u bytes of data after its local header at %u run past the start of the central "
                        "directory at %llu", name, e->compressed_size, e->local_offset, (unsigned long long)dir->offset);
    if (e->method == IQ_ZIP_STORED && e->compressed_size != e->uncompressed_size)
        return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, where + 20,
                        "entry '%s' is stored (not compressed) but its sizes differ: %u stored, %u uncompressed", name,
                        e->compressed_size, e->uncompressed_size);
    if (e->method == IQ_ZIP_DEFLATE && e->uncompressed_size > 0 &&
        (uint64_t)e->uncompressed_size > (uint64_t)(e->compressed_size ? e->compressed_size : 1) * lim->max_ratio)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, where + 20,
                        "entry '%s' claims %u bytes from %u compressed, a ratio over the limit of %u:1 (a zip bomb?)",
                        name, e->uncompressed_size, e->compressed_size, lim->max_ratio);
    zip->total_size += e->uncompressed_size;
    if (zip->total_size > lim->max_total_size)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, where + 24,
                        "the entries up to '%s' add up to %llu uncompressed bytes, over the limit of %llu", name,
                        (unsigned long long)zip->total_size, (unsigned long long)lim->max_total_size);
    *at = next;
    return 1;
}

/* How many entry records the directory really holds, following their lengths
 * from the start while signatures match; stops counting past `limit`. */
static uint32_t count_entries(const uint8_t *d, uint64_t size, uint32_t limit) {
    uint32_t n = 0;
    for (uint64_t h = 0; h + CENTRAL_SIZE <= size && iqi_u32(d + h) == CENTRAL_SIGNATURE && n <= limit; n++)
        h += CENTRAL_SIZE + (uint64_t)iqi_u16(d + h + 28) + iqi_u16(d + h + 30) + iqi_u16(d + h + 32);
    return n;
}

iq_zip *iq_zip_read_directory(const void *directory, const iq_zip_directory *dir, const iq_zip_limits *limits,
                              iq_error *error) {
    iq_error local_error;
    iq_zip_limits lim;
    iqi_ctx ctx;
    start(&ctx, error, &local_error, &lim, limits);
    if (!dir || (!directory && dir->size) || dir->entry_count > lim.max_entries ||
        (uint64_t)dir->entry_count * CENTRAL_SIZE > dir->size || dir->offset + dir->size > dir->archive_size) {
        iqi_fail(&ctx, IQ_ERROR_INVALID_ARGUMENT, -1, "the directory description does not come from iq_zip_find_directory");
        return NULL;
    }
    ctx.data = directory;
    ctx.size = (size_t)dir->size;
    /* The end record's count is 16 bits: writers without ZIP64 store it modulo
     * 65536 or as 0xFFFF. More records than it says are read when they fit the
     * entry limit, refused when they do not (never a silent first 65535). */
    uint32_t count = count_entries(directory, dir->size, lim.max_entries);
    if (count > lim.max_entries) {
        iqi_fail(&ctx, IQ_ERROR_LIMIT, (int64_t)dir->end_record + 10,
                 "the end record says %u entries but the central directory holds more than %u, the entry limit "
                 "(an archive of over 65535 entries needs ZIP64, which is not supported)",
                 dir->entry_count, lim.max_entries);
        return NULL;
    }
    if (count < dir->entry_count) count = dir->entry_count; /* the missing ones fail in read_entry, located */
    iq_zip *zip = iqi_calloc(1, sizeof *zip);
    if (zip && count) zip->entries = iqi_calloc(count, sizeof *zip->entries);
    if (!zip || (count && !zip->entries)) {
        iq_zip_free(zip);
        iqi_fail(&ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory for %u zip entries", count);
        return NULL;
    }
    zip->directory = *dir;
    uint64_t at = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (!read_entry(&ctx, &lim, zip, i, &at)) {
            iq_zip_free(zip);
            return NULL;
        }
    }
    zip->entry_count = count;
    /* a copy of the names, so that the local-header step can name entries in its errors */
    zip->names = iqi_malloc(at ? (size_t)at : 1);
    if (!zip->names) {
        iq_zip_free(zip);
        iqi_fail(&ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory for a %llu-byte directory", (unsigned long long)at);
        return NULL;
    }
    memcpy(zip->names, directory, (size_t)at);
    if (count > dir->entry_count) {
        snprintf(zip->warning, sizeof zip->warning, "the end record says %u entries; the central directory holds %u, all read",
                 dir->entry_count, count);
        zip->warning_count++;
    } else if (at != dir->size) {
        snprintf(zip->warning, sizeof zip->warning, "%llu bytes after the last directory entry were ignored",
                 (unsigned long long)(dir->size - at));
        zip->warning_count++;
    }
    return zip;
}

// -- Step 3: local headers

typedef struct { uint64_t start, end; uint32_t index; } byte_range;

static int by_start(const void *a, const void *b) {
    const byte_range *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start ? 1 : (x->index > y->index) - (x->index < y->index);
}

/* Refuses two entries whose bytes (local header to end of data) overlap: a
 * stream listed under several names is inflated once per name, and local
 * headers inside another entry's data are the overlapping-zip-bomb trick. */
static int check_overlaps(iqi_ctx *ctx, const iq_zip *zip) {
    if (zip->entry_count < 2) return 1;
    byte_range *r = iqi_malloc((size_t)zip->entry_count * sizeof *r);
    if (!r) return iqi_fail(ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory for %u entry ranges", zip->entry_count);
    for (uint32_t i = 0; i < zip->entry_count; i++) {
        const iq_zip_entry *e = &zip->entries[i];
        r[i] = (byte_range){e->local_offset, (uint64_t)e->data_offset + e->compressed_size, i};
    }
    qsort(r, zip->entry_count, sizeof *r, by_start);
    for (uint32_t i = 1; i < zip->entry_count; i++) {
        if (r[i].start >= r[i - 1].end) continue;
        char a[64], b[64];
        const iq_zip_entry *x = &zip->entries[r[i - 1].index], *y = &zip->entries[r[i].index];
        const uint8_t *names = zip->names;
        uint64_t base = zip->directory.offset;
        iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, (int64_t)r[i].start,
                 "entries '%s' (bytes %llu..%llu) and '%s' (from %llu) overlap: archives never share bytes between "
                 "entries (a zip bomb?)", entry_name(names + (x->name_offset - base), x->name_length, a),
                 (unsigned long long)r[i - 1].start, (unsigned long long)r[i - 1].end,
                 entry_name(names + (y->name_offset - base), y->name_length, b), (unsigned long long)r[i].start);
        iqi_free(r);
        return 0;
    }
    iqi_free(r);
    return 1;
}

static int check_local_headers(iq_zip *zip, const void *headers, size_t size, iq_error *error) {
    iq_error local_error;
    iq_zip_limits lim;
    iqi_ctx ctx;
    char buf[64];
    start(&ctx, error, &local_error, &lim, NULL);
    if (!zip || (!headers && size) || size != (size_t)zip->entry_count * LOCAL_SIZE)
        return iqi_fail(&ctx, IQ_ERROR_INVALID_ARGUMENT, -1, "expected %u local headers of 30 bytes, got %zu bytes",
                        zip ? zip->entry_count : 0, size);
    const uint8_t *h = headers;
    for (uint32_t i = 0; i < zip->entry_count; i++, h += LOCAL_SIZE) {
        iq_zip_entry *e = &zip->entries[i];
        const char *name = entry_name(zip->names + (e->name_offset - zip->directory.offset), e->name_length, buf);
        if (iqi_u32(h) != LOCAL_SIGNATURE)
            return iqi_fail(&ctx, IQ_ERROR_BAD_MAGIC, e->local_offset,
                            "entry '%s': local header signature 0x%08x, expected 0x%08x", name, iqi_u32(h), LOCAL_SIGNATURE);
        uint64_t data = (uint64_t)e->local_offset + LOCAL_SIZE + iqi_u16(h + 26) + iqi_u16(h + 28);
        if (data + e->compressed_size > zip->directory.offset)
            return iqi_fail(&ctx, IQ_ERROR_OUT_OF_RANGE, e->local_offset,
                            "entry '%s': %u bytes of data at offset %llu run past the start of the central directory at %llu",
                            name, e->compressed_size, (unsigned long long)data, (unsigned long long)zip->directory.offset);
        e->data_offset = (uint32_t)data;
    }
    return check_overlaps(&ctx, zip);
}

// -- All three over an archive in memory

// -- Entry points of the steps: one iq_error_code each

iq_error_code iq_zip_find_directory(const void *tail, size_t tail_size, uint64_t archive_size, const iq_zip_limits *limits,
                                    iq_zip_directory *out, iq_error *error) {
    iq_error local;
    if (!error) error = &local;
    return iqi_result(find_directory(tail, tail_size, archive_size, limits, out, error), error);
}

iq_error_code iq_zip_check_local_headers(iq_zip *zip, const void *headers, size_t size, iq_error *error) {
    iq_error local;
    if (!error) error = &local;
    return iqi_result(check_local_headers(zip, headers, size, error), error);
}

// -- All three steps over a whole archive in memory

iq_zip *iq_zip_open(const void *data, size_t size, const iq_zip_limits *limits, iq_error *error) {
    iq_error local_error;
    iq_zip_directory dir;
    if (!error) error = &local_error;
    if (!data && size) {
        iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "data is NULL");
        return NULL;
    }
    const uint8_t *d = data;
    size_t tail = size < EOCD_SIZE + MAX_COMMENT ? size : EOCD_SIZE + MAX_COMMENT;
    if (!find_directory(size >= EOCD_SIZE ? d + size - tail : d, size >= EOCD_SIZE ? tail : 0, size, limits, &dir, error))
        return NULL;
    iq_zip *zip = iq_zip_read_directory(d + dir.offset, &dir, limits, error);
    if (!zip) return NULL;
    /* The local headers lie before the directory (checked above): gather their first 30 bytes. */
    uint8_t *headers = iqi_malloc(zip->entry_count ? (size_t)zip->entry_count * LOCAL_SIZE : 1);
    if (!headers) {
        iq_zip_free(zip);
        iqi_set_error(error, IQ_ERROR_OUT_OF_MEMORY, "out of memory for %u local headers", dir.entry_count);
        return NULL;
    }
    for (uint32_t i = 0; i < zip->entry_count; i++) memcpy(headers + (size_t)i * LOCAL_SIZE, d + zip->entries[i].local_offset, LOCAL_SIZE);
    int ok = check_local_headers(zip, headers, (size_t)zip->entry_count * LOCAL_SIZE, error);
    iqi_free(headers);
    if (!ok) {
        iq_zip_free(zip);
        return NULL;
    }
    return zip;
}

void iq_zip_free(iq_zip *zip) {
    if (!zip) return;
    iqi_free(zip->entries);
    iqi_free(zip->names);
    iqi_free(zip);
}
