/* A streaming scan: see stream_scan.h. */
#include "table/stream_scan.h"

#include <string.h>

#include "meta/option_catalog.h"
#include "meta/options.h"
#include "meta/snapshot.h"
#include "table/changes.h"
#include "table/feature_check.h"
#include "table/scan_mode.h"
#include "util/alloc.h"
#include "util/error.h"

/* NextSnapshotFetcher.RANGE_CHECK_INTERVAL */
#define RANGE_CHECK_INTERVAL 16

struct pm_stream_scan {
    paimon_table *t;
    pm_schema *schema; /* the read's (owned) */
    pm_options options;
    pm_stream_origin origin;
    int64_t last;        /* > 0: end after this snapshot */
    bool started;        /* the start is resolved; next_id is valid */
    int64_t next_id;     /* the next snapshot of the follow-up */
    bool full_phase_end; /* the bounded watermark ended the stream at its start */
    bool decoupled;      /* changelogs outlive snapshots */
    bool bounded;        /* scan.bounded.watermark is set */
    int64_t bound;
    int64_t delay_ms; /* streaming.read.snapshot.delay, or -1 */
    int misses;       /* polls in a row that found no next snapshot */
};

void pm_stream_scan_free(pm_stream_scan *s)
{
    if (s == NULL)
        return;
    pm_schema_free(s->schema);
    pm_options_free(&s->options);
    pm_free(s);
}

int pm_stream_scan_open(pm_stream_scan **out, paimon_table *t, const pm_schema *schema,
                        const pm_options *options, const pm_stream_origin *origin, int64_t last,
                        paimon_error *err)
{
    pm_stream_scan *s = pm_calloc(1, sizeof(*s));
    pm_stream_mode mode;
    int64_t bound;
    int rc = 0;

    *out = NULL;
    if (s == NULL)
        return pm_nomem(err);
    s->t = t;
    s->origin = *origin;
    s->last = last;
    pm_options_init(&s->options);
    if (pm_options_copy(&s->options, options) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_schema_read(t->fs, t->path, schema->id, &s->schema, err));
    PM_TRY(pm_table_check_changes(t->path, s->schema, err));
    if (origin->kind == PM_STREAM_ORIGIN_SCAN_MODE) {
        /* Java validates the table's options with the read's on top (table.copy): a start
         * option the mode does not take, e.g. the table's own scan.snapshot-id under a
         * read's scan.mode=latest, is refused, not ignored */
        PM_TRY(pm_startup_mode_validate(t->path, &s->options, err));
        PM_TRY(pm_stream_mode_of(&s->options, &mode, err));
    }
    PM_TRY(pm_changes_decoupled(s->schema, &s->decoupled, err));
    PM_TRY(pm_options_get_i64_or(&s->options, "scan.bounded.watermark", INT64_MIN, &bound, err));
    s->bounded = bound != INT64_MIN;
    s->bound = bound;
    PM_TRY(pm_options_get_duration_or(&s->options, "streaming.read.snapshot.delay", -1,
                                      &s->delay_ms, err));
    *out = s;
    s = NULL;
done:
    pm_stream_scan_free(s);
    return rc;
}

int64_t pm_stream_scan_position(const pm_stream_scan *s)
{
    return s != NULL && s->started ? s->next_id : 0;
}

/* BoundedChecker.watermark: a snapshot whose watermark exceeds the bound ends the input. */
static bool ends_input(const pm_stream_scan *s, const pm_snapshot *snap)
{
    return s->bounded && snap->has_watermark && snap->watermark > s->bound;
}

/* Whether snapshot `id` exists and ends the input (false when it does not exist). */
PM_MUST_CHECK static int ends_at(pm_stream_scan *s, int64_t id, bool *ends, paimon_error *err)
{
    pm_snapshot *snap = NULL;
    int rc;
    *ends = false;
    if (!s->bounded || id < 1)
        return 0;
    rc = pm_snapshot_read(s->t->fs, s->t->path, id, &snap, err);
    if (rc == PAIMON_ENOTFOUND)
        return 0;
    if (rc != 0)
        return rc;
    *ends = ends_input(s, snap);
    pm_snapshot_free(snap);
    return 0;
}

/* Keeps the files of a full plan the first plan's filters let through; drops empty splits. */
static void filter_full(pm_scan_plan *p, const pm_stream_start *st)
{
    size_t kept_splits = 0;
    if (st->level_min <= 0 && st->level_only < 0 && !st->by_creation)
        return;
    for (size_t i = 0; i < p->split_count; i++) {
        pm_split *sp = &p->splits[i];
        size_t kept = 0;
        for (size_t f = 0; f < sp->file_count; f++) {
            const pm_data_file_meta *m = &sp->files[f]->file;
            if (m->level < st->level_min || (st->level_only >= 0 && m->level != st->level_only))
                continue;
            /* Java compares creationTimeEpochMillis(), which a file without one lacks: such
             * a file is never newer than the bound. */
            if (st->by_creation && (!m->has_creation_time || m->creation_time < st->creation_ms))
                continue;
            sp->files[kept] = sp->files[f];
            sp->paths[kept] = sp->paths[f];
            if (sp->dvs != NULL)
                sp->dvs[kept] = sp->dvs[f];
            kept++;
        }
        sp->file_count = kept;
        if (kept > 0)
            p->splits[kept_splits++] = *sp;
    }
    p->split_count = kept_splits;
}

/* The first plan of a FULL start. */
PM_MUST_CHECK static int plan_full(pm_stream_scan *s, const pm_stream_start *st, pm_scan_plan **out,
                                   paimon_error *err)
{
    pm_scan_options o;
    int rc;
    memset(&o, 0, sizeof(o));
    o.snapshot.by = PM_SNAPSHOT_ID;
    o.snapshot.id = st->id;
    o.latest_schema = true;
    o.schema_id = s->schema->id;
    /* Java's tryFirstPlan reads through the snapshot reader, not the batch scan: level 0
     * stays in (first-row and deletion-vector tables' batch reads skip it); the producer's
     * own level filter (lookup: above 0, full-compaction: the top) is filter_full's */
    o.keep_level0 = true;
    if ((rc = pm_scan_plan_build(s->t, &o, out, err)) != 0)
        return rc;
    filter_full(*out, st);
    return 0;
}

/* NextSnapshotFetcher.rangeCheck, for a next snapshot that is missing. */
PM_MUST_CHECK static int range_check(pm_stream_scan *s, paimon_error *err)
{
    int64_t earliest = 0, latest = 0;
    bool has_latest = false, has_earliest = false;
    int rc = pm_snapshot_latest_id(s->t->fs, s->t->path, &latest, &has_latest, err);
    if (rc == 0 && has_latest)
        rc = pm_snapshot_earliest_id(s->t->fs, s->t->path, &earliest, &has_earliest, err);
    if (rc != 0)
        return rc;
    if (!has_earliest || earliest <= s->next_id) {
        if ((!has_earliest && s->next_id > 1) || (has_latest && s->next_id > latest + 1)) {
            char latest_text[24] = "null";
            if (has_latest)
                snprintf(latest_text, sizeof(latest_text), "%lld", (long long)latest);
            return pm_err_set(err, PAIMON_ENOTFOUND,
                              "%s: The next expected snapshot is too big! Most possible cause "
                              "might be the table had been recreated.The next snapshot id is "
                              "%lld, while the latest snapshot id is %s",
                              s->t->path, (long long)s->next_id, latest_text);
        }
        return 0;
    }
    if (!s->decoupled)
        return pm_err_set(err, PAIMON_ENOTFOUND,
                          "%s: The snapshot with id %lld has expired. You can: 1. increase the "
                          "snapshot or changelog expiration time. 2. use consumer-id to ensure "
                          "that unconsumed snapshots will not be expired.",
                          s->t->path, (long long)s->next_id);
    return 0;
}

/* Resolves the start; a FULL start's plan goes to `out`. */
PM_MUST_CHECK static int start(pm_stream_scan *s, pm_stream_poll *out, paimon_error *err)
{
    pm_stream_start st;
    int rc = pm_stream_start_resolve(s->t, s->schema, &s->options, &s->origin, &st, err);
    if (rc != 0 || st.kind == PM_STREAM_START_WAIT)
        return rc;
    if (st.kind == PM_STREAM_START_NEXT) {
        s->next_id = st.id;
        s->started = true;
        return ends_at(s, st.id - 1, &s->full_phase_end, err);
    }
    if ((rc = plan_full(s, &st, &out->plan, err)) != 0)
        return rc;
    s->next_id = st.id + 1;
    s->started = true;
    if ((rc = ends_at(s, st.id, &s->full_phase_end, err)) != 0)
        return rc;
    out->full = true;
    out->snapshot_id = st.id;
    if (out->plan->split_count > 0) {
        out->step = PM_STREAM_STEP_PLAN;
    } else {
        pm_scan_plan_free(out->plan);
        out->plan = NULL;
    }
    return 0;
}

int pm_stream_scan_poll(pm_stream_scan *s, int64_t now_ms, pm_stream_poll *out, paimon_error *err)
{
    int rc;
    memset(out, 0, sizeof(*out));
    out->step = PM_STREAM_STEP_NONE;
    if (!s->started) {
        if ((rc = start(s, out, err)) != 0 || out->step == PM_STREAM_STEP_PLAN || !s->started)
            return rc;
    }
    for (;;) {
        pm_snapshot *snap = NULL;
        pm_scan_plan *plan = NULL;
        bool read = false, delay;
        if (s->full_phase_end || (s->last > 0 && s->next_id > s->last)) {
            out->step = PM_STREAM_STEP_END;
            return 0;
        }
        rc = pm_changes_read_point(s->t, s->decoupled, s->next_id, &snap, err);
        if (rc == PAIMON_ENOTFOUND) {
            paimon_error_clear(err);
            if (++s->misses % RANGE_CHECK_INTERVAL == 0)
                return range_check(s, err);
            return 0;
        }
        if (rc != 0)
            return rc;
        s->misses = 0;
        if (ends_input(s, snap)) {
            pm_snapshot_free(snap);
            out->step = PM_STREAM_STEP_END;
            return 0;
        }
        delay = s->delay_ms >= 0 && snap->time_millis > now_ms - s->delay_ms;
        pm_snapshot_free(snap);
        if (delay)
            return 0;
        if ((rc = pm_changes_plan(s->t, s->schema, s->next_id, &plan, &read, err)) != 0)
            return rc;
        if (!read || plan->split_count == 0) {
            pm_scan_plan_free(plan);
            s->next_id++;
            continue;
        }
        out->step = PM_STREAM_STEP_PLAN;
        out->plan = plan;
        out->snapshot_id = s->next_id++;
        return 0;
    }
}
