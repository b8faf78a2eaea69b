/* Bump allocator: see arena.h. */
#include "util/arena.h"

#include <stdint.h>
#include <string.h>

#include "paimon/error.h"
#include "util/alloc.h"
#include "util/assert.h"

struct pm_arena_chunk {
    pm_arena_chunk *next; /* older chunk */
    void *adopted;        /* non-NULL: this node only owns an adopted block */
    size_t cap;           /* usable bytes in data[] */
    size_t used;          /* bytes handed out from data[] */
    _Alignas(16) unsigned char data[];
};

void pm_arena_init(pm_arena *a, size_t chunk_size)
{
    a->head = NULL;
    a->adopted = NULL;
    a->chunk_size = chunk_size < 256 ? 256 : chunk_size;
    a->bytes = 0;
}

static void free_list(pm_arena_chunk *c)
{
    while (c != NULL) {
        pm_arena_chunk *next = c->next;
        pm_free(c->adopted);
        pm_free(c);
        c = next;
    }
}

void pm_arena_free(pm_arena *a)
{
    free_list(a->head);
    free_list(a->adopted);
    a->head = NULL;
    a->adopted = NULL;
    a->bytes = 0;
}

void pm_arena_reset(pm_arena *a)
{
    pm_arena_chunk *keep = a->head;
    if (keep != NULL) {
        free_list(keep->next);
        keep->next = NULL;
        keep->used = 0;
        a->bytes = keep->cap;
    } else {
        a->bytes = 0;
    }
    free_list(a->adopted);
    a->adopted = NULL;
}

void *pm_arena_alloc(pm_arena *a, size_t size)
{
    size_t aligned = (size + 15) & ~(size_t)15; /* 16: pm_datum holds an __int128 */
    pm_arena_chunk *c = a->head;
    size_t cap;

    if (aligned < size)
        return NULL;
    /* The head chunk hands out 16-byte multiples and never more than it holds. */
    PM_ASSERT(c == NULL || (c->used <= c->cap && c->used % 16 == 0 && c->adopted == NULL));
    if (c != NULL && c->cap - c->used >= aligned) {
        void *p = c->data + c->used;
        c->used += aligned;
        return p;
    }
    cap = aligned > a->chunk_size ? aligned : a->chunk_size;
    if (cap > SIZE_MAX - sizeof(*c))
        return NULL;
    c = pm_malloc(sizeof(*c) + cap);
    if (c == NULL)
        return NULL;
    c->adopted = NULL;
    c->cap = cap;
    c->used = aligned;
    c->next = a->head;
    a->head = c;
    a->bytes += cap;
    return c->data;
}

void *pm_arena_calloc(pm_arena *a, size_t count, size_t size)
{
    size_t total;
    void *p;
    if (__builtin_mul_overflow(count, size, &total))
        return NULL;
    p = pm_arena_alloc(a, total);
    if (p != NULL)
        memset(p, 0, total);
    return p;
}

void *pm_arena_dup(pm_arena *a, const void *data, size_t len)
{
    void *p = pm_arena_alloc(a, len);
    if (p != NULL && len > 0)
        memcpy(p, data, len);
    return p;
}

char *pm_arena_strndup(pm_arena *a, const char *s, size_t len)
{
    char *p = pm_arena_alloc(a, len + 1);
    if (p == NULL)
        return NULL;
    if (len > 0) /* s may be NULL then (an empty pm_buf) */
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

int pm_arena_adopt(pm_arena *a, void *block, size_t len)
{
    pm_arena_chunk *c = pm_malloc(sizeof(*c));
    if (c == NULL) {
        pm_free(block);
        return PAIMON_ENOMEM;
    }
    c->adopted = block;
    c->cap = 0;
    c->used = 0;
    c->next = a->adopted;
    a->adopted = c;
    a->bytes += len;
    return 0;
}

/* Appends list `b` after list `a`; returns the head. */
static pm_arena_chunk *concat(pm_arena_chunk *a, pm_arena_chunk *b)
{
    pm_arena_chunk *tail = a;
    if (a == NULL)
        return b;
    while (tail->next != NULL)
        tail = tail->next;
    tail->next = b;
    return a;
}

void pm_arena_absorb(pm_arena *dst, pm_arena *src)
{
    /* dst keeps allocating in its own head chunk: src's chunks go behind it. */
    if (dst->head != NULL)
        dst->head->next = concat(src->head, dst->head->next);
    else
        dst->head = src->head;
    dst->adopted = concat(src->adopted, dst->adopted);
    dst->bytes += src->bytes;
    src->head = NULL;
    src->adopted = NULL;
    src->bytes = 0;
}
