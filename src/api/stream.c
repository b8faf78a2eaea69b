/*
 * Public streaming-read functions (include/paimon/stream.h) over table/stream_scan.h and the
 * directory watch of io/watch.h.  Each returned snapshot is a batch source read through the
 * one cursor (api/cursor.c): a full read's splits merged, each row with its stored kind in a
 * `_ROW_KIND` column in front (retractions dropped, or kept for $audit_log and $binlog as
 * Java's forceKeepDelete keeps them), or a change plan's raw splits read by the split
 * reader's change mode.
 * The source owns its plan, so the stream may move on while a cursor is read.
 */
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/api.h"
#include "api/binlog.h"
#include "api/columns.h"
#include "data/parallel_source.h"
#include "io/watch.h"
#include "meta/option_catalog.h"
#include "meta/options.h"
#include "meta/paths.h"
#include "meta/snapshot.h"
#include "paimon/stream.h"
#include "table/file_reader.h"
#include "table/split_read.h"
#include "table/stream_scan.h"
#include "util/alloc.h"
#include "util/error.h"

/* The polling interval where neither the table nor the read sets
 * continuous.discovery-interval (Java's default is 10 s; issue 13 asks for 100 ms). */
#define DEFAULT_INTERVAL_MS 100

struct paimon_stream {
    paimon_table *table;
    pm_schema *schema; /* the read's: the table's latest when opened */
    pm_stream_scan *scan;
    pm_watch *watch;
    char *consumer; /* or NULL */
    int *columns;   /* data columns (indexes into schema->row) */
    size_t column_count;
    pm_api_columns cols; /* _ROW_KIND (rowkind for $audit_log), then the data columns */
    bool audit_log;      /* read as `$audit_log`: the kind is a value, every row +I */
    bool binlog;         /* read as `$binlog`: cols is the binlog shape of `inner` */
    bool sequence;       /* _SEQUENCE_NUMBER after the kind (table-read.sequence-number.*) */
    pm_type *inner;      /* the change shape of the rows (kind, then the columns) */
    int64_t batch_rows;
    unsigned int threads; /* paimon_stream_options.threads */
    pm_scan_plan *plan;   /* the current snapshot's, until a cursor takes it */
    bool full;            /* the current plan is a full read */
    int64_t current;      /* the current snapshot id, 0 without one */
    char *commit_kind;
};

/* ---- the rows of one snapshot ---------------------------------------------------------------- */

typedef struct stream_source {
    paimon_table *table;
    pm_scan_plan *plan; /* owned */
    bool full;
    bool audit_log;    /* name the kind column `rowkind` in every batch */
    pm_binlog *binlog; /* $binlog: the converter (owned), or NULL */
    bool sequence;     /* read _SEQUENCE_NUMBER after the kind */
    pm_type *inner;    /* the change shape: kind, then the columns (owned) */
    int *columns;      /* owned */
    size_t column_count;
    int64_t batch_rows;
    pm_type *type; /* _ROW_KIND, then the data columns (owned) */
    size_t next_split;
    pm_split_reader *reader;
    pm_batch_source ahead; /* the splits read on the thread pool (ctx NULL: one thread) */
} stream_source;

static void source_release(void *ctx)
{
    stream_source *s = ctx;
    if (s->ahead.ctx != NULL)
        s->ahead.release(s->ahead.ctx); /* before the plan it reads */
    pm_split_reader_free(s->reader);
    pm_scan_plan_free(s->plan);
    pm_binlog_free(s->binlog);
    pm_type_free(s->inner);
    pm_type_free(s->type);
    pm_free(s->columns);
    pm_free(s);
}

/* A reader of split `split` in the change shape (data/parallel_source.h calls it on pool
 * threads; it reads only the source's settings and plan). */
PM_MUST_CHECK static int open_reader(const stream_source *s, size_t split, pm_split_reader **out,
                                     paimon_error *err)
{
    const pm_split *sp = &s->plan->splits[split];
    int rc;
    /* Java's first plan reads the snapshot merged: each row with its stored kind,
     * retractions dropped, or kept for $audit_log and $binlog (forceKeepDelete) */
    if (!s->full)
        rc = pm_split_reader_open_changes(out, s->table, s->plan, sp, s->columns, s->column_count,
                                          s->batch_rows, err);
    else if (s->audit_log || s->binlog != NULL)
        rc = pm_split_reader_open_keep_delete(out, s->table, s->plan, sp, s->columns,
                                              s->column_count, s->batch_rows, err);
    else
        rc = pm_split_reader_open_kinds(out, s->table, s->plan, sp, s->columns, s->column_count,
                                        s->batch_rows, err);
    /* AuditLogTable reads its sequence numbers in every read, first plan or not */
    if (rc == 0 && s->sequence && (rc = pm_split_reader_with_sequence(*out, err)) != 0) {
        pm_split_reader_free(*out);
        *out = NULL;
    }
    return rc;
}

PM_MUST_CHECK static int open_split(void *ctx, size_t split, pm_batch_source *out,
                                    paimon_error *err)
{
    pm_split_reader *r = NULL;
    int rc = open_reader(ctx, split, &r, err);
    if (rc == 0)
        pm_split_reader_source(r, out);
    return rc;
}

/* The next batch of the snapshot in the change shape: the kind column, then the columns. */
PM_MUST_CHECK static int inner_next(stream_source *s, pm_batch **out, paimon_error *err)
{
    for (;;) {
        int rc;
        if (s->ahead.ctx == NULL && s->reader == NULL) {
            if (s->next_split >= s->plan->split_count)
                return PAIMON_ITEROVER;
            if ((rc = open_reader(s, s->next_split++, &s->reader, err)) != 0)
                return rc;
        }
        rc = s->ahead.ctx != NULL ? s->ahead.next(s->ahead.ctx, out, err)
                                  : pm_split_reader_next(s->reader, out, err);
        if (rc == PAIMON_ITEROVER && s->ahead.ctx != NULL)
            return rc;
        if (rc == PAIMON_ITEROVER) {
            pm_split_reader_free(s->reader);
            s->reader = NULL;
            continue;
        }
        if (rc == 0 && s->audit_log) {
            /* the split reader names it _ROW_KIND: $audit_log calls it rowkind */
            char *name = pm_strdup("rowkind");
            if (name == NULL) {
                pm_batch_free(*out);
                *out = NULL;
                return pm_nomem(err);
            }
            pm_free((*out)->type->fields[0].name);
            (*out)->type->fields[0].name = name;
        }
        return rc;
    }
}

PM_MUST_CHECK static int source_next(void *ctx, pm_batch **out, paimon_error *err)
{
    stream_source *s = ctx;
    if (s->binlog == NULL)
        return inner_next(s, out, err);
    for (;;) {
        pm_batch *in = NULL;
        int rc = inner_next(s, &in, err);
        if (rc == PAIMON_ITEROVER) {
            if ((rc = pm_binlog_finish(s->binlog, out, err)) != 0)
                return rc;
            return *out != NULL ? 0 : PAIMON_ITEROVER;
        }
        if (rc != 0)
            return rc;
        rc = pm_binlog_convert(s->binlog, in, out, err);
        pm_batch_free(in);
        if (rc != 0 || *out != NULL)
            return rc;
    }
}

/* ---- opening --------------------------------------------------------------------------------- */

PAIMON_API void paimon_stream_free(paimon_stream *st)
{
    if (st == NULL)
        return;
    pm_scan_plan_free(st->plan);
    pm_stream_scan_free(st->scan);
    pm_watch_free(st->watch);
    pm_free(st->consumer);
    pm_free(st->columns);
    pm_free(st->commit_kind);
    pm_api_columns_release(&st->cols);
    pm_type_free(st->inner);
    pm_schema_free(st->schema);
    pm_free(st);
}

/* The read's options: the table's, then the caller's, then the consumer id. */
PM_MUST_CHECK static int read_options(const paimon_stream *st, const paimon_stream_options *o,
                                      pm_options *out, paimon_error *err)
{
    if (pm_options_copy(out, &st->schema->options) != 0)
        return pm_nomem(err);
    for (size_t i = 0; i < o->option_count; i++) {
        if (o->option_keys == NULL || o->option_values == NULL || o->option_keys[i] == NULL ||
            o->option_values[i] == NULL)
            return pm_err_set(err, PAIMON_EINVALID, "paimon_stream_open: option %zu is NULL", i);
        if (pm_options_set(out, o->option_keys[i], o->option_values[i]) != 0)
            return pm_nomem(err);
    }
    if (o->consumer_id != NULL && pm_options_set(out, "consumer-id", o->consumer_id) != 0)
        return pm_nomem(err);
    return 0;
}

/* The system tables a stream reads: `audit_log` (Java's AuditLogTable: the change stream
 * with its kind as a `rowkind` column, every row itself an insert). */
PM_MUST_CHECK static int check_system_table(const paimon_table *t, const char *name,
                                            bool *audit_log, bool *binlog, paimon_error *err)
{
    *audit_log = false;
    *binlog = false;
    if (name == NULL)
        return 0;
    *audit_log = strcasecmp(name, "audit_log") == 0;
    *binlog = strcasecmp(name, "binlog") == 0;
    if (*audit_log || *binlog)
        return 0;
    return pm_err_set(err, PAIMON_EUNSUPPORTED,
                      "%s$%s: streaming reads of this system table are not supported (only "
                      "$audit_log and $binlog)",
                      t->path, name);
}

/* A consumer id names a file: consumer-<id>. */
PM_MUST_CHECK static int check_consumer(const char *id, paimon_error *err)
{
    if (id[0] == '\0' || strchr(id, '/') != NULL || strcmp(id, ".") == 0 || strcmp(id, "..") == 0 ||
        strlen(id) > 200)
        return pm_err_set(err, PAIMON_EINVALID, "consumer id '%s' cannot name a file", id);
    return 0;
}

PAIMON_API int paimon_stream_open(paimon_stream **out, paimon_table *table,
                                  const paimon_stream_options *options, paimon_error *err)
{
    paimon_stream_options given;
    const paimon_stream_options *o = &given;
    paimon_stream *st = NULL;
    pm_options opts;
    pm_stream_origin origin;
    int64_t interval = DEFAULT_INTERVAL_MS;
    char *dir = NULL;
    int rc = 0;

    paimon_error_clear(err);
    pm_options_init(&opts);
    if (out == NULL || table == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_stream_open: table and out are required");
    *out = NULL;
    if ((rc = pm_api_options_get(&pm_api_stream_options, "paimon_stream_open", options, &given,
                                 err)) != 0)
        return rc;
    if (o->from != PAIMON_STREAM_FROM_SCAN_MODE &&
        (o->from < PAIMON_CHANGES_FROM_EARLIEST || o->from > PAIMON_CHANGES_FROM_TIMESTAMP))
        return pm_err_set(err, PAIMON_EINVALID, "paimon_stream_open: unknown start %d", o->from);
    if (o->to_snapshot < 0 || o->position < 0)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_stream_open: a position or last snapshot must be positive");
    if ((st = pm_calloc(1, sizeof(*st))) == NULL)
        return pm_nomem(err);
    st->table = table;
    st->batch_rows = o->batch_rows > 0 ? o->batch_rows : 4096;
    st->threads = o->threads;
    pm_table_begin(table);
    PM_TRY(pm_schema_read_latest(table->fs, table->path, &st->schema, err));
    PM_TRY(check_system_table(table, o->system_table, &st->audit_log, &st->binlog, err));
    PM_TRY(pm_api_change_columns(st->schema->row, st->audit_log ? "rowkind" : NULL, o->columns,
                                 o->column_count, &st->columns, &st->column_count, &st->cols, err));
    if (st->audit_log || st->binlog)
        PM_TRY(pm_api_read_sequence(table, o->option_keys, o->option_values, o->option_count,
                                    &st->sequence, err));
    if (st->sequence)
        PM_TRY(pm_api_columns_add_sequence(&st->cols, err));
    if ((st->inner = pm_type_clone(st->cols.type)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if (st->binlog) {
        pm_type *binlog = NULL;
        PM_TRY(pm_binlog_type(st->inner, &binlog, err));
        pm_api_columns_release(&st->cols);
        PM_TRY(pm_api_columns_init(&st->cols, binlog, err)); /* takes `binlog` */
    }
    PM_TRY(read_options(st, o, &opts, err));
    if (pm_options_get(&opts, "consumer-id") != NULL) {
        PM_TRY(check_consumer(pm_options_get(&opts, "consumer-id"), err));
        if ((st->consumer = pm_strdup(pm_options_get(&opts, "consumer-id"))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    memset(&origin, 0, sizeof(origin));
    origin.kind = PM_STREAM_ORIGIN_SCAN_MODE;
    if (o->position > 0) {
        origin.kind = PM_STREAM_ORIGIN_POSITION;
        origin.position = o->position;
    } else if (o->from != PAIMON_STREAM_FROM_SCAN_MODE) {
        origin.kind = PM_STREAM_ORIGIN_RANGE;
        origin.range.from = (pm_changes_from)o->from;
        origin.range.from_value = o->from_value;
    }
    PM_TRY(pm_stream_scan_open(&st->scan, table, st->schema, &opts, &origin, o->to_snapshot, err));
    if (o->poll_interval_ms > 0)
        interval = o->poll_interval_ms;
    else if (pm_options_get(&opts, "continuous.discovery-interval") != NULL)
        PM_TRY(pm_options_get_duration(&opts, "continuous.discovery-interval", &interval, err));
    if ((dir = pm_table_file(table->path, "snapshot", NULL)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    /* inotify watches a local directory; a table on S3 (or any other store) is polled */
    PM_TRY(pm_watch_open(&st->watch, dir, !o->no_inotify && strcmp(table->fs->name, "local") == 0,
                         interval, err));
    *out = st;
    st = NULL;
done:
    pm_free(dir);
    pm_options_free(&opts);
    paimon_stream_free(st);
    return rc;
}

PAIMON_API size_t paimon_stream_column_count(const paimon_stream *st)
{
    return st != NULL ? pm_api_columns_count(&st->cols) : 0;
}

PAIMON_API const char *paimon_stream_column_name(const paimon_stream *st, size_t column)
{
    return st != NULL ? pm_api_columns_name(&st->cols, column) : NULL;
}

PAIMON_API const char *paimon_stream_column_type(const paimon_stream *st, size_t column)
{
    return st != NULL ? pm_api_columns_type(&st->cols, column) : NULL;
}

/* ---- following ------------------------------------------------------------------------------- */

static int64_t now_ms(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Makes `plan` the current snapshot and describes it. */
PM_MUST_CHECK static int take(paimon_stream *st, const pm_stream_poll *p,
                              paimon_stream_snapshot *info, paimon_error *err)
{
    const pm_snapshot *s = p->plan->snapshot;
    const char *kind =
        s->commit_kind_name != NULL ? s->commit_kind_name : pm_commit_kind_name(s->commit_kind);
    st->plan = p->plan;
    st->full = p->full;
    st->current = p->snapshot_id;
    if ((st->commit_kind = pm_strdup(kind)) == NULL)
        return pm_nomem(err);
    if (info != NULL) {
        memset(info, 0, sizeof(*info));
        info->id = p->snapshot_id;
        info->full = p->full;
        info->commit_kind = st->commit_kind;
        info->time_millis = s->time_millis;
        for (size_t i = 0; i < p->plan->split_count; i++)
            info->file_count += p->plan->splits[i].file_count;
    }
    return 0;
}

PAIMON_API int paimon_stream_next(paimon_stream *st, int64_t timeout_ms,
                                  paimon_stream_snapshot *info, paimon_error *err)
{
    int64_t deadline;
    paimon_error_clear(err);
    if (st == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_stream_next: no stream");
    pm_scan_plan_free(st->plan);
    st->plan = NULL;
    st->current = 0;
    pm_free(st->commit_kind);
    st->commit_kind = NULL;
    deadline = now_ms(CLOCK_MONOTONIC) + (timeout_ms < 0 ? 0 : timeout_ms);
    for (;;) {
        pm_stream_poll p;
        int64_t left;
        bool interrupted = false;
        int rc = pm_stream_scan_poll(st->scan, now_ms(CLOCK_REALTIME), &p, err);
        if (rc != 0)
            return rc;
        if (p.step == PM_STREAM_STEP_PLAN)
            return take(st, &p, info, err);
        if (p.step == PM_STREAM_STEP_END)
            return PAIMON_ITEROVER;
        left = deadline - now_ms(CLOCK_MONOTONIC);
        if (timeout_ms >= 0 && left <= 0)
            return PAIMON_STREAM_IDLE;
        (void)pm_watch_wait(st->watch, timeout_ms < 0 ? -1 : left, &interrupted);
        if (interrupted)
            return PAIMON_STREAM_IDLE;
    }
}

PAIMON_API int paimon_stream_cursor(paimon_cursor **out, paimon_stream *st, paimon_error *err)
{
    stream_source *s;
    pm_batch_source src;
    int rc;
    paimon_error_clear(err);
    if (out != NULL)
        *out = NULL;
    if (out == NULL || st == NULL || st->current == 0)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_stream_cursor: no current snapshot");
    if (st->plan == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_stream_cursor: snapshot %lld is already being read",
                          (long long)st->current);
    if ((s = pm_calloc(1, sizeof(*s))) == NULL)
        return pm_nomem(err);
    s->table = st->table;
    s->full = st->full;
    s->audit_log = st->audit_log;
    s->sequence = st->sequence;
    s->column_count = st->column_count;
    s->batch_rows = st->batch_rows;
    s->columns = pm_calloc(st->column_count + 1, sizeof(int));
    s->type = pm_type_clone(st->cols.type);
    s->inner = pm_type_clone(st->inner);
    if (s->columns == NULL || s->type == NULL || s->inner == NULL) {
        source_release(s);
        return pm_nomem(err);
    }
    /* Java packs -U/+U pairs only in streaming splits: the follow-up, not the full read */
    if (st->binlog && pm_binlog_new(&s->binlog, s->type, !st->full, err) != 0) {
        source_release(s);
        return err != NULL ? err->code : PAIMON_ENOMEM;
    }
    memcpy(s->columns, st->columns, st->column_count * sizeof(int));
    s->plan = st->plan;
    st->plan = NULL;
    if ((rc = pm_parallel_source_open(&s->ahead, s->inner, s->plan->split_count, open_split, s,
                                      st->threads, err)) != 0) {
        source_release(s);
        return rc;
    }
    memset(&src, 0, sizeof(src));
    src.next = source_next;
    src.release = source_release;
    src.ctx = s;
    src.type = s->type;
    return pm_cursor_new(out, &src, st->audit_log || st->binlog ? -1 : 0, err);
}

PAIMON_API int64_t paimon_stream_position(const paimon_stream *st)
{
    return pm_stream_scan_position(st != NULL ? st->scan : NULL);
}

PAIMON_API int paimon_stream_checkpoint(paimon_stream *st, paimon_error *err)
{
    int64_t pos;
    paimon_error_clear(err);
    if (st == NULL || st->consumer == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_stream_checkpoint: the stream has no "
                          "consumer id");
    pos = pm_stream_scan_position(st->scan);
    if (pos <= 0)
        return 0;
    return pm_consumer_write(st->table->fs, st->table->path, st->consumer, pos, err);
}
