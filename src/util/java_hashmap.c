/* java.util.HashMap's iteration order, replayed: see java_hashmap.h. */
#include "util/java_hashmap.h"

#include <string.h>

#include "paimon/error.h"
#include "util/alloc.h"

#define INITIAL_CAPACITY   16
#define TREEIFY_BIN_LENGTH 9 /* a bin this long asks for a tree (Java: binCount >= 7) */
#define MIN_TREE_CAPACITY  64

void pm_jhm_init(pm_jhm *m, pm_jhm_equal_fn equal, void *ctx)
{
    memset(m, 0, sizeof(*m));
    m->equal = equal;
    m->ctx = ctx;
}

void pm_jhm_free(pm_jhm *m)
{
    pm_free(m->entries);
    pm_free(m->bins);
    memset(m, 0, sizeof(*m));
}

void pm_jhm_clear(pm_jhm *m)
{
    /* A fresh HashMap starts over at capacity 16: forget the table, keep the memory. */
    m->entry_count = 0;
    m->capacity = 0;
    m->size = 0;
}

static int32_t spread(int32_t h)
{
    return (int32_t)((uint32_t)h ^ ((uint32_t)h >> 16));
}

/* Doubles the table (or makes the first one), keeping the order within each bin. */
static int resize(pm_jhm *m)
{
    size_t cap = m->capacity == 0 ? INITIAL_CAPACITY : m->capacity * 2;
    int64_t *bins = pm_realloc(m->bins, cap * sizeof(int64_t));
    int64_t *tails;
    if (bins == NULL)
        return PAIMON_ENOMEM;
    m->bins = bins;
    tails = pm_malloc(cap * sizeof(int64_t));
    if (tails == NULL)
        return PAIMON_ENOMEM;
    for (size_t i = 0; i < cap; i++)
        tails[i] = -1;
    /* Relink every live entry, bin by bin in the old order, at the tail of its new bin:
     * Java's lo/hi split keeps each bin's relative order the same way. */
    {
        size_t old_cap = m->capacity;
        int64_t *heads = pm_malloc((old_cap + 1) * sizeof(int64_t));
        if (heads == NULL) {
            pm_free(tails);
            return PAIMON_ENOMEM;
        }
        memcpy(heads, m->bins, old_cap * sizeof(int64_t));
        for (size_t i = 0; i < cap; i++)
            m->bins[i] = -1;
        for (size_t b = 0; b < old_cap; b++) {
            int64_t e = heads[b];
            while (e >= 0) {
                pm_jhm_entry *en = &m->entries[e];
                int64_t next = en->next;
                size_t at = (size_t)(uint32_t)en->hash & (cap - 1);
                en->next = -1;
                if (tails[at] < 0)
                    m->bins[at] = e;
                else
                    m->entries[tails[at]].next = e;
                tails[at] = e;
                e = next;
            }
        }
        pm_free(heads);
    }
    pm_free(tails);
    m->capacity = cap;
    return 0;
}

pm_jhm_entry *pm_jhm_get(pm_jhm *m, int32_t hash, int64_t key)
{
    int32_t h = spread(hash);
    if (m->capacity == 0)
        return NULL;
    for (int64_t e = m->bins[(uint32_t)h & (m->capacity - 1)]; e >= 0; e = m->entries[e].next) {
        pm_jhm_entry *en = &m->entries[e];
        if (en->hash == h && m->equal(m->ctx, en->key, key))
            return en;
    }
    return NULL;
}

int pm_jhm_put(pm_jhm *m, int32_t hash, int64_t key, int64_t value)
{
    int32_t h = spread(hash);
    size_t at, length = 0;
    int64_t tail = -1;
    int rc;

    if (m->capacity == 0 && (rc = resize(m)) != 0)
        return rc;
    at = (uint32_t)h & (m->capacity - 1);
    for (int64_t e = m->bins[at]; e >= 0; e = m->entries[e].next) {
        pm_jhm_entry *en = &m->entries[e];
        if (en->hash == h && m->equal(m->ctx, en->key, key)) {
            en->value = value;
            return 0;
        }
        tail = e;
        length++;
    }
    if (m->entry_count == m->entry_cap) {
        size_t cap = m->entry_cap == 0 ? 16 : m->entry_cap * 2;
        pm_jhm_entry *grown = pm_realloc(m->entries, cap * sizeof(*grown));
        if (grown == NULL)
            return PAIMON_ENOMEM;
        m->entries = grown;
        m->entry_cap = cap;
    }
    m->entries[m->entry_count] = (pm_jhm_entry){h, key, value, -1, true};
    if (tail < 0)
        m->bins[at] = (int64_t)m->entry_count;
    else
        m->entries[tail].next = (int64_t)m->entry_count;
    m->entry_count++;
    length++;
    if (length >= TREEIFY_BIN_LENGTH && m->capacity < MIN_TREE_CAPACITY && (rc = resize(m)) != 0)
        return rc;
    if (++m->size > m->capacity / 4 * 3)
        return resize(m);
    return 0;
}

bool pm_jhm_remove(pm_jhm *m, int32_t hash, int64_t key)
{
    int32_t h = spread(hash);
    int64_t prev = -1;
    size_t at;
    if (m->capacity == 0)
        return false;
    at = (uint32_t)h & (m->capacity - 1);
    for (int64_t e = m->bins[at]; e >= 0; prev = e, e = m->entries[e].next) {
        pm_jhm_entry *en = &m->entries[e];
        if (en->hash != h || !m->equal(m->ctx, en->key, key))
            continue;
        if (prev < 0)
            m->bins[at] = en->next;
        else
            m->entries[prev].next = en->next;
        en->live = false;
        en->next = -1;
        m->size--;
        return true;
    }
    return false;
}

const pm_jhm_entry *pm_jhm_next(const pm_jhm *m, pm_jhm_iter *it)
{
    int64_t e = -1;
    if (it->entry >= 0)
        e = m->entries[it->entry].next; /* the rest of the current bin */
    else if (it->bin < m->capacity)
        e = m->bins[it->bin]; /* the first bin */
    while (e < 0) {
        if (++it->bin >= m->capacity) {
            it->bin = m->capacity;
            it->entry = -1;
            return NULL;
        }
        e = m->bins[it->bin];
    }
    it->entry = e;
    return &m->entries[e];
}
