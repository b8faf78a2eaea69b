/*
 * The health items of a table (`paimon inspect TABLE health`, issue 18): what an operator
 * should act on in the latest snapshot, each with the `paimon` command that fixes it.  The
 * facts come from report.c; the limits are the table's options read as Java 1.4.2 reads
 * them (paimon_health_limits).
 *
 *   check             severity   when
 *   sorted-runs       critical   a primary-key bucket has more sorted runs than
 *                                num-sorted-run.stop-trigger (Java's writer stalls there)
 *                     warning    ... more than num-sorted-run.compaction-trigger
 *   small-files       warning    a partition holds at least compaction.min.file-num small
 *                                files (below 7/10 of target-file-size) per bucket
 *   deletion-vectors  warning    deletion vectors mark at least a third of the rows a read
 *                                of the bucket decodes
 *   consumer-pinning  warning    a consumer reads a snapshot that retention would expire
 *   expire-pending    warning    snapshots beyond retention are still there
 *
 * Items are ordered critical first, then as the table above, then by partition and bucket.
 */
#include <jansson.h>
#include <string.h>

#include "table/consumers.h"
#include "table/inspect.h"
#include "table/report.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"

/* `s` as one shell word: as is when it holds only safe characters, else in single quotes
 * (a quote inside written '\''). */
static int shell_word(pm_buf *b, const char *s)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789_-./:=,@%+";
    int rc = 0;
    if (s[0] != '\0' && strspn(s, safe) == strlen(s))
        return pm_buf_puts(b, s);
    rc |= pm_buf_putc(b, '\'');
    for (const char *p = s; *p != '\0'; p++)
        rc |= *p == '\'' ? pm_buf_puts(b, "'\\''") : pm_buf_putc(b, (uint8_t)*p);
    return rc | pm_buf_putc(b, '\'');
}

/* " --partition k=v,k=v" from a canonical partition object ("{}" or NULL: nothing). */
static int partition_arg(pm_buf *b, const char *partition)
{
    json_t *obj = partition != NULL ? json_loads(partition, 0, NULL) : NULL;
    const char *key;
    json_t *v;
    pm_buf kv;
    int rc = 0;
    bool first = true;
    if (obj == NULL || json_object_size(obj) == 0) {
        json_decref(obj);
        return 0;
    }
    pm_buf_init(&kv, 0);
    json_object_foreach(obj, key, v)
    {
        char *text = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY);
        rc |= pm_buf_printf(&kv, "%s%s=%s", first ? "" : ",", key,
                            json_is_string(v) ? json_string_value(v)
                            : text            ? text
                                              : "");
        free(text);
        first = false;
    }
    rc |= pm_buf_puts(b, " --partition ");
    rc |= shell_word(b, pm_buf_cstr(&kv));
    pm_buf_free(&kv);
    json_decref(obj);
    return rc;
}

typedef struct builder {
    paimon_table *t;
    paimon_list *l;
    size_t count, cap;
    bool failed;
    pm_buf buf;
} builder;

/* Appends one item; `fix` is built from "paimon VERB 'TABLE'" + `tail` (+ the partition
 * argument when `part_arg`). */
static void add(builder *bd, const char *check, const char *severity, const char *partition,
                int32_t bucket, const char *subject, int64_t value, int64_t limit,
                const char *message, const char *verb, bool part_arg, const char *tail)
{
    paimon_health_item *it;
    if (bd->count == bd->cap) {
        bd->failed = true; /* the capacity is an upper bound: never reached */
        return;
    }
    it = (paimon_health_item *)bd->l->items + bd->count++;
    it->check = check;
    it->severity = severity;
    it->partition = partition != NULL && strcmp(partition, "{}") != 0
                        ? pm_inspect_keep(bd->l, partition, &bd->failed)
                        : NULL;
    it->bucket = bucket;
    it->subject = pm_inspect_keep(bd->l, subject, &bd->failed);
    it->value = value;
    it->limit = limit;
    it->message = pm_inspect_keep(bd->l, message, &bd->failed);
    pm_buf_reset(&bd->buf);
    if (pm_buf_printf(&bd->buf, "paimon %s ", verb) != 0 ||
        shell_word(&bd->buf, paimon_table_path(bd->t)) != 0 ||
        (part_arg && partition_arg(&bd->buf, partition) != 0) || pm_buf_puts(&bd->buf, tail) != 0)
        bd->failed = true;
    it->fix = pm_inspect_keep_buf(bd->l, &bd->buf, &bd->failed);
}

/* "{"dt":"x"} bucket 3" or "bucket 3" for messages. */
static const char *where(char *out, size_t len, const char *partition, int32_t bucket)
{
    bool part = partition != NULL && strcmp(partition, "{}") != 0;
    if (bucket == PAIMON_ABSENT_INT)
        snprintf(out, len, "%s%s", part ? "partition " : "the table", part ? partition : "");
    else
        snprintf(out, len, "%s%sbucket %d", part ? partition : "", part ? " " : "", bucket);
    return out;
}

static void bucket_items(builder *bd, const paimon_health_limits *h, const paimon_list *buckets)
{
    char msg[1024], at[512];
    for (size_t i = 0; i < buckets->count; i++) {
        const paimon_bucket_info *b = (const paimon_bucket_info *)buckets->items + i;
        where(at, sizeof(at), b->partition, b->bucket);
        if (h->primary_key && b->sorted_runs > h->compaction_trigger) {
            bool stop = b->sorted_runs > h->stop_trigger;
            snprintf(msg, sizeof(msg),
                     "%s has %lld sorted runs, above num-sorted-run.%s %lld: every read merges "
                     "them all%s",
                     at, (long long)b->sorted_runs, stop ? "stop-trigger" : "compaction-trigger",
                     (long long)(stop ? h->stop_trigger : h->compaction_trigger),
                     stop ? ", and Java writers stall until compaction catches up" : "");
            add(bd, "sorted-runs", stop ? "critical" : "warning", b->partition, b->bucket, NULL,
                b->sorted_runs, stop ? h->stop_trigger : h->compaction_trigger, msg, "compact",
                true, "");
        }
        if (b->deleted_rows > 0 && b->deleted_rows * 3 >= b->row_count) {
            snprintf(msg, sizeof(msg),
                     "%s: deletion vectors mark %lld of its %lld rows deleted; reads still "
                     "decode them",
                     at, (long long)b->deleted_rows, (long long)b->row_count);
            add(bd, "deletion-vectors", "warning", b->partition, b->bucket, NULL, b->deleted_rows,
                (b->row_count + 2) / 3, msg, "compact", true, " --full");
        }
    }
}

static void small_file_items(builder *bd, const paimon_health_limits *h, const paimon_list *buckets)
{
    char msg[1024], at[512];
    size_t i = 0;
    while (i < buckets->count) {
        const paimon_bucket_info *b = (const paimon_bucket_info *)buckets->items + i;
        int64_t small = 0, nb = 0;
        size_t j = i;
        for (; j < buckets->count; j++) {
            const paimon_bucket_info *c = (const paimon_bucket_info *)buckets->items + j;
            if (strcmp(c->partition, b->partition) != 0)
                break;
            small += c->small_files;
            nb++;
        }
        if (small > 1 && small >= h->min_file_num * nb) {
            snprintf(msg, sizeof(msg),
                     "%s holds %lld small files (under %lld bytes, 7/10 of target-file-size) in "
                     "%lld bucket%s: at least compaction.min.file-num %lld per bucket",
                     where(at, sizeof(at), b->partition, PAIMON_ABSENT_INT), (long long)small,
                     (long long)h->small_file_size, (long long)nb, nb == 1 ? "" : "s",
                     (long long)h->min_file_num);
            add(bd, "small-files", "warning", b->partition, PAIMON_ABSENT_INT, NULL, small,
                h->min_file_num * nb, msg, "compact", true, " --full");
        }
        i = j;
    }
}

/* Consumers that pin snapshots retention would expire, then what expire would remove now. */
PM_MUST_CHECK static int retention_items(builder *bd, const paimon_health_limits *h,
                                         paimon_error *err)
{
    pm_consumer_entry *cs = NULL;
    int64_t *ids = NULL, earliest, latest, end = h->expire_before;
    size_t nc = 0, n = 0;
    char msg[1024];
    pm_buf tail;
    int rc;

    pm_buf_init(&tail, 0);
    if (h->expire_before == 0)
        return 0;
    if ((rc = pm_snapshot_list_ids(bd->t->fs, bd->t->path, &ids, &n, err)) != 0 ||
        (rc = pm_consumers_list(bd->t->fs, bd->t->path, &cs, &nc, err)) != 0)
        goto done;
    if (n == 0)
        goto done;
    earliest = ids[0];
    latest = ids[n - 1];
    for (size_t i = 0; i < nc; i++) {
        if (cs[i].next_snapshot >= h->expire_before)
            continue;
        if (cs[i].next_snapshot < end)
            end = cs[i].next_snapshot;
        snprintf(msg, sizeof(msg),
                 "consumer %s reads snapshot %lld next and so keeps %lld snapshot%s beyond "
                 "retention (snapshot.num-retained.min %lld, snapshot.time-retained %lld ms)",
                 cs[i].id, (long long)cs[i].next_snapshot,
                 (long long)(h->expire_before -
                             (cs[i].next_snapshot > earliest ? cs[i].next_snapshot : earliest)),
                 h->expire_before - cs[i].next_snapshot == 1 ? "" : "s", (long long)h->retain_min,
                 (long long)h->time_retained_ms);
        /* the id is a file name from the table: one shell word, as the table path is */
        pm_buf_reset(&tail);
        if (pm_buf_puts(&tail, " reset ") != 0 || shell_word(&tail, cs[i].id) != 0 ||
            pm_buf_printf(&tail, " --to %lld", (long long)latest) != 0)
            bd->failed = true;
        add(bd, "consumer-pinning", "warning", NULL, PAIMON_ABSENT_INT, cs[i].id,
            h->expire_before - cs[i].next_snapshot, 0, msg, "consumer", false, pm_buf_cstr(&tail));
    }
    if (end > earliest) {
        snprintf(msg, sizeof(msg),
                 "%lld snapshot%s (%lld..%lld) are beyond retention and not expired: they keep "
                 "their data and manifest files",
                 (long long)(end - earliest), end - earliest == 1 ? "" : "s", (long long)earliest,
                 (long long)(end - 1));
        add(bd, "expire-pending", "warning", NULL, PAIMON_ABSENT_INT, NULL, end - earliest, 0, msg,
            "expire", false, "");
    }
done:
    pm_buf_free(&tail);
    pm_consumer_entries_free(cs, nc);
    pm_free(ids);
    return rc;
}

static int severity_rank(const paimon_health_item *it)
{
    return strcmp(it->severity, "critical") == 0 ? 0 : 1;
}

/* The buckets of the latest snapshot; an empty list for a table without snapshots. */
PM_MUST_CHECK static int latest_buckets(paimon_table *t, paimon_list **out, paimon_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0;
    int rc = pm_snapshot_list_ids(t->fs, t->path, &ids, &n, err);
    pm_free(ids);
    if (rc != 0)
        return rc;
    if (n == 0)
        return pm_inspect_list_new(PM_LIST_BUCKETS, sizeof(paimon_bucket_info), 0, out, err);
    return pm_report_buckets(t, PAIMON_LATEST_SNAPSHOT, out, err);
}

int pm_report_health(paimon_table *t, paimon_list **out, paimon_error *err)
{
    paimon_health_limits h;
    paimon_list *buckets = NULL;
    paimon_health_item *order = NULL;
    pm_consumer_entry *cs = NULL;
    size_t nc = 0, k = 0;
    builder bd;
    int rc;

    *out = NULL;
    memset(&bd, 0, sizeof(bd));
    bd.t = t;
    pm_buf_init(&bd.buf, 0);
    if ((rc = pm_report_limits(t, &h, err)) != 0 || (rc = latest_buckets(t, &buckets, err)) != 0 ||
        (rc = pm_consumers_list(t->fs, t->path, &cs, &nc, err)) != 0)
        goto done;
    /* at most two items a bucket, one a partition (at most one a bucket), one a consumer,
     * one for expiration */
    bd.cap = buckets->count * 3 + nc + 1;
    if ((rc = pm_inspect_list_new(PM_LIST_HEALTH, sizeof(paimon_health_item), bd.cap, &bd.l,
                                  err)) != 0)
        goto done;
    bucket_items(&bd, &h, buckets);
    small_file_items(&bd, &h, buckets);
    if ((rc = retention_items(&bd, &h, err)) != 0)
        goto done;
    /* critical first, the order of the checks kept within each severity */
    if (bd.count > 0 && (order = pm_calloc(bd.count, sizeof(*order))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (int rank = 0; rank < 2; rank++)
        for (size_t i = 0; i < bd.count; i++) {
            const paimon_health_item *it = (const paimon_health_item *)bd.l->items + i;
            if (severity_rank(it) == rank)
                order[k++] = *it;
        }
    if (k > 0)
        memcpy(bd.l->items, order, k * sizeof(*order));
    rc = pm_inspect_list_finish(&bd.l, k, bd.failed, out, err);
done:
    pm_free(order);
    pm_consumer_entries_free(cs, nc);
    pm_buf_free(&bd.buf);
    pm_list_free(bd.l);
    pm_list_free(buckets);
    return rc;
}
