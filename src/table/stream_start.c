/* The start of a streaming read: see stream_start.h. */
#include "table/stream_start.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "meta/option_catalog.h"
#include "meta/options.h"
#include "meta/snapshot.h"
#include "table/scan_mode.h"
#include "util/error.h"

#define NO_VALUE INT64_MIN

/* An optional LONG option: NO_VALUE when absent. */
PM_MUST_CHECK static int opt_long(const pm_options *o, const char *key, int64_t *out,
                                  paimon_error *err)
{
    return pm_options_get_i64_or(o, key, NO_VALUE, out, err);
}

static bool has(const pm_options *o, const char *key)
{
    return pm_options_get(o, key) != NULL;
}

int pm_stream_mode_of(const pm_options *o, pm_stream_mode *out, paimon_error *err)
{
    const char *mode = pm_options_get_str(o, "scan.mode");
    int64_t v;
    int rc;

    if (mode == NULL || strcasecmp(mode, "default") == 0) {
        /* CoreOptions.startupMode */
        if (has(o, "scan.timestamp-millis") || has(o, "log.scan.timestamp-millis") ||
            has(o, "scan.timestamp"))
            mode = "from-timestamp";
        else if (has(o, "scan.snapshot-id") || has(o, "scan.tag-name") ||
                 has(o, "scan.watermark") || has(o, "scan.version"))
            mode = "from-snapshot";
        else if (has(o, "scan.file-creation-time-millis"))
            mode = "from-file-creation-time";
        else if (has(o, "scan.creation-time-millis"))
            mode = "from-creation-timestamp";
        else if (has(o, "incremental-between") || has(o, "incremental-between-timestamp"))
            mode = "incremental";
        else
            mode = "latest-full";
    }
    if (strcasecmp(mode, "latest-full") == 0 || strcasecmp(mode, "full") == 0) {
        *out = PM_STREAM_LATEST_FULL;
    } else if (strcasecmp(mode, "latest") == 0) {
        *out = PM_STREAM_LATEST;
    } else if (strcasecmp(mode, "compacted-full") == 0) {
        *out = PM_STREAM_COMPACTED_FULL;
    } else if (strcasecmp(mode, "from-timestamp") == 0) {
        bool set;
        *out = PM_STREAM_FROM_TIMESTAMP;
        if ((rc = pm_scan_timestamp_millis(o, &v, &set, err)) != 0)
            return rc;
        if (!set)
            return pm_err_set(err, PAIMON_EINVALID,
                              "scan.mode from-timestamp needs scan.timestamp-millis or "
                              "scan.timestamp");
    } else if (strcasecmp(mode, "from-snapshot") == 0) {
        *out = PM_STREAM_FROM_SNAPSHOT;
        if ((rc = opt_long(o, "scan.snapshot-id", &v, err)) != 0)
            return rc;
        if (v == NO_VALUE) {
            /* AbstractDataTableScan's checks, in its order */
            if (has(o, "scan.watermark"))
                return pm_err_set(err, PAIMON_EINVALID,
                                  "Cannot scan from watermark in streaming mode.");
            if (has(o, "scan.tag-name"))
                return pm_err_set(err, PAIMON_EINVALID, "Cannot scan from tag in streaming mode.");
            return pm_err_set(err, PAIMON_EINVALID,
                              "scan.mode from-snapshot needs scan.snapshot-id in a streaming read");
        }
    } else if (strcasecmp(mode, "from-snapshot-full") == 0) {
        *out = PM_STREAM_FROM_SNAPSHOT_FULL;
        if ((rc = opt_long(o, "scan.snapshot-id", &v, err)) != 0)
            return rc;
        if (v == NO_VALUE)
            return pm_err_set(err, PAIMON_EINVALID,
                              "scan.snapshot-id must be set when startupMode is "
                              "FROM_SNAPSHOT_FULL.");
    } else if (strcasecmp(mode, "from-file-creation-time") == 0) {
        *out = PM_STREAM_FROM_FILE_CREATION_TIME;
        if ((rc = opt_long(o, "scan.file-creation-time-millis", &v, err)) != 0)
            return rc;
        if (v == NO_VALUE)
            return pm_err_set(err, PAIMON_EINVALID,
                              "scan.mode from-file-creation-time needs "
                              "scan.file-creation-time-millis");
    } else if (strcasecmp(mode, "from-creation-timestamp") == 0) {
        *out = PM_STREAM_FROM_CREATION_TIMESTAMP;
        if ((rc = opt_long(o, "scan.creation-time-millis", &v, err)) != 0)
            return rc;
        if (v == NO_VALUE)
            return pm_err_set(err, PAIMON_EINVALID,
                              "scan.mode from-creation-timestamp needs scan.creation-time-millis");
    } else if (strcasecmp(mode, "incremental") == 0) {
        return pm_err_set(err, PAIMON_EINVALID, "Cannot read incremental in streaming mode.");
    } else {
        return pm_err_set(err, PAIMON_EINVALID, "scan.mode: unknown mode '%s'", mode);
    }
    return 0;
}

/* The level filter of the first plan (DataTableStreamScan.tryFirstPlan). */
PM_MUST_CHECK static int level_filter(const pm_schema *schema, pm_stream_start *s,
                                      paimon_error *err)
{
    const char *producer = pm_schema_option(schema, "changelog-producer");
    int64_t trigger, levels;
    int rc;
    s->level_min = 0;
    s->level_only = -1;
    if (producer == NULL || schema->primary_keys.count == 0)
        return 0;
    if (strcasecmp(producer, "lookup") == 0) {
        s->level_min = 1;
    } else if (strcasecmp(producer, "full-compaction") == 0) {
        if ((rc = pm_options_get_i64(&schema->options, "num-sorted-run.compaction-trigger",
                                     &trigger, err)) != 0 ||
            (rc = pm_options_get_i64_or(&schema->options, "num-levels", trigger + 1, &levels,
                                        err)) != 0)
            return rc;
        if (levels < 1 || levels > INT32_MAX)
            return pm_err_set(err, PAIMON_EINVALID, "num-levels %lld is out of range",
                              (long long)levels);
        s->level_only = (int32_t)(levels - 1);
    }
    return 0;
}

/* Snapshot manager's pickOrLatest for compacted-full: the latest COMPACT snapshot (whose
 * identifier is a multiple of `delta` or Long.MAX when delta > 0), else the latest. */
PM_MUST_CHECK static int pick_compacted(paimon_table *t, int64_t earliest, int64_t latest,
                                        int64_t delta, int64_t *out, paimon_error *err)
{
    *out = latest;
    for (int64_t id = latest; id >= earliest; id--) {
        pm_snapshot *s = NULL;
        bool picked;
        int rc = pm_snapshot_read(t->fs, t->path, id, &s, err);
        if (rc == PAIMON_ENOTFOUND)
            continue; /* expired meanwhile */
        if (rc != 0)
            return rc;
        picked =
            s->commit_kind == PM_COMMIT_COMPACT &&
            (delta <= 0 || s->commit_identifier % delta == 0 || s->commit_identifier == INT64_MAX);
        pm_snapshot_free(s);
        if (picked) {
            *out = id;
            break;
        }
    }
    return 0;
}

/* NEXT at max(id, the earliest point a change read can start at). */
PM_MUST_CHECK static int next_from(paimon_table *t, int64_t id, pm_stream_start *out,
                                   paimon_error *err)
{
    pm_changes_range r = {PM_CHANGES_FROM_EARLIEST, 0, 0};
    int64_t first, last;
    int rc = pm_changes_resolve(t, &r, &first, &last, err);
    if (rc != 0)
        return rc;
    if (first > last) {
        out->kind = PM_STREAM_START_WAIT; /* ContinuousFromSnapshotStartingScanner: NoSnapshot */
        return 0;
    }
    out->kind = PM_STREAM_START_NEXT;
    out->id = id > first ? id : first;
    return 0;
}

/* from-creation-timestamp: the first snapshot committed at or after `ms` when one exists
 * (createCreationTimestampStartingScanner), else the file-creation-time start. */
PM_MUST_CHECK static int from_creation(paimon_table *t, const pm_schema *schema, int64_t ms,
                                       int64_t latest, pm_stream_start *out, paimon_error *err)
{
    pm_changes_range r = {PM_CHANGES_FROM_EARLIEST, 0, 0};
    pm_snapshot *s = NULL;
    int64_t first, last;
    bool decoupled = false, too_early;
    int rc = pm_changes_resolve(t, &r, &first, &last, err);
    if (rc == 0)
        rc = pm_changes_decoupled(schema, &decoupled, err);
    if (rc == 0)
        rc = pm_changes_read_point(t, decoupled, first, &s, err);
    if (rc != 0)
        return rc;
    too_early = s->time_millis >= ms; /* earlierThanTimeMills returns null */
    pm_snapshot_free(s);
    if (!too_early) {
        r.from = PM_CHANGES_FROM_TIMESTAMP;
        r.from_value = ms;
        if ((rc = pm_changes_resolve(t, &r, &first, &last, err)) != 0)
            return rc;
        if (first <= last)
            return next_from(t, first, out, err);
    }
    out->kind = PM_STREAM_START_FULL;
    out->id = latest;
    out->by_creation = true;
    out->creation_ms = ms;
    return level_filter(schema, out, err);
}

PM_MUST_CHECK static int by_mode(paimon_table *t, const pm_schema *schema, const pm_options *o,
                                 int64_t earliest, int64_t latest, pm_stream_start *out,
                                 paimon_error *err)
{
    pm_stream_mode mode;
    int64_t v = NO_VALUE;
    int rc = pm_stream_mode_of(o, &mode, err);
    if (rc != 0)
        return rc;
    switch (mode) {
    case PM_STREAM_LATEST:
        out->kind = PM_STREAM_START_NEXT;
        out->id = latest + 1;
        return 0;
    case PM_STREAM_LATEST_FULL:
        out->kind = PM_STREAM_START_FULL;
        out->id = latest;
        return level_filter(schema, out, err);
    case PM_STREAM_COMPACTED_FULL: {
        const char *producer = pm_options_get_str(o, "changelog-producer");
        int64_t delta = 0;
        if ((rc = opt_long(o, "full-compaction.delta-commits", &v, err)) != 0)
            return rc;
        if (v != NO_VALUE)
            delta = v;
        else if (producer != NULL && strcasecmp(producer, "full-compaction") == 0)
            delta = 1;
        out->kind = PM_STREAM_START_FULL;
        if ((rc = pick_compacted(t, earliest, latest, delta, &out->id, err)) != 0)
            return rc;
        return level_filter(schema, out, err);
    }
    case PM_STREAM_FROM_TIMESTAMP: {
        pm_changes_range r = {PM_CHANGES_FROM_TIMESTAMP, 0, 0};
        int64_t first, last;
        bool set;
        if ((rc = pm_scan_timestamp_millis(o, &r.from_value, &set, err)) != 0 ||
            (rc = pm_changes_resolve(t, &r, &first, &last, err)) != 0)
            return rc;
        out->kind = PM_STREAM_START_NEXT;
        out->id = first;
        return 0;
    }
    case PM_STREAM_FROM_SNAPSHOT:
        if ((rc = opt_long(o, "scan.snapshot-id", &v, err)) != 0)
            return rc;
        return next_from(t, v, out, err);
    case PM_STREAM_FROM_SNAPSHOT_FULL:
        if ((rc = opt_long(o, "scan.snapshot-id", &v, err)) != 0)
            return rc;
        out->kind = PM_STREAM_START_FULL;
        out->id = v > earliest ? v : earliest;
        if (out->id > latest)
            return pm_err_set(err, PAIMON_ENOTFOUND,
                              "%s: snapshot %lld does not exist (the latest is %lld)", t->path,
                              (long long)v, (long long)latest);
        return level_filter(schema, out, err);
    case PM_STREAM_FROM_FILE_CREATION_TIME:
        if ((rc = opt_long(o, "scan.file-creation-time-millis", &v, err)) != 0)
            return rc;
        out->kind = PM_STREAM_START_FULL;
        out->id = latest;
        out->by_creation = true;
        out->creation_ms = v;
        return level_filter(schema, out, err);
    case PM_STREAM_FROM_CREATION_TIMESTAMP:
        if ((rc = opt_long(o, "scan.creation-time-millis", &v, err)) != 0)
            return rc;
        return from_creation(t, schema, v, latest, out, err);
    }
    return pm_err_set(err, PAIMON_EINVALID, "%s: unknown streaming start", t->path);
}

int pm_stream_start_resolve(paimon_table *t, const pm_schema *schema, const pm_options *o,
                            const pm_stream_origin *origin, pm_stream_start *out, paimon_error *err)
{
    int64_t earliest = 0, latest = 0;
    bool found = false, ignore = false;
    const char *consumer = pm_options_get(o, "consumer-id");
    int rc;

    memset(out, 0, sizeof(*out));
    out->level_only = -1;
    out->kind = PM_STREAM_START_WAIT;
    if (origin->kind == PM_STREAM_ORIGIN_SCAN_MODE) {
        pm_stream_mode mode;
        /* a bad mode is an error even before the first snapshot */
        if ((rc = pm_stream_mode_of(o, &mode, err)) != 0)
            return rc;
    }
    if ((rc = pm_snapshot_latest_id(t->fs, t->path, &latest, &found, err)) != 0)
        return rc;
    if (found && (rc = pm_snapshot_earliest_id(t->fs, t->path, &earliest, &found, err)) != 0)
        return rc;
    if (origin->kind == PM_STREAM_ORIGIN_POSITION)
        return found ? next_from(t, origin->position, out, err) : 0;
    if (consumer != NULL) {
        if ((rc = pm_options_get_bool(o, "consumer.ignore-progress", &ignore, err)) != 0)
            return rc;
        if (!ignore) {
            int64_t next = 0;
            rc = pm_consumer_read(t->fs, t->path, consumer, &next, err);
            if (rc == 0)
                return found ? next_from(t, next, out, err) : 0;
            if (rc != PAIMON_ENOTFOUND)
                return rc;
        }
    }
    if (origin->kind == PM_STREAM_ORIGIN_RANGE) {
        int64_t first, last;
        if ((rc = pm_changes_resolve(t, &origin->range, &first, &last, err)) != 0)
            return rc;
        out->kind = PM_STREAM_START_NEXT;
        out->id = first; /* also on an empty table: snapshot 1 */
        return 0;
    }
    if (!found) {
        pm_stream_mode mode;
        if ((rc = pm_stream_mode_of(o, &mode, err)) != 0)
            return rc;
        /* ContinuousLatestStartingScanner remembers that there was no snapshot when it was
         * made, and then starts at snapshot 1; every other mode waits for one. */
        if (mode == PM_STREAM_LATEST) {
            out->kind = PM_STREAM_START_NEXT;
            out->id = 1;
        }
        return 0;
    }
    return by_mode(t, schema, o, earliest, latest, out, err);
}
