/* The page cache of local lookup files: see lookup_cache.h. */
#include "lsm/lookup_cache.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/assert.h"
#include "util/error.h"

typedef struct page {
    uint64_t file_id;         /* owning file */
    int64_t page_no;          /* offset / page_size */
    size_t len;               /* bytes held (the last page of a file may be short) */
    struct page *chain;       /* next page in the same hash bucket */
    struct page *prev, *next; /* LRU list: prev is more recent */
    uint8_t data[];           /* len bytes */
} page;

struct pm_lookup_cache {
    int64_t page_size;   /* bytes per page */
    int64_t max_bytes;   /* lookup.cache-max-memory-size */
    int64_t used;        /* sum of held pages' len */
    page **buckets;      /* hash chains */
    size_t bucket_count; /* power of two */
    size_t page_count;   /* pages held */
    page *head, *tail;   /* LRU: head most recent */
    int64_t loads;       /* pages read from disk */
    int64_t evictions;   /* pages dropped for the bound */
};

static size_t slot_of(const pm_lookup_cache *c, uint64_t file_id, int64_t page_no)
{
    uint64_t h = file_id * 0x9E3779B97F4A7C15ull ^ (uint64_t)page_no * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return (size_t)h & (c->bucket_count - 1);
}

int pm_lookup_cache_new(pm_lookup_cache **out, int64_t page_size, int64_t max_bytes,
                        paimon_error *err)
{
    pm_lookup_cache *c;
    *out = NULL;
    if (page_size < 64 || page_size > (1 << 30) || max_bytes < 0)
        return pm_err_set(err, PAIMON_EINVALID, "lookup cache: page size %lld, memory %lld",
                          (long long)page_size, (long long)max_bytes);
    c = pm_calloc(1, sizeof(*c));
    if (c == NULL)
        return pm_nomem(err);
    c->page_size = page_size;
    c->max_bytes = max_bytes;
    c->bucket_count = 256;
    c->buckets = pm_calloc(c->bucket_count, sizeof(*c->buckets));
    if (c->buckets == NULL) {
        pm_free(c);
        return pm_nomem(err);
    }
    *out = c;
    return 0;
}

static void unlink_lru(pm_lookup_cache *c, page *p)
{
    if (p->prev != NULL)
        p->prev->next = p->next;
    else
        c->head = p->next;
    if (p->next != NULL)
        p->next->prev = p->prev;
    else
        c->tail = p->prev;
    p->prev = p->next = NULL;
}

static void push_front(pm_lookup_cache *c, page *p)
{
    p->prev = NULL;
    p->next = c->head;
    if (c->head != NULL)
        c->head->prev = p;
    c->head = p;
    if (c->tail == NULL)
        c->tail = p;
}

static void remove_page(pm_lookup_cache *c, page *p)
{
    page **pp = &c->buckets[slot_of(c, p->file_id, p->page_no)];
    while (*pp != p)
        pp = &(*pp)->chain;
    *pp = p->chain;
    unlink_lru(c, p);
    c->used -= (int64_t)p->len;
    c->page_count--;
    pm_free(p);
}

void pm_lookup_cache_free(pm_lookup_cache *c)
{
    if (c == NULL)
        return;
    while (c->head != NULL)
        remove_page(c, c->head);
    pm_free(c->buckets);
    pm_free(c);
}

/* Doubles the hash table when pages outnumber buckets (a failed grow keeps the old one). */
static void maybe_grow(pm_lookup_cache *c)
{
    size_t n = c->bucket_count * 2;
    page **b;
    if (c->page_count <= c->bucket_count)
        return;
    b = pm_calloc(n, sizeof(*b));
    if (b == NULL)
        return;
    for (size_t i = 0; i < c->bucket_count; i++) {
        page *p = c->buckets[i];
        while (p != NULL) {
            page *next = p->chain;
            size_t s;
            c->bucket_count = n; /* slot_of over the new size */
            s = slot_of(c, p->file_id, p->page_no);
            c->bucket_count = n / 2;
            p->chain = b[s];
            b[s] = p;
            p = next;
        }
    }
    pm_free(c->buckets);
    c->buckets = b;
    c->bucket_count = n;
}

PM_MUST_CHECK static int load_page(pm_lookup_cache *c, int fd, uint64_t file_id, int64_t file_len,
                                   const char *what, int64_t page_no, page **out, paimon_error *err)
{
    int64_t off = page_no * c->page_size;
    size_t len = (size_t)(file_len - off < c->page_size ? file_len - off : c->page_size);
    size_t got = 0;
    page *p = pm_malloc(sizeof(*p) + len);
    if (p == NULL)
        return pm_nomem(err);
    while (got < len) {
        ssize_t n = pread(fd, p->data + got, len - got, (off_t)(off + (int64_t)got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : 0;
            pm_free(p);
            return pm_err_set(err, PAIMON_EIO, "%s: read at offset %lld: %s", what,
                              (long long)(off + (int64_t)got), e ? strerror(e) : "short file");
        }
        got += (size_t)n;
    }
    p->file_id = file_id;
    p->page_no = page_no;
    p->len = len;
    p->prev = p->next = NULL;
    {
        size_t s = slot_of(c, file_id, page_no);
        p->chain = c->buckets[s];
        c->buckets[s] = p;
    }
    push_front(c, p);
    c->used += (int64_t)len;
    c->page_count++;
    c->loads++;
    /* Evict from the cold end, never the page just loaded. */
    while (c->used > c->max_bytes && c->tail != p) {
        remove_page(c, c->tail);
        c->evictions++;
    }
    maybe_grow(c);
    *out = p;
    return 0;
}

int pm_lookup_cache_read(pm_lookup_cache *c, int fd, uint64_t file_id, int64_t file_len,
                         const char *what, int64_t off, size_t len, uint8_t *dst, paimon_error *err)
{
    int64_t end;
    if (off < 0 || __builtin_add_overflow(off, (int64_t)len, &end) || end > file_len)
        return pm_corrupt(err, "%s: %zu bytes at offset %lld beyond the end (%lld bytes)", what,
                          len, (long long)off, (long long)file_len);
    while (len > 0) {
        int64_t page_no = off / c->page_size;
        size_t in_page = (size_t)(off - page_no * c->page_size), n;
        page *p = c->buckets[slot_of(c, file_id, page_no)];
        int rc;
        while (p != NULL && (p->file_id != file_id || p->page_no != page_no))
            p = p->chain;
        if (p == NULL) {
            if ((rc = load_page(c, fd, file_id, file_len, what, page_no, &p, err)) != 0)
                return rc;
        } else if (p != c->head) {
            unlink_lru(c, p);
            push_front(c, p);
        }
        PM_ASSERT(p != NULL); /* load_page sets it on success */
        n = p->len - in_page < len ? p->len - in_page : len;
        memcpy(dst, p->data + in_page, n);
        dst += n;
        off += (int64_t)n;
        len -= n;
    }
    return 0;
}

void pm_lookup_cache_drop_file(pm_lookup_cache *c, uint64_t file_id)
{
    page *p = c->head;
    while (p != NULL) {
        page *next = p->next;
        if (p->file_id == file_id)
            remove_page(c, p);
        p = next;
    }
}

int64_t pm_lookup_cache_used(const pm_lookup_cache *c)
{
    return c->used;
}

int64_t pm_lookup_cache_loads(const pm_lookup_cache *c)
{
    return c->loads;
}

int64_t pm_lookup_cache_evictions(const pm_lookup_cache *c)
{
    return c->evictions;
}
