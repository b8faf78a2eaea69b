/*
 * Planning a table read from the public API's terms (table/scan.h, pm_scan_plan_table): the
 * snapshot to read, a filter as text, and what an empty table reads as.
 *
 * The filter is written against the columns the rows come out in, so the snapshot is chosen
 * before the filter is parsed, and then pinned by id so that planning reads that same
 * snapshot even when a commit lands meanwhile.  The latest snapshot is read with the table's
 * latest schema (an `alter` shows at once, as in Java's batch read); an explicit snapshot,
 * tag or timestamp with the schema it was committed with (Java's time travel).  A table that has no snapshot yet reads as
 * empty, as Java's batch read of it does (and as `tail`, the system tables and `inspect`
 * do): the plan has no snapshot and no splits, and its schema is the table's latest.  Only
 * the latest snapshot is that lenient; a snapshot id, tag or timestamp that names nothing
 * stays an error.
 */
#include "table/scan.h"

#include "data/expr.h"
#include "util/alloc.h"
#include "util/error.h"

/* The plan of a table without snapshots: its latest schema and nothing to read. */
PM_MUST_CHECK static int empty_plan(paimon_table *t, pm_scan_plan **out, paimon_error *err)
{
    pm_scan_plan *p = pm_calloc(1, sizeof(*p));
    int rc;
    if (p == NULL)
        return pm_nomem(err);
    pm_arena_init(&p->arena, 1024);
    if ((rc = pm_schema_read_latest(t->fs, t->path, &p->schema, err)) != 0) {
        pm_scan_plan_free(p);
        return rc;
    }
    p->primary_key = p->schema->primary_keys.count > 0;
    *out = p;
    return 0;
}

int pm_scan_plan_table(paimon_table *t, const pm_scan_options *o, const char *filter_text,
                       pm_scan_plan **out, pm_predicate **filter, paimon_error *err)
{
    pm_scan_options so = *o;
    pm_scan_plan *plan = NULL;
    pm_snapshot *snap = NULL;
    pm_schema *schema = NULL;
    pm_predicate *pred = NULL;
    int rc = 0;

    *out = NULL;
    *filter = NULL;
    if (so.snapshot.by == PM_SNAPSHOT_LATEST) {
        int64_t latest = 0;
        bool found = false;
        PM_TRY(pm_snapshot_latest_id(t->fs, t->path, &latest, &found, err));
        if (!found) {
            PM_TRY(empty_plan(t, &plan, err));
            if (filter_text != NULL)
                PM_TRY(pm_expr_parse(filter_text, plan->schema->row, &pred, err));
            goto planned;
        }
        so.snapshot.by = PM_SNAPSHOT_ID;
        so.snapshot.id = latest;
        so.latest_schema = true;
        so.schema_id = -1;
    }
    if (filter_text != NULL) {
        PM_TRY(pm_table_select_snapshot(t, &so.snapshot, &snap, err));
        if (so.latest_schema) {
            PM_TRY(pm_schema_read_latest(t->fs, t->path, &schema, err));
            so.schema_id = schema->id;
        } else
            PM_TRY(pm_schema_read(t->fs, t->path, snap->schema_id, &schema, err));
        so.snapshot.by = PM_SNAPSHOT_ID;
        so.snapshot.id = snap->id;
        PM_TRY(pm_expr_parse(filter_text, schema->row, &pred, err));
        so.filter = pred;
    }
    PM_TRY(pm_scan_plan_build(t, &so, &plan, err));
planned:
    *out = plan;
    *filter = pred;
    plan = NULL;
    pred = NULL;
done:
    pm_scan_plan_free(plan);
    pm_predicate_free(pred);
    pm_schema_free(schema);
    pm_snapshot_free(snap);
    return rc;
}
