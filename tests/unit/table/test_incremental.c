/*
 * Batch scan modes and incremental reads on tables written by paimon-c (behaviour.md §7.2,
 * §7.4), through the public scan API with dynamic options:
 *
 *  - for each merge engine and changelog producer that matters, random upserts and deletes
 *    in several commits (and a full compaction); then for pairs of snapshots (a, b):
 *      * `$audit_log` with incremental-between=a,b holds exactly the changes the change read
 *        (paimon_table_changes, what Java's follow-up scans return) gives for a+1..b;
 *      * deduplicate with producers none (consecutive snapshots) and input: the batch read of
 *        snapshot a (scan.snapshot-id) with those changes applied as a consumer applies
 *        them, in read order, equals the batch read of snapshot b;
 *      * incremental-between=a,a is empty;
 *      * deduplicate, diff mode: snapshot a with the `$audit_log` diff applied is snapshot b;
 *  - scan.mode resolution and Java's validation messages on option sets.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "paimon.h"
#include "table/scan_mode.h"
#include "util/alloc.h"
#include "util/strlist.h"

#define KEYS 40

typedef struct combo {
    const char *engine;
    const char *producer;
} combo;

static uint64_t seed = 42;
static uint32_t rnd(uint32_t n)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(seed >> 33) % n;
}

/* Commits what `w` wrote and frees it. */
static void commit_writer(paimon_table *t, paimon_writer *w)
{
    paimon_commit_messages *m = NULL;
    paimon_error err = {0};
    int64_t id = 0;
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    if (paimon_writer_prepare_commit(w, m, &err) != 0 || paimon_table_commit(t, m, NULL, &id, &err))
        fail_msg("commit: %s", err.message);
    paimon_commit_messages_free(m);
    paimon_writer_free(w);
}

static void write_commit(paimon_table *t, const combo *c, int records)
{
    paimon_writer *w = NULL;
    paimon_error err = {0};
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    for (int i = 0; i < records; i++) {
        paimon_value row[3];
        char text[16];
        int kind = rnd(5) == 0 ? PAIMON_ROW_DELETE : PAIMON_ROW_INSERT;
        if (strcmp(c->engine, "deduplicate") != 0)
            kind = PAIMON_ROW_INSERT;
        row[0].type = PAIMON_VALUE_INT;
        row[0].v.i = rnd(KEYS);
        row[1].type = PAIMON_VALUE_INT;
        row[1].v.i = rnd(100);
        snprintf(text, sizeof(text), "s%u", rnd(20));
        row[2].type = PAIMON_VALUE_TEXT;
        row[2].v.s.ptr = text;
        row[2].v.s.len = strlen(text);
        if (paimon_writer_write_row(w, row, 3, (int8_t)kind, &err) != 0)
            fail_msg("write: %s", err.message);
    }
    commit_writer(t, w);
}

/* The rows of a scan as JSON lines (columns as given), in read order. */
static int scan_rows(paimon_table *t, const char *system, const char *const *keys,
                     const char *const *values, size_t n, const char *const *columns,
                     size_t column_count, pm_strlist *out, paimon_error *err)
{
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_scan *s = NULL;
    paimon_cursor *cur = NULL;
    int rc;
    pm_strlist_init(out);
    o.system_table = system;
    o.option_keys = keys;
    o.option_values = values;
    o.option_count = n;
    o.columns = columns;
    o.column_count = column_count;
    if ((rc = paimon_table_scan(&s, t, &o, err)) != 0)
        return rc;
    assert_int_equal(paimon_scan_cursor(&cur, s, err), 0);
    while ((rc = paimon_cursor_next(cur, err)) == 0) {
        const char *json;
        size_t len;
        assert_int_equal(paimon_cursor_row_json(cur, &json, &len, err), 0);
        assert_int_equal(pm_strlist_pushn(out, json, len), 0);
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    paimon_cursor_free(cur);
    paimon_scan_free(s);
    return 0;
}

static void sorted_copy(const pm_strlist *in, pm_strlist *out)
{
    pm_strlist_init(out);
    for (size_t i = 0; i < in->count; i++)
        assert_int_equal(pm_strlist_push(out, in->items[i]), 0);
    pm_strlist_sort(out);
}

/* The change read of snapshots first..last as {"rowkind":..,...} lines, sorted. */
static void change_rows(paimon_table *t, int64_t first, int64_t last, pm_strlist *out)
{
    paimon_changes_options o = PAIMON_CHANGES_OPTIONS_INIT;
    paimon_changes *ch = NULL;
    paimon_error err = {0};
    pm_strlist_init(out);
    o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
    o.from_value = first;
    o.to_snapshot = last;
    assert_int_equal(paimon_table_changes(&ch, t, &o, &err), 0);
    while (paimon_changes_next_snapshot(ch, NULL, &err) == 0) {
        paimon_cursor *cur = NULL;
        assert_int_equal(paimon_changes_cursor(&cur, ch, &err), 0);
        while (paimon_cursor_next(cur, &err) == 0) {
            const char *json;
            size_t len;
            char line[512];
            assert_int_equal(paimon_cursor_row_json(cur, &json, &len, &err), 0);
            /* {"_ROW_KIND":"+I",...} -> {"rowkind":"+I",...} */
            assert_true(len > 13 && len < sizeof(line) - 8 &&
                        strncmp(json, "{\"_ROW_KIND\"", 12) == 0);
            snprintf(line, sizeof(line), "{\"rowkind\"%.*s", (int)(len - 12), json + 12);
            assert_int_equal(pm_strlist_push(out, line), 0);
        }
        paimon_cursor_free(cur);
    }
    paimon_changes_free(ch);
    pm_strlist_sort(out);
}

static void assert_same(const pm_strlist *want, const pm_strlist *got, const char *what)
{
    if (want->count != got->count) {
        for (size_t i = 0; i < want->count; i++)
            print_message("want %s\n", want->items[i]);
        for (size_t i = 0; i < got->count; i++)
            print_message("got  %s\n", got->items[i]);
        fail_msg("%s: %zu rows, expected %zu", what, got->count, want->count);
    }
    for (size_t i = 0; i < want->count; i++)
        if (strcmp(want->items[i], got->items[i]) != 0)
            fail_msg("%s: row %zu is %s, expected %s", what, i, got->items[i], want->items[i]);
}

/* The key of a row line {"k":N,...} or {"rowkind":"..","k":N,...}. */
static int key_of(const char *line)
{
    const char *k = strstr(line, "\"k\":");
    assert_non_null(k);
    return (int)strtol(k + 4, NULL, 10);
}

/* state (lines {"k":..}) with change lines applied: +I/+U set, -U/-D remove. */
static void apply(pm_strlist *state, const pm_strlist *changes)
{
    char *rows[KEYS] = {0};
    for (size_t i = 0; i < state->count; i++)
        rows[key_of(state->items[i])] = pm_strdup(state->items[i]);
    for (size_t i = 0; i < changes->count; i++) {
        const char *c = changes->items[i];
        int k = key_of(c);
        pm_free(rows[k]);
        rows[k] = NULL;
        if (strstr(c, "\"rowkind\":\"+") != NULL) {
            const char *rest = strstr(c, "\"k\":");
            char line[512];
            snprintf(line, sizeof(line), "{%s", rest);
            rows[k] = pm_strdup(line);
        }
    }
    pm_strlist_free(state);
    pm_strlist_init(state);
    for (int k = 0; k < KEYS; k++)
        if (rows[k] != NULL) {
            assert_int_equal(pm_strlist_push(state, rows[k]), 0);
            pm_free(rows[k]);
        }
    pm_strlist_sort(state);
}

static void run_combo(const combo *c)
{
    char *path = pm_test_table_path("incremental");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"k"};
    const char *keys[4] = {"bucket", "merge-engine", "changelog-producer",
                           "fields.a.aggregate-function"};
    const char *vals[4] = {"2", c->engine, c->producer, "sum"};
    const char *audit_cols[4] = {"rowkind", "k", "a", "b"};
    paimon_table *t = NULL;
    paimon_error err = {0};
    const int commits = 5;
    char what[160];

    co.columns = "k INT NOT NULL, a BIGINT, b STRING";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = strcmp(c->engine, "aggregation") == 0 ? 4 : 3;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("create %s/%s: %s", c->engine, c->producer, err.message);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    for (int i = 0; i < commits; i++) {
        write_commit(t, c, 30);
        if (i == 2) {
            paimon_compact_options cpo = PAIMON_COMPACT_OPTIONS_INIT;
            int64_t id = 0;
            cpo.full = 1;
            if (paimon_table_compact(t, &cpo, &id, &err) != 0)
                fail_msg("compact: %s", err.message);
        }
    }
    {
        /* $audit_log: the merged rows with retractions kept; without its -D rows and the
         * rowkind column it is the batch read.  $binlog: the same rows, values in arrays. */
        const char *data_cols[3] = {"k", "a", "b"};
        const char *kinds_only[1] = {"rowkind"};
        pm_strlist audit, batch, plain, binlog;
        paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
        paimon_scan *sc = NULL;
        paimon_cursor *cur = NULL;
        assert_int_equal(scan_rows(t, NULL, NULL, NULL, 0, NULL, 0, &batch, &err), 0);
        pm_strlist_sort(&batch);
        assert_int_equal(scan_rows(t, "audit_log", NULL, NULL, 0, kinds_only, 1, &audit, &err), 0);
        o.system_table = "audit_log";
        o.filter = "rowkind <> '-D'";
        o.columns = data_cols;
        o.column_count = 3;
        assert_int_equal(paimon_table_scan(&sc, t, &o, &err), 0);
        assert_int_equal(paimon_scan_cursor(&cur, sc, &err), 0);
        pm_strlist_init(&plain);
        while (paimon_cursor_next(cur, &err) == 0) {
            const char *json;
            size_t len;
            assert_int_equal(paimon_cursor_row_json(cur, &json, &len, &err), 0);
            assert_int_equal(pm_strlist_pushn(&plain, json, len), 0);
        }
        paimon_cursor_free(cur);
        paimon_scan_free(sc);
        pm_strlist_sort(&plain);
        snprintf(what, sizeof(what), "%s/%s $audit_log", c->engine, c->producer);
        assert_same(&batch, &plain, what);
        for (size_t i = 0; i < audit.count; i++)
            assert_true(strcmp(audit.items[i], "{\"rowkind\":\"-D\"}") == 0 ||
                        strcmp(audit.items[i], "{\"rowkind\":\"+I\"}") == 0 ||
                        strcmp(audit.items[i], "{\"rowkind\":\"+U\"}") == 0);
        assert_int_equal(scan_rows(t, "binlog", NULL, NULL, 0, NULL, 0, &binlog, &err), 0);
        assert_int_equal(binlog.count, audit.count);
        for (size_t i = 0; i < binlog.count; i++)
            assert_non_null(strstr(binlog.items[i], "\"k\":["));
        pm_strlist_free(&audit);
        pm_strlist_free(&batch);
        pm_strlist_free(&plain);
        pm_strlist_free(&binlog);
    }
    {
        int64_t latest = -1;
        paimon_scan *s = NULL;
        assert_int_equal(paimon_table_scan(&s, t, NULL, &err), 0);
        latest = paimon_scan_snapshot_id(s);
        paimon_scan_free(s);
        for (int64_t a = 1; a <= latest; a++) {
            for (int64_t b = a; b <= latest; b++) {
                char between[48], sa[24], sb[24];
                const char *ik[1] = {"incremental-between"}, *iv[1] = {between};
                const char *sk[1] = {"scan.snapshot-id"}, *sva[1] = {sa}, *svb[1] = {sb};
                pm_strlist inc, inc_sorted, want, before, after;
                snprintf(between, sizeof(between), "%lld,%lld", (long long)a, (long long)b);
                snprintf(sa, sizeof(sa), "%lld", (long long)a);
                snprintf(sb, sizeof(sb), "%lld", (long long)b);
                snprintf(what, sizeof(what), "%s/%s incremental-between %s", c->engine, c->producer,
                         between);
                if (scan_rows(t, "audit_log", ik, iv, 1, audit_cols, 4, &inc, &err) != 0)
                    fail_msg("%s: %s", what, err.message);
                if (a == b) {
                    assert_int_equal(inc.count, 0);
                    pm_strlist_free(&inc);
                    continue;
                }
                change_rows(t, a + 1, b, &want);
                sorted_copy(&inc, &inc_sorted);
                assert_same(&want, &inc_sorted, what);
                pm_strlist_free(&inc_sorted);
                /* lookup: an APPEND snapshot's changes come with the next (COMPACT) one, so
                 * only none and input changes rebuild the state at b */
                if (strcmp(c->engine, "deduplicate") == 0 && strcmp(c->producer, "lookup") != 0) {
                    assert_int_equal(scan_rows(t, NULL, sk, sva, 1, NULL, 0, &before, &err), 0);
                    assert_int_equal(scan_rows(t, NULL, sk, svb, 1, NULL, 0, &after, &err), 0);
                    pm_strlist_sort(&after);
                    if (strcmp(c->producer, "none") != 0 || b - a == 1) {
                        /* none: a COMPACT snapshot's rewrite is not in the delta, but the
                         * delta of APPEND snapshots still carries each flush's result */
                        apply(&before, &inc);
                        assert_same(&after, &before, what);
                    }
                    pm_strlist_free(&before);
                    pm_strlist_free(&after);
                }
                pm_strlist_free(&inc);
                pm_strlist_free(&want);
                if (strcmp(c->engine, "deduplicate") == 0) {
                    /* diff: snapshot a with the diff applied is snapshot b */
                    const char *dk[2] = {"incremental-between", "incremental-between-scan-mode"};
                    const char *dv[2] = {between, "diff"};
                    pm_strlist diff;
                    snprintf(what, sizeof(what), "%s/%s diff %s", c->engine, c->producer, between);
                    if (scan_rows(t, "audit_log", dk, dv, 2, audit_cols, 4, &diff, &err) != 0)
                        fail_msg("%s: %s", what, err.message);
                    assert_int_equal(scan_rows(t, NULL, sk, sva, 1, NULL, 0, &before, &err), 0);
                    assert_int_equal(scan_rows(t, NULL, sk, svb, 1, NULL, 0, &after, &err), 0);
                    pm_strlist_sort(&after);
                    apply(&before, &diff);
                    assert_same(&after, &before, what);
                    pm_strlist_free(&before);
                    pm_strlist_free(&after);
                    pm_strlist_free(&diff);
                }
            }
        }
    }
    paimon_table_free(t);
    {
        char *slash = strrchr(path, '/');
        *slash = '\0';
        pm_test_rmtree(path);
    }
    pm_free(path);
}

static void test_incremental_models(void **state)
{
    static const combo combos[] = {
        {"deduplicate", "none"},      {"deduplicate", "input"},  {"deduplicate", "lookup"},
        {"partial-update", "lookup"}, {"aggregation", "lookup"}, {"first-row", "none"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(combos) / sizeof(combos[0]); i++)
        run_combo(&combos[i]);
}

/* ---- scan.mode resolution and validation ---------------------------------------------------- */

static int validate(const char *const *kv, pm_startup_mode *mode, char *msg, size_t cap)
{
    pm_options o;
    paimon_error err = {0};
    int rc;
    pm_options_init(&o);
    for (size_t i = 0; kv[i] != NULL; i += 2)
        assert_int_equal(pm_options_set(&o, kv[i], kv[i + 1]), 0);
    rc = pm_startup_mode_validate("t", &o, &err);
    if (rc == 0)
        assert_int_equal(pm_startup_mode_of(&o, mode, &err), 0);
    snprintf(msg, cap, "%s", err.message);
    pm_options_free(&o);
    return rc;
}

static void expect_mode(const char *const *kv, pm_startup_mode want)
{
    pm_startup_mode m = PM_STARTUP_LATEST_FULL;
    char msg[512];
    if (validate(kv, &m, msg, sizeof(msg)) != 0)
        fail_msg("%s=%s: %s", kv[0] != NULL ? kv[0] : "-", kv[0] != NULL ? kv[1] : "-", msg);
    assert_int_equal(m, want);
}

static void expect_invalid(const char *const *kv, const char *want)
{
    pm_startup_mode m;
    char msg[512];
    assert_int_equal(validate(kv, &m, msg, sizeof(msg)), PAIMON_EINVALID);
    if (strstr(msg, want) == NULL)
        fail_msg("got '%s', expected '%s'", msg, want);
}

static void test_mode_resolution(void **state)
{
    (void)state;
    expect_mode((const char *[]){NULL}, PM_STARTUP_LATEST_FULL);
    expect_mode((const char *[]){"scan.mode", "full", NULL}, PM_STARTUP_LATEST_FULL);
    expect_mode((const char *[]){"log.scan", "latest", NULL}, PM_STARTUP_LATEST);
    expect_mode((const char *[]){"scan.timestamp-millis", "5", NULL}, PM_STARTUP_FROM_TIMESTAMP);
    expect_mode((const char *[]){"log.scan.timestamp-millis", "5", NULL},
                PM_STARTUP_FROM_TIMESTAMP);
    expect_mode((const char *[]){"scan.timestamp", "2026-01-01", NULL}, PM_STARTUP_FROM_TIMESTAMP);
    expect_mode((const char *[]){"scan.tag-name", "t1", NULL}, PM_STARTUP_FROM_SNAPSHOT);
    expect_mode((const char *[]){"scan.watermark", "9", NULL}, PM_STARTUP_FROM_SNAPSHOT);
    expect_mode((const char *[]){"scan.file-creation-time-millis", "9", NULL},
                PM_STARTUP_FROM_FILE_CREATION_TIME);
    expect_mode((const char *[]){"scan.creation-time-millis", "9", NULL},
                PM_STARTUP_FROM_CREATION_TIMESTAMP);
    expect_mode((const char *[]){"incremental-between", "1,2", NULL}, PM_STARTUP_INCREMENTAL);
    expect_mode((const char *[]){"incremental-between-timestamp", "1,2", NULL},
                PM_STARTUP_INCREMENTAL);
    expect_mode((const char *[]){"scan.mode", "from-snapshot-full", "scan.snapshot-id", "3", NULL},
                PM_STARTUP_FROM_SNAPSHOT_FULL);
    expect_mode((const char *[]){"scan.mode", "compacted-full", NULL}, PM_STARTUP_COMPACTED_FULL);
    /* Java's SchemaValidation messages */
    expect_invalid((const char *[]){"scan.snapshot-id", "1", "scan.tag-name", "a", NULL},
                   "t: must set only one key in [scan.snapshot-id,scan.tag-name,scan.watermark] "
                   "when you use from-snapshot for scan.mode");
    expect_invalid((const char *[]){"scan.timestamp-millis", "1", "scan.snapshot-id", "2", NULL},
                   "t: [scan.snapshot-id] must be null when you set "
                   "[scan.timestamp-millis,scan.timestamp]");
    expect_invalid((const char *[]){"scan.mode", "latest", "scan.snapshot-id", "2", NULL},
                   "t: scan.snapshot-id must be null when you use latest for scan.mode");
    expect_invalid((const char *[]){"scan.mode", "from-snapshot-full", NULL},
                   "t: scan.snapshot-id can not be null when you use from-snapshot-full for "
                   "scan.mode");
    expect_invalid((const char *[]){"scan.mode", "from-file-creation-time", NULL},
                   "scan.file-creation-time-millis can not be null when you use "
                   "from-file-creation-time for scan.mode");
    expect_invalid((const char *[]){"incremental-between", "1,2", "scan.tag-name", "x", NULL},
                   "[incremental-between] must be null when you set "
                   "[scan.snapshot-id,scan.tag-name]");
    expect_invalid((const char *[]){"scan.version", "3", NULL},
                   "must set only one key in [scan.snapshot-id,scan.tag-name,scan.watermark]");
    expect_invalid((const char *[]){"scan.mode", "sideways", NULL},
                   "scan.mode: 'sideways' is not a scan mode");
}

/* Writes rows {k, v, kind} as one commit. */
static void write_rows(paimon_table *t, const int *k, const char *const *v, const int8_t *kind,
                       size_t n)
{
    paimon_writer *w = NULL;
    paimon_error err = {0};
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    for (size_t i = 0; i < n; i++) {
        paimon_value row[2];
        row[0].type = PAIMON_VALUE_INT;
        row[0].v.i = k[i];
        row[1].type = PAIMON_VALUE_TEXT;
        row[1].v.s.ptr = v[i];
        row[1].v.s.len = strlen(v[i]);
        if (paimon_writer_write_row(w, row, 2, kind[i], &err) != 0)
            fail_msg("write: %s", err.message);
    }
    commit_writer(t, w);
}

static void expect_rows(const pm_strlist *got, const char *const *want, size_t n, const char *what)
{
    if (got->count != n)
        fail_msg("%s: %zu rows, want %zu", what, got->count, n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(got->items[i], want[i]) != 0)
            fail_msg("%s: row %zu is %s, want %s", what, i, got->items[i], want[i]);
}

/* table-read.sequence-number.enabled: $audit_log and $binlog carry each row's sequence number
 * as `_SEQUENCE_NUMBER` BIGINT after rowkind (Java's AuditLogTable / BinlogTable).  A bucket's
 * writer numbers its records 0, 1, ... in write order across commits, so the numbers are known
 * from the writes: commit 1 writes keys 1, 2, 3 (0, 1, 2), commit 2 updates 2 (3) and deletes
 * 3 (4); the merged read keeps the latest record of each key. */
static void test_sequence_number(void **state)
{
    char *path = pm_test_table_path("seqnum");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"k"};
    const char *keys[2] = {"bucket", "table-read.sequence-number.enabled"};
    const char *vals[2] = {"1", "true"};
    paimon_table *t = NULL;
    paimon_error err = {0};
    pm_strlist got;
    (void)state;

    co.columns = "k INT NOT NULL, v STRING";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 2;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("create: %s", err.message);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    write_rows(t, (const int[]){1, 2, 3}, (const char *const[]){"a", "b", "c"},
               (const int8_t[]){PAIMON_ROW_INSERT, PAIMON_ROW_INSERT, PAIMON_ROW_INSERT}, 3);
    write_rows(t, (const int[]){2, 3}, (const char *const[]){"B", "c"},
               (const int8_t[]){PAIMON_ROW_INSERT, PAIMON_ROW_DELETE}, 2);

    assert_int_equal(scan_rows(t, "audit_log", NULL, NULL, 0, NULL, 0, &got, &err), 0);
    expect_rows(
        &got,
        (const char *const[]){"{\"rowkind\":\"+I\",\"_SEQUENCE_NUMBER\":0,\"k\":1,\"v\":\"a\"}",
                              "{\"rowkind\":\"+I\",\"_SEQUENCE_NUMBER\":3,\"k\":2,\"v\":\"B\"}",
                              "{\"rowkind\":\"-D\",\"_SEQUENCE_NUMBER\":4,\"k\":3,\"v\":\"c\"}"},
        3, "$audit_log");
    pm_strlist_free(&got);
    assert_int_equal(scan_rows(t, "binlog", NULL, NULL, 0, NULL, 0, &got, &err), 0);
    expect_rows(&got,
                (const char *const[]){
                    "{\"rowkind\":\"+I\",\"_SEQUENCE_NUMBER\":0,\"k\":[1],\"v\":[\"a\"]}",
                    "{\"rowkind\":\"+I\",\"_SEQUENCE_NUMBER\":3,\"k\":[2],\"v\":[\"B\"]}",
                    "{\"rowkind\":\"-D\",\"_SEQUENCE_NUMBER\":4,\"k\":[3],\"v\":[\"c\"]}"},
                3, "$binlog");
    pm_strlist_free(&got);
    {
        /* a column to select and filter on */
        paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
        const char *cols[2] = {"_SEQUENCE_NUMBER", "k"};
        paimon_scan *sc = NULL;
        paimon_cursor *cur = NULL;
        const char *json;
        size_t len;
        o.system_table = "audit_log";
        o.filter = "_SEQUENCE_NUMBER >= 3 AND rowkind = '+I'";
        o.columns = cols;
        o.column_count = 2;
        if (paimon_table_scan(&sc, t, &o, &err) != 0)
            fail_msg("scan: %s", err.message);
        assert_int_equal(paimon_scan_cursor(&cur, sc, &err), 0);
        assert_int_equal(paimon_cursor_next(cur, &err), 0);
        assert_int_equal(paimon_cursor_row_json(cur, &json, &len, &err), 0);
        assert_string_equal(json, "{\"_SEQUENCE_NUMBER\":3,\"k\":2}");
        assert_int_equal(paimon_cursor_next(cur, &err), PAIMON_ITEROVER);
        paimon_cursor_free(cur);
        paimon_scan_free(sc);
    }
    /* an incremental read: the delta of snapshot 2, each record with its own number */
    assert_int_equal(scan_rows(t, "audit_log", (const char *const[]){"incremental-between"},
                               (const char *const[]){"1,2"}, 1, NULL, 0, &got, &err),
                     0);
    expect_rows(
        &got,
        (const char *const[]){"{\"rowkind\":\"+I\",\"_SEQUENCE_NUMBER\":3,\"k\":2,\"v\":\"B\"}",
                              "{\"rowkind\":\"-D\",\"_SEQUENCE_NUMBER\":4,\"k\":3,\"v\":\"c\"}"},
        2, "incremental $audit_log");
    pm_strlist_free(&got);
    /* the table's own rows have no such column */
    assert_int_equal(scan_rows(t, NULL, NULL, NULL, 0, NULL, 0, &got, &err), 0);
    expect_rows(&got, (const char *const[]){"{\"k\":1,\"v\":\"a\"}", "{\"k\":2,\"v\":\"B\"}"}, 2,
                "batch read");
    pm_strlist_free(&got);
    paimon_table_free(t);
    pm_free(path);

    /* Java's SchemaValidation: only primary-key tables may set it */
    path = pm_test_table_path("seqnum_append");
    co.primary_keys = NULL;
    co.primary_key_count = 0;
    co.option_keys = &keys[1];
    co.option_values = &vals[1];
    co.option_count = 1;
    assert_int_not_equal(paimon_table_create(path, &co, &err), 0);
    assert_non_null(strstr(err.message, "for non-primary-key table"));
    pm_free(path);
}

/* incremental-to-auto-tag=END: the diff from the auto tag of the latest period before END's
 * to END (Java's IncrementalDiffStartingScanner.toEndAutoTag), so the same rows as
 * incremental-between=START,END; tags that are no auto tag ("x") are skipped; empty when END
 * does not exist or has no earlier auto tag; END must be an auto tag's name. */
static void test_to_auto_tag(void **state)
{
    char *path = pm_test_table_path("autotag");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    paimon_tag_options to = PAIMON_TAG_OPTIONS_INIT;
    const char *pks[1] = {"k"};
    const char *key[1] = {"incremental-to-auto-tag"};
    const char *between[1] = {"incremental-between"};
    const char *tags[4] = {"2026-12-01", "2026-12-03", "x", "2026-12-05"};
    paimon_table *t = NULL;
    paimon_error err = {0};
    pm_strlist got, want;
    (void)state;

    co.columns = "k INT NOT NULL, v STRING";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("create: %s", err.message);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    for (int i = 0; i < 4; i++) {
        char v[8];
        const char *vs[3] = {v, "d", "-"};
        snprintf(v, sizeof(v), "v%d", i);
        /* key i new, key 0 updated, key i-1 deleted from the second commit on */
        write_rows(t, (const int[]){i, 0, i - 1}, vs,
                   (const int8_t[]){PAIMON_ROW_INSERT, PAIMON_ROW_INSERT, PAIMON_ROW_DELETE},
                   i >= 2   ? 3
                   : i == 1 ? 2
                            : 1);
        if (paimon_tag_create(t, tags[i], &to, &err) != 0)
            fail_msg("tag: %s", err.message);
    }
    {
        static const char *const cases[][2] = {
            {"2026-12-05", "2026-12-03,2026-12-05"},
            {"2026-12-03", "2026-12-01,2026-12-03"},
        };
        for (size_t c = 0; c < 2; c++) {
            assert_int_equal(scan_rows(t, "audit_log", key, &cases[c][0], 1, NULL, 0, &got, &err),
                             0);
            assert_int_equal(
                scan_rows(t, "audit_log", between, &cases[c][1], 1, NULL, 0, &want, &err), 0);
            assert_true(want.count > 0);
            assert_same(&want, &got, cases[c][0]);
            pm_strlist_free(&got);
            pm_strlist_free(&want);
        }
    }
    /* the first auto tag, and one that does not exist: empty */
    assert_int_equal(scan_rows(t, "audit_log", key, &tags[0], 1, NULL, 0, &got, &err), 0);
    assert_int_equal(got.count, 0);
    pm_strlist_free(&got);
    assert_int_equal(
        scan_rows(t, NULL, key, (const char *const[]){"2026-12-10"}, 1, NULL, 0, &got, &err), 0);
    assert_int_equal(got.count, 0);
    pm_strlist_free(&got);
    assert_int_equal(scan_rows(t, NULL, key, &tags[2], 1, NULL, 0, &got, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "Specified tag 'x' is not an auto-created tag."));
    paimon_table_free(t);
    pm_free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mode_resolution),
        cmocka_unit_test(test_incremental_models),
        cmocka_unit_test(test_sequence_number),
        cmocka_unit_test(test_to_auto_tag),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
