/* The public writer API (include/paimon/write.h), used as an engine uses it: rows one at a
 * time and as Arrow arrays, prepare-commit, commit; four threads writing their own
 * partitions of one primary-key table and one commit of all; bad rows; overwrite; tables
 * with file.format=orc and file.format=avro. */
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "data/arrow.h"
#include "paimon.h"
#include "paimon/scan.h"
#include "paimon/write.h"
#include "util/alloc.h"

static char *make_table(const char *tag, const char *columns, const char *pk, const char *part,
                        const char *opt_key, const char *opt_value)
{
    char *path = pm_test_table_path(tag);
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {pk}, *parts[1] = {part}, *keys[1] = {opt_key}, *vals[1] = {opt_value};
    paimon_error err;
    co.columns = columns;
    co.primary_keys = pk != NULL ? pks : NULL;
    co.primary_key_count = pk != NULL;
    co.partition_keys = part != NULL ? parts : NULL;
    co.partition_key_count = part != NULL;
    co.option_keys = opt_key != NULL ? keys : NULL;
    co.option_values = opt_key != NULL ? vals : NULL;
    co.option_count = opt_key != NULL;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    return path;
}

/* The table's rows as sorted canonical JSON lines. */
static char *read_rows(const char *path, size_t *count)
{
    paimon_table *t;
    paimon_scan *scan;
    paimon_scan_options so = PAIMON_SCAN_OPTIONS_INIT;
    paimon_cursor *rows;
    paimon_error err;
    pm_strlist lines;
    pm_buf all;
    pm_strlist_init(&lines);
    pm_buf_init(&all, 0);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    if (paimon_table_scan(&scan, t, &so, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(paimon_scan_cursor(&rows, scan, &err), 0);
    while (paimon_cursor_next(rows, &err) == 0) {
        const char *json;
        size_t len;
        assert_int_equal(paimon_cursor_row_json(rows, &json, &len, &err), 0);
        assert_int_equal(pm_strlist_pushn(&lines, json, len), 0);
    }
    pm_strlist_sort(&lines);
    for (size_t i = 0; i < lines.count; i++) {
        pm_buf_puts(&all, lines.items[i]);
        pm_buf_putc(&all, '\n');
    }
    *count = lines.count;
    pm_strlist_free(&lines);
    paimon_cursor_free(rows);
    paimon_scan_free(scan);
    paimon_table_free(t);
    return (char *)pm_buf_detach(&all, NULL);
}

static int64_t commit(paimon_table *t, paimon_commit_messages *m, int overwrite)
{
    paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
    paimon_error err;
    int64_t id = 0;
    co.overwrite = overwrite;
    if (paimon_table_commit(t, m, &co, &id, &err) != 0)
        fail_msg("%s", err.message);
    return id;
}

static paimon_value text(const char *s)
{
    paimon_value v;
    v.type = PAIMON_VALUE_TEXT;
    v.v.s.ptr = s;
    v.v.s.len = strlen(s);
    return v;
}

static paimon_value integer(int64_t i)
{
    paimon_value v;
    v.type = PAIMON_VALUE_INT;
    v.v.i = i;
    return v;
}

static void test_rows_and_arrow(void **state)
{
    char *path = make_table("writer-rows",
                            "id BIGINT, name STRING, price DECIMAL(10, 2), at TIMESTAMP(3), "
                            "day DATE, tags ARRAY<STRING>",
                            "id", NULL, "bucket", "2");
    paimon_table *t;
    paimon_writer *w;
    paimon_commit_messages *m;
    paimon_error err;
    paimon_value row[6];
    struct ArrowSchema as;
    struct ArrowArray aa;
    pm_batch *b;
    char *got;
    size_t n;
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    /* row at a time: text converts as Java casts strings */
    row[0] = integer(1);
    row[1] = text("apple");
    row[2] = text("12.50");
    row[3] = text("2026-04-19 10:11:12.123");
    row[4] = text("2026-04-19");
    row[5].type = PAIMON_VALUE_NULL;
    assert_int_equal(paimon_writer_write_row(w, row, 6, PAIMON_ROW_INSERT, &err), 0);
    row[0] = integer(2);
    row[1] = text("pear");
    row[2] = integer(3);
    row[3].type = PAIMON_VALUE_TIMESTAMP;
    row[3].v.ts.millis = 0;
    row[3].v.ts.nanos = 0;
    row[4] = integer(1);
    assert_int_equal(paimon_writer_write_row(w, row, 6, PAIMON_ROW_INSERT, &err), 0);
    /* a nested column takes its canonical JSON as text; a bad one is refused, no partial row */
    row[0] = integer(3);
    row[5] = text("[\"a\", null, \"b\\\"c\"]");
    assert_int_equal(paimon_writer_write_row(w, row, 6, PAIMON_ROW_INSERT, &err), 0);
    row[0] = integer(4);
    row[5] = text("[\"a\", 1]");
    assert_int_equal(paimon_writer_write_row(w, row, 6, PAIMON_ROW_INSERT, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "column tags[1]: expected a string")); /* the element */
    row[5] = text("{\"a\": 1}");
    assert_int_equal(paimon_writer_write_row(w, row, 6, PAIMON_ROW_INSERT, &err), PAIMON_EINVALID);
    row[5].type = PAIMON_VALUE_NULL;
    row[0] = integer(2);
    /* a bad value is refused without poisoning the writer */
    row[2] = text("not a number");
    assert_int_equal(paimon_writer_write_row(w, row, 6, PAIMON_ROW_INSERT, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "price"));
    row[2] = integer(123456789012);
    assert_int_equal(paimon_writer_write_row(w, row, 6, PAIMON_ROW_INSERT, &err), PAIMON_EINVALID);
    /* Arrow: rows made as a batch, exported, written; key 1 is updated, 2 deleted */
    {
        pm_type *type;
        int8_t kinds[2] = {PAIMON_ROW_UPDATE_AFTER, PAIMON_ROW_DELETE};
        pm_datum d;
        assert_int_equal(pm_columns_parse("id BIGINT NOT NULL, name STRING, price DECIMAL(10, 2), "
                                          "at TIMESTAMP(3), day DATE, tags ARRAY<STRING>",
                                          &type, &err),
                         0);
        assert_int_equal(pm_batch_new(&b, type, &err), 0);
        for (int i = 0; i < 2; i++) {
            assert_int_equal(pm_column_append_i64(b->columns[0], i + 1), 0);
            assert_int_equal(pm_column_append_bytes(b->columns[1], "x", 1), 0);
            d.is_null = false;
            d.v.dec = 999;
            assert_int_equal(pm_column_append_datum(b->columns[2], &d), 0);
            assert_int_equal(pm_column_append_null(b->columns[3]), 0);
            assert_int_equal(pm_column_append_null(b->columns[4]), 0);
            assert_int_equal(pm_column_append_bytes(b->columns[5]->children[0], "t", 1), 0);
            assert_int_equal(pm_column_list_end(b->columns[5], true), 0);
        }
        assert_int_equal(pm_batch_set_rows(b, 2, &err), 0);
        assert_int_equal(pm_arrow_export_schema(type, &as, &err), 0);
        assert_int_equal(pm_arrow_export_batch(b, &aa, &err), 0);
        assert_int_equal(paimon_writer_write_arrow(w, &as, &aa, kinds, &err), 0);
        aa.release(&aa);
        as.release(&as);
        pm_type_free(type);
    }
    assert_int_equal(paimon_writer_rows(w), 5);
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
    assert_true(paimon_commit_messages_count(m) >= 1);
    assert_int_equal(commit(t, m, 0), 1);
    got = read_rows(path, &n);
    assert_int_equal(n, 2);
    assert_string_equal(
        got, "{\"id\":1,\"name\":\"x\",\"price\":\"9.99\",\"at\":null,\"day\":null,"
             "\"tags\":[\"t\"]}\n"
             "{\"id\":3,\"name\":\"pear\",\"price\":\"3.00\",\"at\":\"1970-01-01 "
             "00:00:00.000\",\"day\":\"1970-01-02\",\"tags\":[\"a\",null,\"b\\\"c\"]}\n");
    pm_free(got);
    paimon_commit_messages_free(m);
    paimon_writer_free(w);
    paimon_table_free(t);
    pm_free(path);
}

typedef struct thread_arg {
    paimon_table *table;
    int part;
    paimon_commit_messages *messages;
    int rc;
    char message[512];
} thread_arg;

static void *write_part(void *p)
{
    thread_arg *a = p;
    paimon_writer *w = NULL;
    paimon_error err;
    paimon_value row[3];
    paimon_writer_options wo = PAIMON_WRITER_OPTIONS_INIT;
    a->rc = paimon_writer_open(&w, a->table, &wo, &err);
    for (int i = 0; a->rc == 0 && i < 3000; i++) {
        row[0] = integer(i % 1000);
        row[1] = integer(a->part);
        row[2] = integer(i);
        a->rc = paimon_writer_write_row(w, row, 3, PAIMON_ROW_INSERT, &err);
    }
    if (a->rc == 0)
        a->rc = paimon_writer_prepare_commit(w, a->messages, &err);
    if (a->rc != 0)
        snprintf(a->message, sizeof(a->message), "%s", err.message);
    paimon_writer_free(w);
    return NULL;
}

/* async_compaction takes the three PAIMON_COMPACTION_* values; anything else is refused,
 * naming the field, and no writer is made. */
static void test_compaction_modes(void **state)
{
    static const int bad[2] = {3, -1};
    char *path = pm_test_table_path("writer-compaction-modes");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"id"};
    paimon_table *t;
    paimon_error err;
    (void)state;
    co.columns = "id BIGINT NOT NULL";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    assert_int_equal(paimon_table_create(path, &co, &err), 0);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    for (int mode = PAIMON_COMPACTION_SYNC; mode <= PAIMON_COMPACTION_ASYNC_FIXED; mode++) {
        paimon_writer_options o = PAIMON_WRITER_OPTIONS_INIT;
        paimon_writer *w = NULL;
        o.async_compaction = mode;
        assert_int_equal(paimon_writer_open(&w, t, &o, &err), 0);
        assert_non_null(w);
        paimon_writer_free(w);
    }
    for (int i = 0; i < 2; i++) {
        paimon_writer_options o = PAIMON_WRITER_OPTIONS_INIT;
        paimon_writer *w = NULL;
        o.async_compaction = bad[i];
        assert_int_equal(paimon_writer_open(&w, t, &o, &err), PAIMON_EINVALID);
        assert_null(w);
        assert_non_null(strstr(err.message, "async_compaction"));
    }
    paimon_table_free(t);
    pm_free(path);
}

static void test_threads(void **state)
{
    char *path;
    paimon_table *t;
    paimon_commit_messages *all;
    paimon_error err;
    pthread_t th[4];
    thread_arg args[4];
    char *got;
    size_t n;
    (void)state;
    /* a primary-key table (id, p) partitioned by p, dynamic buckets */
    {
        paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
        const char *pks[2] = {"id", "p"}, *parts[1] = {"p"};
        path = pm_test_table_path("writer-threads-pk2");
        co.columns = "id BIGINT, p INT, v BIGINT";
        co.primary_keys = pks;
        co.primary_key_count = 2;
        co.partition_keys = parts;
        co.partition_key_count = 1;
        assert_int_equal(paimon_table_create(path, &co, &err), 0);
    }
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_commit_messages_new(&all, &err), 0);
    for (int i = 0; i < 4; i++) {
        args[i].table = t;
        args[i].part = i;
        args[i].rc = 0;
        assert_int_equal(paimon_commit_messages_new(&args[i].messages, &err), 0);
        assert_int_equal(pthread_create(&th[i], NULL, write_part, &args[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        if (args[i].rc != 0)
            fail_msg("thread %d: %s", i, args[i].message);
        assert_int_equal(paimon_commit_messages_merge(all, args[i].messages, &err), 0);
        paimon_commit_messages_free(args[i].messages);
    }
    assert_int_equal(commit(t, all, 0), 1);
    got = read_rows(path, &n);
    assert_int_equal(n, 4000); /* 1000 keys per partition, the last value of each */
    assert_non_null(strstr(got, "{\"id\":999,\"p\":3,\"v\":2999}"));
    pm_free(got);
    paimon_commit_messages_free(all);
    paimon_table_free(t);
    pm_free(path);
}

static void test_bad_rows(void **state)
{
    char *path = make_table("writer-bad", "id BIGINT NOT NULL, v STRING", NULL, NULL, NULL, NULL);
    paimon_table *t;
    paimon_writer *w;
    paimon_commit_messages *m;
    paimon_error err;
    paimon_value row[2];
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    row[0] = integer(1);
    row[1] = text("a");
    assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), 0);
    /* append tables take no deletes */
    assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_DELETE, &err), 0);
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    assert_int_equal(paimon_writer_prepare_commit(w, m, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "row 1"));
    assert_non_null(strstr(err.message, "Append-only writer"));
    /* the writer is unusable now */
    assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), PAIMON_EINVALID);
    paimon_writer_free(w);
    /* a null in a NOT NULL column */
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    row[0].type = PAIMON_VALUE_NULL;
    assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), 0);
    assert_int_equal(paimon_writer_prepare_commit(w, m, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "Cannot write null to non-null column(id)"));
    assert_int_equal(paimon_writer_write_row(w, row, 1, PAIMON_ROW_INSERT, &err), PAIMON_EINVALID);
    paimon_writer_free(w);
    assert_int_equal(paimon_commit_messages_count(m), 0);
    /* nothing was committed and no data file is left */
    {
        pm_strlist files;
        pm_strlist_init(&files);
        pm_test_find_files(path, "data-", &files);
        assert_int_equal(files.count, 0);
        pm_strlist_free(&files);
    }
    paimon_commit_messages_free(m);
    paimon_table_free(t);
    pm_free(path);
}

/* A double beyond FLOAT's range is refused as `paimon write` refuses "1e39" (not written as
 * an infinity); the infinities and NaN themselves are values. */
static void test_float_range(void **state)
{
    char *path = make_table("writer-float", "id INT, f FLOAT", NULL, NULL, NULL, NULL);
    paimon_table *t;
    paimon_writer *w;
    paimon_error err;
    paimon_value row[2];
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    row[0] = integer(1);
    row[1].type = PAIMON_VALUE_DOUBLE;
    row[1].v.d = 1e39;
    assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "column f"));
    assert_non_null(strstr(err.message, "out of the range of FLOAT"));
    row[1].v.d = -1e39;
    assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), PAIMON_EINVALID);
    row[1].v.d = 3.0e38;
    assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), 0);
    row[1].v.d = -INFINITY;
    assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), 0);
    paimon_writer_free(w);
    paimon_table_free(t);
    pm_free(path);
}

static void test_overwrite(void **state)
{
    char *path = make_table("writer-ow", "id BIGINT, p INT", NULL, "p", NULL, NULL);
    paimon_table *t;
    paimon_error err;
    paimon_value row[2];
    char *got;
    size_t n;
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    for (int round = 0; round < 2; round++) {
        paimon_writer *w;
        paimon_commit_messages *m;
        paimon_writer_options wo = PAIMON_WRITER_OPTIONS_INIT;
        wo.overwrite = round == 1;
        assert_int_equal(paimon_writer_open(&w, t, &wo, &err), 0);
        for (int i = 0; i < (round == 0 ? 10 : 2); i++) {
            row[0] = integer(round * 100 + i);
            row[1] = integer(round == 0 ? i % 2 : 1); /* the overwrite replaces p=1 only */
            assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), 0);
        }
        assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
        assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
        commit(t, m, round == 1);
        paimon_commit_messages_free(m);
        paimon_writer_free(w);
    }
    got = read_rows(path, &n);
    assert_int_equal(n, 7); /* 5 rows of p=0 and the 2 new rows of p=1 */
    pm_free(got);
    paimon_table_free(t);
    pm_free(path);
}

/* Partition specs through the C API: a DATE partition named by its value (its directory is
 * dt=20562), in paimon_table_check_partition, an overwrite commit and a compaction; values
 * that do not parse and columns that are no partition keys are PAIMON_EINVALID. */
static void test_partition_spec(void **state)
{
    char *path = make_table("writer-spec", "id BIGINT, dt DATE", NULL, "dt", "write-only", "true");
    const char *good[1] = {"dt=2026-04-19"}, *bad[1] = {"dt=20562"}, *other[1] = {"id=1"};
    paimon_table *t;
    paimon_error err;
    paimon_value row[2];
    paimon_compact_options ko = PAIMON_COMPACT_OPTIONS_INIT;
    int64_t id = 0;
    char *got;
    size_t n;
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_table_check_partition(t, good, 1, &err), 0);
    assert_int_equal(paimon_table_check_partition(t, bad, 1, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "partition 'dt=20562': column dt: "));
    assert_int_equal(paimon_table_check_partition(t, other, 1, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "id is not a partition column"));
    for (int round = 0; round < 3; round++) {
        paimon_writer *w;
        paimon_commit_messages *m;
        paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
        assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
        row[0] = integer(round);
        row[1] = text(round == 1 ? "2026-04-20" : "2026-04-19");
        assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), 0);
        assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
        assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
        co.overwrite = round == 2; /* replaces 2026-04-19 only */
        co.partition = round == 2 ? good : NULL;
        co.partition_count = round == 2;
        if (paimon_table_commit(t, m, &co, &id, &err) != 0)
            fail_msg("%s", err.message);
        paimon_commit_messages_free(m);
        paimon_writer_free(w);
    }
    got = read_rows(path, &n);
    assert_string_equal(got,
                        "{\"id\":1,\"dt\":\"2026-04-20\"}\n{\"id\":2,\"dt\":\"2026-04-19\"}\n");
    pm_free(got);
    ko.partition = bad;
    ko.partition_count = 1;
    assert_int_equal(paimon_table_compact(t, &ko, &id, &err), PAIMON_EINVALID);
    ko.partition = good;
    assert_int_equal(paimon_table_compact(t, &ko, &id, &err), 0);
    paimon_table_free(t);
    pm_free(path);
}

/* Text input through paimon_input_write(): a row limit cuts batches (a commit every 3 rows
 * of 10), row kinds from _ROW_KIND, and an error of the writer's own checks names the line. */
static void test_input(void **state)
{
    static const char JSONL[] = "{\"id\":1,\"v\":\"a\"}\n{\"id\":2,\"v\":\"b\"}\n"
                                "{\"id\":3}\n{\"id\":4}\n{\"id\":5}\n{\"id\":6}\n\n"
                                "{\"id\":7}\n{\"id\":8}\n{\"id\":9}\n"
                                "{\"id\":2,\"_ROW_KIND\":\"-D\"}\n";
    static const char BAD[] = "{\"id\":1}\n\n{\"id\":2,\"_ROW_KIND\":\"-U\"}\n";
    char *path = make_table("writer-input", "id BIGINT, v STRING", "id", NULL, "bucket", "2");
    char *apath = make_table("writer-input-a", "id BIGINT, v STRING", NULL, NULL, NULL, NULL);
    paimon_table *t;
    paimon_writer *w;
    paimon_input *in;
    paimon_error err;
    FILE *f;
    int64_t rows, got[8];
    size_t calls = 0, n;
    int rc;
    char *all;
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    f = fmemopen((void *)JSONL, sizeof(JSONL) - 1, "r");
    assert_non_null(f);
    assert_int_not_equal(paimon_input_open(&in, w, f, "xml", &err), 0);
    assert_int_equal(paimon_input_open(&in, w, f, "jsonl", &err), 0);
    do {
        paimon_commit_messages *m;
        rc = paimon_input_write(in, w, 3, &rows, &err);
        if (rc != 0 && rc != PAIMON_ITEROVER)
            fail_msg("%s", err.message);
        got[calls++] = rows;
        assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
        assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
        commit(t, m, 0);
        paimon_commit_messages_free(m);
    } while (rc == 0 && calls < 8);
    assert_int_equal(calls, 4);
    assert_int_equal(got[0], 3);
    assert_int_equal(got[1], 3);
    assert_int_equal(got[2], 3);
    assert_int_equal(got[3], 1);
    assert_int_equal(paimon_input_line(in), 11);
    paimon_input_free(in);
    fclose(f);
    paimon_writer_free(w);
    paimon_table_free(t);
    all = read_rows(path, &n);
    assert_int_equal(n, 8); /* 9 keys, 2 deleted by the last line */
    assert_null(strstr(all, "\"id\":2,"));
    pm_free(all);

    /* an append table refuses -U: the message names line 3 and nothing is left to commit */
    assert_int_equal(paimon_table_open(&t, apath, &err), 0);
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    f = fmemopen((void *)BAD, sizeof(BAD) - 1, "r");
    assert_int_equal(paimon_input_open(&in, w, f, "jsonl", &err), 0);
    assert_int_equal(paimon_input_write(in, w, 0, &rows, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "line 3: Append-only writer"));
    {
        paimon_commit_messages *m;
        assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
        assert_int_not_equal(paimon_writer_prepare_commit(w, m, &err), 0); /* unusable */
        paimon_commit_messages_free(m);
    }
    paimon_input_free(in);
    fclose(f);
    paimon_writer_free(w);
    paimon_table_free(t);
    pm_free(path);
    pm_free(apath);
}

/* Whether a data file ending in `ext` exists under `dir` (one level of partition and bucket
 * directories below it). */
static bool has_data_file(const char *dir, const char *ext, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool found = false;
    if (d == NULL)
        return false;
    while (!found && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name), k = strlen(ext);
        char sub[4096];
        if (e->d_name[0] == '.')
            continue;
        if (strncmp(e->d_name, "data-", 5) == 0 && n > k && strcmp(e->d_name + n - k, ext) == 0) {
            found = true;
            break;
        }
        snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
        if (depth > 0 && strncmp(e->d_name, "manifest", 8) != 0)
            found = has_data_file(sub, ext, depth - 1);
    }
    closedir(d);
    return found;
}

/* ORC and Avro data files through the public API: two commits (inserts, then an update and
 * a delete) of a partitioned primary-key table read back as written. */
static void test_orc_avro(void **state)
{
    static const char *const FORMATS[] = {"orc", "avro"};
    (void)state;
    for (size_t f = 0; f < 2; f++) {
        char *path = make_table(FORMATS[f], "id BIGINT, p STRING, v VARCHAR(8), d DOUBLE", "id",
                                "p", "file.format", FORMATS[f]);
        paimon_table *t;
        paimon_writer *w;
        paimon_commit_messages *m;
        paimon_error err;
        paimon_value row[4];
        char ext[8], *got;
        size_t n;
        assert_int_equal(paimon_table_open(&t, path, &err), 0);
        for (int round = 0; round < 2; round++) {
            assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
            for (int i = 0; i < (round == 0 ? 300 : 2); i++) {
                char v[16];
                snprintf(v, sizeof(v), "v%d", round == 0 ? i : 1000 + i);
                row[0] = integer(i);
                row[1] = text(i % 2 ? "odd" : "even");
                row[2] = i % 7 == 3 ? (paimon_value){.type = PAIMON_VALUE_NULL} : text(v);
                row[3].type = PAIMON_VALUE_NULL;
                assert_int_equal(paimon_writer_write_row(w, row, 4,
                                                         round == 0 ? PAIMON_ROW_INSERT
                                                         : i == 0   ? PAIMON_ROW_UPDATE_AFTER
                                                                    : PAIMON_ROW_DELETE,
                                                         &err),
                                 0);
            }
            assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
            assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
            assert_int_equal(commit(t, m, 0), round + 1);
            paimon_commit_messages_free(m);
            paimon_writer_free(w);
        }
        got = read_rows(path, &n);
        assert_int_equal(n, 299); /* 300 keys, one deleted */
        assert_non_null(strstr(got, "{\"id\":0,\"p\":\"even\",\"v\":\"v1000\",\"d\":null}\n"));
        assert_null(strstr(got, "\"id\":1,"));
        assert_non_null(strstr(got, "{\"id\":3,\"p\":\"odd\",\"v\":null,\"d\":null}\n"));
        assert_non_null(strstr(got, "{\"id\":299,\"p\":\"odd\",\"v\":\"v299\",\"d\":null}\n"));
        snprintf(ext, sizeof(ext), ".%s", FORMATS[f]);
        assert_true(has_data_file(path, ext, 2));
        assert_false(has_data_file(path, f == 0 ? ".parquet" : ".orc", 2));
        pm_free(got);
        paimon_table_free(t);
        pm_free(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_and_arrow),   cmocka_unit_test(test_threads),
        cmocka_unit_test(test_bad_rows),         cmocka_unit_test(test_overwrite),
        cmocka_unit_test(test_partition_spec),   cmocka_unit_test(test_input),
        cmocka_unit_test(test_orc_avro),         cmocka_unit_test(test_float_range),
        cmocka_unit_test(test_compaction_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
