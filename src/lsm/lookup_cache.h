/*
 * The in-memory page cache of local lookup files (lsm/lookup_file.h): Java's CacheManager
 * under `lookup.cache-max-memory-size`, which keeps pages of the local sort files.
 *
 * A local file is read in pages of `page_size` bytes (Java's `cache-page-size`, 64 kb); the
 * pages of every open lookup file share one LRU bounded by `max_bytes`.  A read that needs
 * a page not held loads it with pread(2) and evicts the least recently used pages until the
 * total fits again (one page is always kept, so a bound below a page still works).
 *
 * Invariants: `used` is the sum of the held pages' lengths; every page is both in the hash
 * chain of its (file, page number) and in the LRU list, most recent first.
 *
 * Thread safety: none; one thread at a time (the compaction thread of a bucket).
 */
#ifndef PM_LSM_LOOKUP_CACHE_H
#define PM_LSM_LOOKUP_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"
#include "util/error.h"

typedef struct pm_lookup_cache pm_lookup_cache;

/* Caller owns `*out`; release with pm_lookup_cache_free(). */
PM_MUST_CHECK int pm_lookup_cache_new(pm_lookup_cache **out, int64_t page_size, int64_t max_bytes,
                                      paimon_error *err);
void pm_lookup_cache_free(pm_lookup_cache *c);

/* Copies bytes [off, off + len) of the file open as `fd` (known to the cache as `file_id`,
 * `file_len` bytes long, named `what` in errors) into `dst`.  A range beyond the end is
 * PAIMON_ECORRUPT; a failed read PAIMON_EIO. */
PM_MUST_CHECK int pm_lookup_cache_read(pm_lookup_cache *c, int fd, uint64_t file_id,
                                       int64_t file_len, const char *what, int64_t off, size_t len,
                                       uint8_t *dst, paimon_error *err);

/* Drops every page of `file_id` (the file is being closed or deleted). */
void pm_lookup_cache_drop_file(pm_lookup_cache *c, uint64_t file_id);

/* Bytes held, and pages loaded / evicted since creation (for tests and benchmarks). */
int64_t pm_lookup_cache_used(const pm_lookup_cache *c);
int64_t pm_lookup_cache_loads(const pm_lookup_cache *c);
int64_t pm_lookup_cache_evictions(const pm_lookup_cache *c);

#endif /* PM_LSM_LOOKUP_CACHE_H */
