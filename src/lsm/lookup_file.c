/* Local lookup files: see lookup_file.h for the format. */
#include "lsm/lookup_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/file_index.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/hash.h"

#define MAGIC       "PMLKUP01"
#define HEADER_LEN  48
#define SLOT_LEN    16
#define FLUSH_BYTES (1 << 20)

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- writing ------------------------------------------------------------------------------- */

typedef struct entry {
    uint64_t hash;   /* XXH64 of the key */
    uint64_t offset; /* of the record */
} entry;

struct pm_lookup_file_writer {
    const char *path;   /* borrowed */
    int fd;             /* -1 once closed */
    bool created;       /* this writer created the file (removed unless finished) */
    bool finished;      /* the file is complete: keep it */
    double load_factor; /* slot table fill */
    pm_bloom bloom;     /* num_bits 0: no filter */
    pm_buf pending;     /* bytes not yet written */
    uint64_t written;   /* bytes written to fd (header space included) */
    entry *entries;     /* one per record */
    size_t count, cap;
};

PM_MUST_CHECK static int write_all(int fd, const uint8_t *p, size_t len, const char *path,
                                   paimon_error *err)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return pm_err_set(err, PAIMON_EIO, "%s: write: %s", path, strerror(errno));
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

PM_MUST_CHECK static int flush(pm_lookup_file_writer *w, paimon_error *err)
{
    int rc = write_all(w->fd, w->pending.data, w->pending.len, w->path, err);
    w->written += w->pending.len;
    pm_buf_reset(&w->pending);
    return rc;
}

int pm_lookup_file_writer_open(pm_lookup_file_writer **out, const char *path, int64_t expected,
                               double bloom_fpp, double load_factor, paimon_error *err)
{
    pm_lookup_file_writer *w;
    uint8_t zero[HEADER_LEN] = {0};
    int rc;
    *out = NULL;
    if (!(load_factor > 0.0 && load_factor < 1.0))
        return pm_err_set(err, PAIMON_EINVALID, "lookup.hash-load-factor %g: must be in (0, 1)",
                          load_factor);
    if ((w = pm_calloc(1, sizeof(*w))) == NULL)
        return pm_nomem(err);
    w->path = path;
    w->load_factor = load_factor;
    pm_buf_init(&w->pending, 0);
    if (bloom_fpp > 0.0 && expected > 0 && pm_bloom_init(&w->bloom, expected, bloom_fpp) != 0) {
        pm_free(w);
        return pm_err_set(err, PAIMON_EINVALID, "lookup bloom filter: %lld items at fpp %g",
                          (long long)expected, bloom_fpp);
    }
    w->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (w->fd < 0) {
        rc = pm_err_set(err, PAIMON_EIO, "%s: cannot create: %s", path, strerror(errno));
        pm_lookup_file_writer_free(w);
        return rc;
    }
    w->created = true;
    if ((rc = pm_buf_append(&w->pending, zero, sizeof(zero))) != 0) {
        pm_lookup_file_writer_free(w);
        return pm_buf_error(err, rc);
    }
    *out = w;
    return 0;
}

int pm_lookup_file_writer_add(pm_lookup_file_writer *w, const uint8_t *key, size_t key_len,
                              const uint8_t *value, size_t value_len, paimon_error *err)
{
    uint8_t head[8];
    int rc;
    if (key_len > UINT32_MAX || value_len > UINT32_MAX)
        return pm_err_set(err, PAIMON_ELIMIT, "%s: record of %zu + %zu bytes", w->path, key_len,
                          value_len);
    if (w->count == w->cap) {
        size_t cap = w->cap == 0 ? 1024 : w->cap * 2;
        entry *grown = pm_realloc(w->entries, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        w->entries = grown;
        w->cap = cap;
    }
    w->entries[w->count].hash = pm_xxh64(key, key_len, 0);
    w->entries[w->count].offset = w->written + w->pending.len;
    if (w->bloom.num_bits > 0)
        pm_bloom_add(&w->bloom, w->entries[w->count].hash);
    w->count++;
    for (int i = 0; i < 4; i++) {
        head[i] = (uint8_t)(key_len >> (8 * i));
        head[4 + i] = (uint8_t)(value_len >> (8 * i));
    }
    if ((rc = pm_buf_append(&w->pending, head, 8)) != 0 ||
        (rc = pm_buf_append(&w->pending, key, key_len)) != 0 ||
        (rc = pm_buf_append(&w->pending, value, value_len)) != 0)
        return pm_buf_error(err, rc);
    return w->pending.len >= FLUSH_BYTES ? flush(w, err) : 0;
}

int pm_lookup_file_writer_finish(pm_lookup_file_writer *w, paimon_error *err)
{
    uint64_t slots = 16, slot_off, bloom_off = 0, bloom_len = 0;
    uint8_t *table = NULL, header[HEADER_LEN];
    int rc = 0;
    while ((double)slots * w->load_factor < (double)w->count)
        slots *= 2;
    if ((rc = flush(w, err)) != 0)
        goto done;
    slot_off = w->written;
    if ((table = pm_calloc(slots, SLOT_LEN)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < w->count; i++) {
        uint64_t s = w->entries[i].hash & (slots - 1);
        while (get64(table + s * SLOT_LEN + 8) != 0)
            s = (s + 1) & (slots - 1);
        put64(table + s * SLOT_LEN, w->entries[i].hash);
        put64(table + s * SLOT_LEN + 8, w->entries[i].offset);
    }
    if ((rc = write_all(w->fd, table, slots * SLOT_LEN, w->path, err)) != 0)
        goto done;
    w->written += slots * SLOT_LEN;
    if (w->bloom.num_bits > 0) {
        if ((rc = pm_bloom_serialize(&w->bloom, &w->pending)) != 0) {
            rc = pm_buf_error(err, rc);
            goto done;
        }
        bloom_off = w->written;
        bloom_len = w->pending.len;
        if ((rc = flush(w, err)) != 0)
            goto done;
    }
    memcpy(header, MAGIC, 8);
    put64(header + 8, w->count);
    put64(header + 16, slots);
    put64(header + 24, slot_off);
    put64(header + 32, bloom_off);
    put64(header + 40, bloom_len);
    if (pwrite(w->fd, header, HEADER_LEN, 0) != HEADER_LEN) {
        rc = pm_err_set(err, PAIMON_EIO, "%s: write header: %s", w->path, strerror(errno));
        goto done;
    }
    if (close(w->fd) != 0) {
        w->fd = -1;
        rc = pm_err_set(err, PAIMON_EIO, "%s: close: %s", w->path, strerror(errno));
        goto done;
    }
    w->fd = -1;
    w->finished = true;
done:
    pm_free(table);
    return rc;
}

void pm_lookup_file_writer_free(pm_lookup_file_writer *w)
{
    if (w == NULL)
        return;
    if (w->fd >= 0)
        close(w->fd);
    if (w->created && !w->finished)
        unlink(w->path);
    pm_bloom_free(&w->bloom);
    pm_buf_free(&w->pending);
    pm_free(w->entries);
    pm_free(w);
}

/* ---- reading ------------------------------------------------------------------------------- */

struct pm_lookup_file {
    char *path;             /* owned */
    int fd;                 /* open for reading */
    int64_t size;           /* bytes */
    pm_lookup_cache *cache; /* borrowed */
    uint64_t file_id;       /* in the cache */
    uint64_t slots;         /* power of two */
    int64_t slot_off;       /* end of the records */
    uint8_t *bloom_bytes;   /* owned payload, NULL without a filter */
    pm_bloom bloom;         /* a view of bloom_bytes */
    pm_buf scratch;         /* the record of the last hit */
    int64_t bloom_skips;    /* gets the filter answered */
};

int pm_lookup_file_open(pm_lookup_file **out, const char *path, pm_lookup_cache *cache,
                        uint64_t file_id, paimon_error *err)
{
    pm_lookup_file *f = pm_calloc(1, sizeof(*f));
    uint8_t h[HEADER_LEN];
    uint64_t bloom_off, bloom_len, end;
    struct stat st;
    int rc = 0;
    *out = NULL;
    if (f == NULL)
        return pm_nomem(err);
    f->fd = -1;
    pm_buf_init(&f->scratch, 0);
    f->cache = cache;
    f->file_id = file_id;
    if ((f->path = pm_strdup(path)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if ((f->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || fstat(f->fd, &st) != 0) {
        rc = pm_err_set(err, PAIMON_EIO, "%s: cannot open: %s", path, strerror(errno));
        goto done;
    }
    f->size = (int64_t)st.st_size;
    if (f->size < HEADER_LEN || pread(f->fd, h, HEADER_LEN, 0) != HEADER_LEN ||
        memcmp(h, MAGIC, 8) != 0) {
        rc = pm_corrupt(err, "%s: not a lookup file (%lld bytes)", path, (long long)f->size);
        goto done;
    }
    f->slots = get64(h + 16);
    f->slot_off = (int64_t)get64(h + 24);
    bloom_off = get64(h + 32);
    bloom_len = get64(h + 40);
    if (f->slots == 0 || (f->slots & (f->slots - 1)) != 0 || f->slots > (uint64_t)f->size ||
        f->slot_off < HEADER_LEN || f->slot_off > f->size ||
        __builtin_add_overflow((uint64_t)f->slot_off, f->slots * SLOT_LEN, &end) ||
        end > (uint64_t)f->size ||
        (bloom_off != 0 && (bloom_off < end || bloom_len > (uint64_t)f->size - bloom_off))) {
        rc = pm_corrupt(err, "%s: header at offset 0 out of range", path);
        goto done;
    }
    if (bloom_off != 0) {
        if ((f->bloom_bytes = pm_malloc(bloom_len)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        if (pread(f->fd, f->bloom_bytes, bloom_len, (off_t)bloom_off) != (ssize_t)bloom_len) {
            rc = pm_err_set(err, PAIMON_EIO, "%s: read bloom filter", path);
            goto done;
        }
        if ((rc = pm_bloom_view(&f->bloom, f->bloom_bytes, bloom_len, err)) != 0) {
            pm_err_prefix(err, rc, "%s: offset %llu: ", path, (unsigned long long)bloom_off);
            goto done;
        }
    }
    *out = f;
    f = NULL;
done:
    pm_lookup_file_close(f, false);
    return rc;
}

int pm_lookup_file_get(pm_lookup_file *f, const uint8_t *key, size_t key_len, bool *found,
                       const uint8_t **value, size_t *value_len, paimon_error *err)
{
    uint64_t hash = pm_xxh64(key, key_len, 0), s = hash & (f->slots - 1);
    int rc;
    *found = false;
    if (f->bloom_bytes != NULL && !pm_bloom_test(&f->bloom, hash)) {
        f->bloom_skips++;
        return 0;
    }
    for (uint64_t probes = 0; probes < f->slots; probes++, s = (s + 1) & (f->slots - 1)) {
        uint8_t slot[SLOT_LEN], head[8];
        int64_t off = f->slot_off + (int64_t)(s * SLOT_LEN), rec;
        uint32_t klen, vlen;
        if ((rc = pm_lookup_cache_read(f->cache, f->fd, f->file_id, f->size, f->path, off, SLOT_LEN,
                                       slot, err)) != 0)
            return rc;
        rec = (int64_t)get64(slot + 8);
        if (rec == 0)
            return 0;
        if (get64(slot) != hash)
            continue;
        if (rec < HEADER_LEN || rec > f->slot_off - 8)
            return pm_corrupt(err, "%s: slot at offset %lld points outside the records", f->path,
                              (long long)off);
        if ((rc = pm_lookup_cache_read(f->cache, f->fd, f->file_id, f->size, f->path, rec, 8, head,
                                       err)) != 0)
            return rc;
        klen = get32(head);
        vlen = get32(head + 4);
        if ((uint64_t)klen + vlen > (uint64_t)(f->slot_off - rec - 8))
            return pm_corrupt(err, "%s: record at offset %lld overruns the records", f->path,
                              (long long)rec);
        if (klen != key_len)
            continue;
        pm_buf_reset(&f->scratch);
        if ((rc = pm_buf_reserve(&f->scratch, (size_t)klen + vlen)) != 0)
            return pm_buf_error(err, rc);
        if ((rc = pm_lookup_cache_read(f->cache, f->fd, f->file_id, f->size, f->path, rec + 8,
                                       (size_t)klen + vlen, f->scratch.data, err)) != 0)
            return rc;
        if (memcmp(f->scratch.data, key, key_len) != 0)
            continue;
        *found = true;
        *value = f->scratch.data + klen;
        *value_len = vlen;
        return 0;
    }
    return 0;
}

int64_t pm_lookup_file_size(const pm_lookup_file *f)
{
    return f->size;
}

int64_t pm_lookup_file_bloom_skips(const pm_lookup_file *f)
{
    return f->bloom_skips;
}

void pm_lookup_file_close(pm_lookup_file *f, bool remove)
{
    if (f == NULL)
        return;
    if (f->cache != NULL)
        pm_lookup_cache_drop_file(f->cache, f->file_id);
    if (f->fd >= 0)
        close(f->fd);
    if (remove && f->path != NULL)
        unlink(f->path);
    pm_free(f->bloom_bytes);
    pm_buf_free(&f->scratch);
    pm_free(f->path);
    pm_free(f);
}
