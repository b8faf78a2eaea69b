/*
 * A set of int32 that iterates exactly as fastutil's IntOpenHashSet (the set behind Java
 * Paimon's IntHashSet), so that the HASH index files this library writes hold their key
 * hashes in the order Java would write them (index/DynamicBucketIndexMaintainer).
 *
 * fastutil's layout: a power-of-two table of n slots plus one extra slot for the key 0;
 * position = mix(k) & (n - 1) with mix(x) = h ^ (h >>> 16), h = x * 0x9E3779B9; linear
 * probing upwards; n = max(2, nextPowerOfTwo(ceil(expected / 0.75))); after an insertion
 * that finds size >= maxFill (= min(ceil(n * 0.75), n - 1)) the table is rebuilt with
 * n = arraySize(size + 1) by moving the keys from the highest slot down.  Iteration returns
 * 0 first when present, then the slots from n - 1 down to 0.  (Removal is not needed.)
 *
 * Thread safety: one thread per set.
 */
#ifndef PM_UTIL_INT_SET_H
#define PM_UTIL_INT_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pm_int_set {
    int32_t *key; /* n + 1 slots; 0 = empty (the key 0 lives in `has_zero`) */
    size_t n;     /* power of two */
    size_t size;  /* keys, 0 included */
    size_t max_fill;
    bool has_zero;
} pm_int_set;

/* An empty set sized for `expected` keys (fastutil's constructor; 16 is its default).
 * 0 or PAIMON_ENOMEM. */
int pm_int_set_init(pm_int_set *s, size_t expected);
void pm_int_set_free(pm_int_set *s);

/* Adds k; *added (may be NULL) tells whether it was new.  0 or PAIMON_ENOMEM. */
int pm_int_set_add(pm_int_set *s, int32_t k, bool *added);
bool pm_int_set_contains(const pm_int_set *s, int32_t k);

/* The keys in fastutil's iteration order into out[size]. */
void pm_int_set_keys(const pm_int_set *s, int32_t *out);

#endif /* PM_UTIL_INT_SET_H */
