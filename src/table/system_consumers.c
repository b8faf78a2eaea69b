/*
 * `TABLE$consumers` (behaviour.md §7.6): Java 1.4.2's ConsumersTable, one row per consumer
 * file, `consumer_id STRING NOT NULL, next_snapshot_id BIGINT NOT NULL`, read from the
 * `consumer/` directory when the table is opened (table/consumers.h), in the iteration order
 * of the java.util.HashMap Java's ConsumerManager.consumers() returns.
 */
#include "data/java_values.h"
#include "table/consumers.h"
#include "table/system_table_int.h"
#include "util/alloc.h"

typedef struct consumers_state {
    pm_consumer_entry *entries;
    size_t count;
    size_t *order; /* HashMap iteration order */
} consumers_state;

PM_MUST_CHECK static int consumers_append(const pm_sys_table *st, size_t row,
                                          pm_column *const *cols, pm_buf *scratch,
                                          paimon_error *err)
{
    const consumers_state *s = st->state;
    const pm_consumer_entry *e = &s->entries[s->order[row]];
    (void)scratch;
    return pm_sys_done(pm_sys_put_str(cols[0], e->id) | pm_sys_put_i64(cols[1], e->next_snapshot),
                       err);
}

static void consumers_free(void *state)
{
    consumers_state *s = state;
    if (s == NULL)
        return;
    pm_consumer_entries_free(s->entries, s->count);
    pm_free(s->order);
    pm_free(s);
}

static const pm_sys_ops CONSUMERS_OPS = {consumers_append, consumers_free};

int pm_sys_open_consumers(pm_sys_table *st, paimon_table *t, paimon_error *err)
{
    consumers_state *s = pm_calloc(1, sizeof(*s));
    int rc;
    if (s == NULL)
        return pm_nomem(err);
    st->ops = &CONSUMERS_OPS;
    st->state = s;
    if ((rc = pm_sys_set_columns(
             st, "consumer_id STRING NOT NULL, next_snapshot_id BIGINT NOT NULL", err)) != 0)
        return rc;
    if ((rc = pm_consumers_list(t->fs, t->path, &s->entries, &s->count, err)) != 0)
        return rc;
    if ((s->order = pm_calloc(s->count + 1, sizeof(size_t))) == NULL)
        return pm_nomem(err);
    {
        const char **ids = pm_calloc(s->count + 1, sizeof(char *));
        if (ids == NULL)
            return pm_nomem(err);
        for (size_t i = 0; i < s->count; i++)
            ids[i] = s->entries[i].id;
        rc = pm_java_hashmap_order(ids, s->count, s->order) != 0 ? pm_nomem(err) : 0;
        pm_free(ids);
        if (rc != 0)
            return rc;
    }
    st->row_count = s->count;
    return 0;
}
