/*
 * The iteration order of java.util.HashMap and HashSet (JDK 8 and later), simulated.
 *
 * Some of Java Paimon's merge functions (collect with distinct, merge_map, nested_update
 * with a nested key) build their result in a HashMap and emit it in the map's iteration
 * order, which then becomes the stored order of the array or map written to the file.  To
 * produce the same values in the same order, paimon-c replays the map's behaviour: the same
 * spread hash ((h ^ h >>> 16) & (capacity - 1)), bins appended at the tail, capacity 16 on
 * the first put, doubling when the size passes 0.75 of it or when a bin reaches 8 entries
 * while the capacity is below 64, and resize splits that keep the order within each bin.
 *
 * What it does not replay: a bin of 8 or more entries at capacity 64 or more becomes a
 * red-black tree in Java, whose iteration order differs from the list's (the root moves to
 * the front).  Such bins need many colliding hashes and do not occur with ordinary keys.
 *
 * Keys and values are the caller's ids (int64); the caller supplies each key's Java
 * hashCode() and an equality over key ids.  Thread safety: one thread per map.
 */
#ifndef PM_UTIL_JAVA_HASHMAP_H
#define PM_UTIL_JAVA_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef bool (*pm_jhm_equal_fn)(void *ctx, int64_t key_a, int64_t key_b);

typedef struct pm_jhm_entry {
    int32_t hash;  /* the key's hashCode(), spread */
    int64_t key;   /* caller's key id */
    int64_t value; /* caller's value id */
    int64_t next;  /* next entry of the bin, or -1 */
    bool live;     /* false once removed */
} pm_jhm_entry;

typedef struct pm_jhm {
    pm_jhm_entry *entries; /* in insertion order; removed ones stay, not live */
    size_t entry_count;
    size_t entry_cap;
    int64_t *bins; /* heads, `capacity` of them; -1 for empty */
    size_t capacity;
    size_t size; /* live entries */
    pm_jhm_equal_fn equal;
    void *ctx;
} pm_jhm;

void pm_jhm_init(pm_jhm *m, pm_jhm_equal_fn equal, void *ctx);
void pm_jhm_free(pm_jhm *m);
/* Empties the map, keeping its memory (as a new HashMap<>()). */
void pm_jhm_clear(pm_jhm *m);

/* put(key, value): an equal key keeps its entry (and its key id) and takes the new value.
 * `hash` is the key's Java hashCode() (0 for null).  0 or PAIMON_ENOMEM. */
int pm_jhm_put(pm_jhm *m, int32_t hash, int64_t key, int64_t value);

/* get: the entry of an equal key, or NULL. */
pm_jhm_entry *pm_jhm_get(pm_jhm *m, int32_t hash, int64_t key);

/* remove(key): whether an entry was removed. */
bool pm_jhm_remove(pm_jhm *m, int32_t hash, int64_t key);

/* Iteration in Java's order: start with PM_JHM_ITER_INIT; NULL after the last entry.  The
 * map must not change during an iteration. */
typedef struct pm_jhm_iter {
    size_t bin;    /* the bin being walked */
    int64_t entry; /* the entry returned last, or -1 */
} pm_jhm_iter;
#define PM_JHM_ITER_INIT                                                                           \
    {                                                                                              \
        0, -1                                                                                      \
    }
const pm_jhm_entry *pm_jhm_next(const pm_jhm *m, pm_jhm_iter *it);

#endif /* PM_UTIL_JAVA_HASHMAP_H */
