/*
 * `$tags` (Java 1.4.2's TagsTable): one row per tag, by snapshot id then name (Java sorts
 * by snapshot too) -- tag_name STRING NOT NULL, snapshot_id BIGINT NOT NULL, schema_id
 * BIGINT NOT NULL, commit_time TIMESTAMP(3) NOT NULL (the snapshot's commit time as a local
 * date-time, as $snapshots shows it), record_count BIGINT (the snapshot's total), create_time
 * TIMESTAMP(3) (tagCreateTime), time_retained STRING (Java's Duration.toString(), "PT24H").
 * The rows come from the public tag list (tag_list.c).
 */
#include "table/system_table_int.h"

#include "table/tag_list.h"
#include "util/error.h"
#include "util/time.h"

static void tags_free(void *state)
{
    paimon_list_free(state);
}

PM_MUST_CHECK static int tags_append(const pm_sys_table *st, size_t row, pm_column *const *c,
                                     pm_buf *tmp, paimon_error *err)
{
    const paimon_tag_info *x = paimon_list_tag(st->state, row);
    int rc = 0;
    (void)tmp;
    rc |= pm_sys_put_str(c[0], x->name);
    rc |= pm_sys_put_i64(c[1], x->snapshot_id);
    rc |= pm_sys_put_i64(c[2], x->schema_id);
    rc |= pm_sys_put_ts(c[3], pm_epoch_to_local_millis(x->commit_time));
    rc |= pm_sys_put_opt(c[4], x->record_count != PAIMON_ABSENT_COUNT, x->record_count);
    rc |= x->has_create_time ? pm_sys_put_ts(c[5], x->create_time) : pm_sys_put_null(c[5]);
    rc |= pm_sys_put_str(c[6], x->time_retained);
    return pm_sys_done(rc, err);
}

static const pm_sys_ops TAGS_OPS = {tags_append, tags_free};

int pm_sys_open_tags(pm_sys_table *st, paimon_table *t, paimon_error *err)
{
    paimon_list *l = NULL;
    int rc = 0;
    st->ops = &TAGS_OPS;
    PM_TRY(pm_sys_set_columns(st,
                              "tag_name STRING NOT NULL, snapshot_id BIGINT NOT NULL, "
                              "schema_id BIGINT NOT NULL, commit_time TIMESTAMP(3) NOT NULL, "
                              "record_count BIGINT, create_time TIMESTAMP(3), time_retained STRING",
                              err));
    PM_TRY(pm_inspect_tags(t, &l, err));
    st->state = l;
    st->row_count = paimon_list_count(l);
done:
    return rc;
}
