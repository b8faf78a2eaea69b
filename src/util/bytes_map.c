/* Byte-string keyed hash map: see bytes_map.h. */
#include "util/bytes_map.h"

#include <string.h>

#include "paimon/error.h"
#include "util/alloc.h"

static uint64_t hash_bytes(const uint8_t *p, size_t len)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

void pm_bytes_map_init(pm_bytes_map *m)
{
    memset(m, 0, sizeof(*m));
    pm_arena_init(&m->keys, 4096);
}

void pm_bytes_map_free(pm_bytes_map *m)
{
    pm_arena_free(&m->keys);
    pm_free(m->key_ptr);
    pm_free(m->key_len);
    pm_free(m->values);
    pm_free(m->hashes);
    pm_free(m->slots);
    memset(m, 0, sizeof(*m));
}

int64_t pm_bytes_map_find(const pm_bytes_map *m, const void *key, size_t len)
{
    uint64_t h;
    if (m->slot_cap == 0)
        return -1;
    h = hash_bytes(key, len);
    for (size_t s = h & (m->slot_cap - 1);; s = (s + 1) & (m->slot_cap - 1)) {
        int64_t id = m->slots[s] - 1;
        if (id < 0)
            return -1;
        if (m->hashes[id] == h && m->key_len[id] == len &&
            (len == 0 || memcmp(m->key_ptr[id], key, len) == 0))
            return id;
    }
}

static int rehash(pm_bytes_map *m, size_t cap)
{
    int64_t *slots = pm_calloc(cap, sizeof(int64_t));
    if (slots == NULL)
        return -1;
    for (size_t id = 0; id < m->count; id++) {
        size_t s = m->hashes[id] & (cap - 1);
        while (slots[s] != 0)
            s = (s + 1) & (cap - 1);
        slots[s] = (int64_t)id + 1;
    }
    pm_free(m->slots);
    m->slots = slots;
    m->slot_cap = cap;
    return 0;
}

int pm_bytes_map_put(pm_bytes_map *m, const void *key, size_t len, int64_t value, int64_t *out_id,
                     bool *inserted)
{
    int64_t id = pm_bytes_map_find(m, key, len);
    uint64_t h;
    size_t s;
    *inserted = false;
    *out_id = id;
    if (id >= 0)
        return 0;
    if ((m->count + 1) * 10 >= m->slot_cap * 7 &&
        rehash(m, m->slot_cap == 0 ? 16 : m->slot_cap * 2))
        return PAIMON_ENOMEM;
    if (m->count == m->cap) {
        size_t cap = m->cap == 0 ? 16 : m->cap * 2;
        const uint8_t **kp = pm_realloc(m->key_ptr, cap * sizeof(*kp));
        if (kp == NULL)
            return PAIMON_ENOMEM;
        m->key_ptr = kp;
        size_t *kl = pm_realloc(m->key_len, cap * sizeof(*kl));
        if (kl == NULL)
            return PAIMON_ENOMEM;
        m->key_len = kl;
        int64_t *v = pm_realloc(m->values, cap * sizeof(*v));
        if (v == NULL)
            return PAIMON_ENOMEM;
        m->values = v;
        uint64_t *hs = pm_realloc(m->hashes, cap * sizeof(*hs));
        if (hs == NULL)
            return PAIMON_ENOMEM;
        m->hashes = hs;
        m->cap = cap;
    }
    id = (int64_t)m->count;
    if ((m->key_ptr[id] = pm_arena_dup(&m->keys, key, len)) == NULL)
        return PAIMON_ENOMEM;
    h = hash_bytes(key, len);
    m->key_len[id] = len;
    m->values[id] = value;
    m->hashes[id] = h;
    m->count++;
    for (s = h & (m->slot_cap - 1); m->slots[s] != 0; s = (s + 1) & (m->slot_cap - 1))
        ;
    m->slots[s] = id + 1;
    *inserted = true;
    *out_id = id;
    return 0;
}
