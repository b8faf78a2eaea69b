/*
 * A hash map from byte strings to int64 values, keeping insertion order (ids 0, 1, ...):
 * the writers' index of partitions (serialized BinaryRows) and of open writers.  Keys are
 * copied into the map.  Open addressing with linear probing; the table doubles at 70%.
 *
 * Thread safety: one thread per map.
 */
#ifndef PM_UTIL_BYTES_MAP_H
#define PM_UTIL_BYTES_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

typedef struct pm_bytes_map {
    pm_arena keys;           /* key bytes */
    const uint8_t **key_ptr; /* per id */
    size_t *key_len;         /* per id */
    int64_t *values;         /* per id */
    uint64_t *hashes;        /* per id */
    size_t count, cap;       /* ids */
    int64_t *slots;          /* id + 1, 0 empty */
    size_t slot_cap;
} pm_bytes_map;

void pm_bytes_map_init(pm_bytes_map *m);
void pm_bytes_map_free(pm_bytes_map *m);

/* The id of `key`, or -1. */
int64_t pm_bytes_map_find(const pm_bytes_map *m, const void *key, size_t len);

/* `*id` receives the id of `key`, inserting it with `value` when absent (*inserted tells).
 * 0, or PAIMON_ENOMEM (the map is unchanged). */
int pm_bytes_map_put(pm_bytes_map *m, const void *key, size_t len, int64_t value, int64_t *id,
                     bool *inserted);

static inline const uint8_t *pm_bytes_map_key(const pm_bytes_map *m, int64_t id, size_t *len)
{
    *len = m->key_len[id];
    return m->key_ptr[id];
}

#endif /* PM_UTIL_BYTES_MAP_H */
