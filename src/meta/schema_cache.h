/*
 * The schemas of a table by id, each read on first use and kept until the cache is
 * released.  A scan, a split read or a compaction meets data files written under older
 * schemas (DESIGN.md invariant 4: columns are matched by field id across schemas); each file
 * names its schema id, and many files share one, so each schema file is read once.
 *
 * Ids are bounded (0 to PM_SCHEMA_CACHE_MAX_ID): a schema id comes from a data file's
 * metadata, which is untrusted, and the cache is indexed by id.
 *
 * Thread safety: one thread at a time per cache.  The schemas it hands out are immutable
 * (meta/schema.h) and stay valid until pm_schema_cache_release.
 */
#ifndef PM_META_SCHEMA_CACHE_H
#define PM_META_SCHEMA_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "meta/schema.h"
#include "util/error.h"

#define PM_SCHEMA_CACHE_MAX_ID 1000000

typedef struct pm_schema_cache {
    pm_fs *fs;         /* borrowed */
    const char *table; /* borrowed: the table root */
    pm_schema **by_id; /* index = schema id; NULL until read */
    size_t cap;        /* entries in by_id */
} pm_schema_cache;

/* An empty cache over the table at `table` on `fs` (both borrowed; they must outlive it). */
void pm_schema_cache_init(pm_schema_cache *c, pm_fs *fs, const char *table);

/* Frees every schema read; the cache is empty (and may be initialised again) afterwards.
 * Accepts a zeroed cache. */
void pm_schema_cache_release(pm_schema_cache *c);

/* Reads schema `id` into the cache (the slow half of pm_schema_cache_get). */
PM_MUST_CHECK int pm_schema_cache_load(pm_schema_cache *c, int64_t id, const pm_schema **out,
                                       paimon_error *err);

/* Schema `id`, read on first use.  Borrowed; valid until pm_schema_cache_release.
 * PAIMON_ECORRUPT names the table for an id out of range; pm_schema_read's errors pass
 * through.  A hit is inline: planning asks once per manifest entry. */
static inline int pm_schema_cache_get(pm_schema_cache *c, int64_t id, const pm_schema **out,
                                      paimon_error *err)
{
    if (id >= 0 && (uint64_t)id < c->cap && c->by_id[id] != NULL) {
        *out = c->by_id[id];
        return 0;
    }
    return pm_schema_cache_load(c, id, out, err);
}

/* pm_schema_cache_get with the cache as `ctx`: the shape of the `schema_of` callbacks that
 * lower layers take (lsm/lookup_levels.h). */
PM_MUST_CHECK int pm_schema_cache_cb(void *ctx, int64_t id, const pm_schema **out,
                                     paimon_error *err);

#endif
