/* Schemas by id, read on first use: see schema_cache.h. */
#include "meta/schema_cache.h"

#include <string.h>

#include "util/alloc.h"
#include "util/error.h"

void pm_schema_cache_init(pm_schema_cache *c, pm_fs *fs, const char *table)
{
    memset(c, 0, sizeof(*c));
    c->fs = fs;
    c->table = table;
}

void pm_schema_cache_release(pm_schema_cache *c)
{
    for (size_t i = 0; i < c->cap; i++)
        pm_schema_free(c->by_id[i]);
    pm_free(c->by_id);
    c->by_id = NULL;
    c->cap = 0;
}

int pm_schema_cache_load(pm_schema_cache *c, int64_t id, const pm_schema **out, paimon_error *err)
{
    if (id < 0 || id > PM_SCHEMA_CACHE_MAX_ID)
        return pm_corrupt(err, "%s: data file with schema id %lld", c->table, (long long)id);
    if ((size_t)id >= c->cap) {
        size_t cap = (size_t)id + 8;
        pm_schema **grown = pm_realloc(c->by_id, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        memset(grown + c->cap, 0, (cap - c->cap) * sizeof(*grown));
        c->by_id = grown;
        c->cap = cap;
    }
    if (c->by_id[id] == NULL) {
        int rc = pm_schema_read(c->fs, c->table, id, &c->by_id[id], err);
        if (rc != 0)
            return rc;
    }
    *out = c->by_id[id];
    return 0;
}

int pm_schema_cache_cb(void *ctx, int64_t id, const pm_schema **out, paimon_error *err)
{
    return pm_schema_cache_get(ctx, id, out, err);
}
