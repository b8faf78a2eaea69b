/* The one cursor (include/paimon/cursor.h) over each of its sources: every split of a scan of
 * a primary-key table, one split, a system table, an empty table, a single data file; the
 * Arrow stream of a cursor read part of the way; the misuse checks.  The cursor of a change
 * snapshot (row kinds) is tested in test_changes.c. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "paimon.h"
#include "util/alloc.h"

#define ROWS 30 /* rows of the test table, ids 0..29, in two partitions and two buckets */

/* A primary-key table `id BIGINT, p STRING, v STRING, d DECIMAL(5, 2)` partitioned by p,
 * bucket 2, written in two commits (the second updates ids 0..9), with batch_rows small
 * enough that reads span several batches. */
static char *make_table(void)
{
    char *path = pm_test_table_path("cursor");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[2] = {"id", "p"}, *parts[1] = {"p"}, *keys[1] = {"bucket"}, *vals[1] = {"2"};
    paimon_table *t;
    paimon_error err;
    co.columns = "id BIGINT, p STRING, v STRING, d DECIMAL(5, 2)";
    co.primary_keys = pks;
    co.primary_key_count = 2;
    co.partition_keys = parts;
    co.partition_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 1;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    for (int commit = 0; commit < 2; commit++) {
        paimon_writer *w;
        paimon_commit_messages *m;
        assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
        for (int id = 0; id < (commit == 0 ? ROWS : 10); id++) {
            char v[16];
            paimon_value row[4];
            snprintf(v, sizeof(v), "v%d-%d", id, commit);
            row[0].type = PAIMON_VALUE_INT;
            row[0].v.i = id;
            row[1].type = PAIMON_VALUE_TEXT;
            row[1].v.s.ptr = id % 2 == 0 ? "a" : "b";
            row[1].v.s.len = 1;
            row[2].type = id == 7 ? PAIMON_VALUE_NULL : PAIMON_VALUE_TEXT;
            row[2].v.s.ptr = v;
            row[2].v.s.len = strlen(v);
            row[3].type = PAIMON_VALUE_INT;
            row[3].v.i = id;
            if (paimon_writer_write_row(w, row, 4, PAIMON_ROW_INSERT, &err) != 0)
                fail_msg("%s", err.message);
        }
        assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
        assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
        if (paimon_table_commit(t, m, NULL, NULL, &err) != 0)
            fail_msg("%s", err.message);
        paimon_commit_messages_free(m);
        paimon_writer_free(w);
    }
    paimon_table_free(t);
    return path;
}

static int setup(void **state)
{
    *state = make_table();
    return 0;
}

static int teardown(void **state)
{
    pm_free(*state);
    return 0;
}

static paimon_scan *scan_of(paimon_table *t, const char *system_table, int64_t batch_rows)
{
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_scan *scan;
    paimon_error err;
    o.system_table = system_table;
    o.batch_rows = batch_rows;
    if (paimon_table_scan(&scan, t, &o, &err) != 0)
        fail_msg("%s", err.message);
    return scan;
}

/* Reads the cursor to its end; returns the row count and checks every accessor on each row.
 * `ids`, when given, counts how often each id (column 0) was seen. */
static int64_t drain(paimon_cursor *cur, int *ids)
{
    paimon_error err;
    int64_t n = 0;
    int rc;
    while ((rc = paimon_cursor_next(cur, &err)) == 0) {
        const char *text, *json;
        size_t len, jlen;
        assert_int_equal(paimon_cursor_row_kind(cur), PAIMON_ROW_INSERT);
        assert_int_equal(paimon_cursor_row_json(cur, &json, &jlen, &err), 0);
        assert_int_equal(strlen(json), jlen);
        assert_true(json[0] == '{' && json[jlen - 1] == '}');
        assert_int_equal(paimon_cursor_value_text(cur, 0, &text, &len, &err), 0);
        if (ids != NULL) {
            long id = strtol(text, NULL, 10);
            assert_true(id >= 0 && id < ROWS);
            ids[id]++;
        }
        n++;
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    assert_int_equal(paimon_cursor_next(cur, &err), PAIMON_ITEROVER); /* and again */
    return n;
}

static void test_scan_every_split(void **state)
{
    paimon_table *t;
    paimon_scan *scan;
    paimon_cursor *cur;
    paimon_error err;
    int ids[ROWS] = {0};
    const char *text, *json;
    size_t len;
    assert_int_equal(paimon_table_open(&t, *state, &err), 0);
    scan = scan_of(t, NULL, 3);
    assert_true(paimon_scan_split_count(scan) >= 2);
    assert_int_equal(paimon_scan_cursor(&cur, scan, &err), 0);
    /* columns before the first row */
    assert_int_equal(paimon_cursor_column_count(cur), 4);
    assert_string_equal(paimon_cursor_column_name(cur, 0), "id");
    assert_string_equal(paimon_cursor_column_type(cur, 0), "BIGINT NOT NULL");
    assert_string_equal(paimon_cursor_column_type(cur, 3), "DECIMAL(5, 2)");
    assert_null(paimon_cursor_column_name(cur, 4));
    assert_null(paimon_cursor_column_type(cur, 4));
    /* no current row yet */
    assert_int_equal(paimon_cursor_value_text(cur, 0, &text, &len, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_cursor_row_json(cur, &json, &len, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_cursor_row_kind(cur), PAIMON_EINVALID);
    assert_int_equal(drain(cur, ids), ROWS);
    for (int i = 0; i < ROWS; i++)
        assert_int_equal(ids[i], 1); /* merged: each key once */
    /* after the end: no current row, columns still there */
    assert_int_equal(paimon_cursor_value_text(cur, 0, &text, &len, &err), PAIMON_EINVALID);
    assert_string_equal(paimon_cursor_column_name(cur, 2), "v");
    paimon_cursor_free(cur);
    paimon_scan_free(scan);
    paimon_table_free(t);
}

/* The value text and JSON of one known row, found through the cursor. */
static void test_values(void **state)
{
    paimon_table *t;
    paimon_scan *scan;
    paimon_cursor *cur;
    paimon_error err;
    bool seen7 = false, seen3 = false;
    assert_int_equal(paimon_table_open(&t, *state, &err), 0);
    scan = scan_of(t, NULL, 0);
    assert_int_equal(paimon_scan_cursor(&cur, scan, &err), 0);
    while (paimon_cursor_next(cur, &err) == 0) {
        const char *text, *v, *json;
        char id[24];
        size_t len;
        assert_int_equal(paimon_cursor_value_text(cur, 0, &text, NULL, &err), 0);
        snprintf(id, sizeof(id), "%s", text); /* the text is valid until the next call */
        assert_int_equal(paimon_cursor_value_text(cur, 2, &v, &len, &err), 0);
        if (strcmp(id, "7") == 0) {
            assert_null(v); /* a null */
            assert_int_equal(len, 0);
            assert_int_equal(paimon_cursor_row_json(cur, &json, NULL, &err), 0);
            assert_string_equal(json, "{\"id\":7,\"p\":\"b\",\"v\":null,\"d\":\"7.00\"}");
            seen7 = true;
        } else if (strcmp(id, "3") == 0) {
            assert_string_equal(v, "v3-1"); /* the second commit's value */
            assert_int_equal(len, 4);
            assert_int_equal(paimon_cursor_value_text(cur, 3, &v, NULL, &err), 0);
            assert_string_equal(v, "3.00"); /* decimals without their JSON quotes */
            seen3 = true;
        }
    }
    assert_true(seen7 && seen3);
    assert_int_equal(paimon_cursor_value_text(cur, 9, &(const char *){NULL}, NULL, &err),
                     PAIMON_EINVALID);
    paimon_cursor_free(cur);
    paimon_scan_free(scan);
    paimon_table_free(t);
}

static void test_one_split(void **state)
{
    paimon_table *t;
    paimon_scan *scan;
    paimon_cursor *cur = (paimon_cursor *)1;
    paimon_error err;
    int ids[ROWS] = {0};
    int64_t total = 0;
    size_t n;
    assert_int_equal(paimon_table_open(&t, *state, &err), 0);
    scan = scan_of(t, NULL, 4);
    n = paimon_scan_split_count(scan);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(paimon_scan_split_cursor(&cur, scan, i, &err), 0);
        assert_int_equal(paimon_cursor_column_count(cur), 4);
        total += drain(cur, ids);
        paimon_cursor_free(cur);
    }
    assert_int_equal(total, ROWS);
    for (int i = 0; i < ROWS; i++)
        assert_int_equal(ids[i], 1);
    assert_int_equal(paimon_scan_split_cursor(&cur, scan, n, &err), PAIMON_EINVALID);
    assert_null(cur);
    assert_non_null(strstr(err.message, "paimon_scan_split_cursor"));
    paimon_scan_free(scan);
    paimon_table_free(t);
}

static void test_system_table(void **state)
{
    paimon_table *t;
    paimon_scan *scan;
    paimon_cursor *cur;
    paimon_error err;
    const char *text;
    int64_t rows = 0;
    assert_int_equal(paimon_table_open(&t, *state, &err), 0);
    scan = scan_of(t, "snapshots", 1);
    assert_int_equal(paimon_scan_cursor(&cur, scan, &err), 0);
    assert_string_equal(paimon_cursor_column_name(cur, 0), "snapshot_id");
    while (paimon_cursor_next(cur, &err) == 0) {
        char want[24];
        rows++;
        snprintf(want, sizeof(want), "%lld", (long long)rows);
        assert_int_equal(paimon_cursor_value_text(cur, 0, &text, NULL, &err), 0);
        assert_string_equal(text, want);
        assert_int_equal(paimon_cursor_row_kind(cur), PAIMON_ROW_INSERT);
    }
    assert_int_equal(rows, 2);
    paimon_cursor_free(cur);
    paimon_scan_free(scan);
    paimon_table_free(t);
}

/* Reads a stream to its end: the rows, the sum of column 0 (BIGINT ids), the number of
 * batches and the length of the first. */
static int64_t first_len;
static int64_t stream_rows(struct ArrowArrayStream *s, int64_t *id_sum, int64_t *batches)
{
    struct ArrowSchema schema;
    int64_t n = 0;
    assert_int_equal(s->get_schema(s, &schema), 0);
    assert_string_equal(schema.format, "+s");
    assert_string_equal(schema.children[0]->format, "l");
    schema.release(&schema);
    *id_sum = 0;
    *batches = 0;
    for (;;) {
        struct ArrowArray a;
        assert_int_equal(s->get_next(s, &a), 0);
        if (a.release == NULL)
            break;
        const int64_t *ids = (const int64_t *)a.children[0]->buffers[1] + a.children[0]->offset;
        for (int64_t i = 0; i < a.length; i++)
            *id_sum += ids[i];
        if (*batches == 0)
            first_len = a.length;
        n += a.length;
        (*batches)++;
        a.release(&a);
    }
    s->release(s);
    return n;
}

static void test_arrow_stream_of_partly_read_cursor(void **state)
{
    paimon_table *t;
    paimon_scan *scan;
    paimon_cursor *cur;
    paimon_error err;
    struct ArrowArrayStream s;
    int64_t read_sum = 0, sum, batches, n;
    assert_int_equal(paimon_table_open(&t, *state, &err), 0);
    scan = scan_of(t, NULL, 4);
    /* a whole cursor as a stream: every row */
    assert_int_equal(paimon_scan_cursor(&cur, scan, &err), 0);
    assert_int_equal(paimon_cursor_arrow_stream(cur, &s, &err), 0);
    assert_int_equal(paimon_cursor_next(cur, &err), PAIMON_ITEROVER);
    paimon_cursor_free(cur);
    assert_int_equal(stream_rows(&s, &sum, &batches), ROWS);
    assert_int_equal(sum, ROWS * (ROWS - 1) / 2);

    /* 6 rows read (into the second batch of 4), the rest as a stream: the 2 rows left of the
     * current batch come first, as a batch of their own */
    assert_int_equal(paimon_scan_cursor(&cur, scan, &err), 0);
    for (int i = 0; i < 6; i++) {
        const char *text;
        assert_int_equal(paimon_cursor_next(cur, &err), 0);
        assert_int_equal(paimon_cursor_value_text(cur, 0, &text, NULL, &err), 0);
        read_sum += strtol(text, NULL, 10);
    }
    assert_int_equal(paimon_cursor_arrow_stream(cur, &s, &err), 0);
    /* handed over: no current row, no more rows, the columns stay */
    assert_int_equal(paimon_cursor_row_kind(cur), PAIMON_EINVALID);
    assert_int_equal(paimon_cursor_next(cur, &err), PAIMON_ITEROVER);
    assert_string_equal(paimon_cursor_column_name(cur, 1), "p");
    n = stream_rows(&s, &sum, &batches);
    assert_int_equal(n, ROWS - 6);
    assert_true(first_len >= 1 && first_len <= 4);
    assert_int_equal(sum + read_sum, ROWS * (ROWS - 1) / 2); /* exactly the rows not read */
    /* a second stream of the cursor is empty */
    assert_int_equal(paimon_cursor_arrow_stream(cur, &s, &err), 0);
    assert_int_equal(stream_rows(&s, &sum, &batches), 0);
    assert_int_equal(batches, 0);
    paimon_cursor_free(cur);

    /* a cursor read to its end gives an empty stream */
    assert_int_equal(paimon_scan_split_cursor(&cur, scan, 0, &err), 0);
    drain(cur, NULL);
    assert_int_equal(paimon_cursor_arrow_stream(cur, &s, &err), 0);
    paimon_cursor_free(cur);
    assert_int_equal(stream_rows(&s, &sum, &batches), 0);
    paimon_scan_free(scan);
    paimon_table_free(t);
}

/* A table without snapshots reads as empty; an explicit snapshot of it is still an error. */
static void test_empty_table(void **state)
{
    char *path = pm_test_table_path("cursor-empty");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_table *t;
    paimon_scan *scan;
    paimon_cursor *cur;
    paimon_error err;
    struct ArrowArrayStream s;
    int64_t sum, batches;
    (void)state;
    co.columns = "id BIGINT, v STRING";
    assert_int_equal(paimon_table_create(path, &co, &err), 0);
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    for (int ro = 0; ro < 2; ro++) {
        o.system_table = ro ? "ro" : NULL;
        o.filter = "id > 3";
        assert_int_equal(paimon_table_scan(&scan, t, &o, &err), 0);
        assert_int_equal(paimon_scan_snapshot_id(scan), -1);
        assert_int_equal(paimon_scan_split_count(scan), 0);
        assert_int_equal(paimon_scan_column_count(scan), 2);
        assert_int_equal(paimon_scan_cursor(&cur, scan, &err), 0);
        assert_string_equal(paimon_cursor_column_type(cur, 1), "STRING");
        assert_int_equal(paimon_cursor_next(cur, &err), PAIMON_ITEROVER);
        assert_int_equal(paimon_cursor_arrow_stream(cur, &s, &err), 0);
        assert_int_equal(stream_rows(&s, &sum, &batches), 0);
        paimon_cursor_free(cur);
        paimon_scan_free(scan);
    }
    /* the filter is still checked */
    o.system_table = NULL;
    o.filter = "nope > 3";
    assert_int_equal(paimon_table_scan(&scan, t, &o, &err), PAIMON_ENOTFOUND);
    o.filter = NULL;
    o.snapshot_id = 1;
    assert_int_equal(paimon_table_scan(&scan, t, &o, &err), PAIMON_ENOTFOUND);
    o.snapshot_id = 0;
    o.tag = "t1";
    assert_int_equal(paimon_table_scan(&scan, t, &o, &err), PAIMON_ENOTFOUND);
    paimon_table_free(t);
    pm_free(path);
}

static void test_data_file(void **state)
{
    pm_strlist files;
    paimon_file *f;
    paimon_cursor *cur, *cur2;
    paimon_file_read_options o = PAIMON_FILE_READ_OPTIONS_INIT;
    paimon_error err;
    const char *cols[2] = {"v", "id"}, *bad[1] = {"zz"}, *text;
    const int64_t ranges[4] = {1, 3, 4, 5}; /* rows 1, 2 and 4 */
    int64_t rows = 0, sum, batches;
    struct ArrowArrayStream s;
    const char *path = NULL;
    pm_strlist_init(&files);
    pm_test_find_files(*state, "data-", &files);
    for (size_t i = 0; i < files.count && rows < 5; i++) { /* a file of the first commit */
        assert_int_equal(paimon_file_open(&f, files.items[i], &err), 0);
        rows = paimon_file_row_count(f);
        path = files.items[i];
        if (rows < 5)
            paimon_file_free(f);
    }
    assert_true(rows >= 5);
    /* every column (NULL options) */
    assert_int_equal(paimon_file_cursor(&cur, f, NULL, &err), 0);
    assert_int_equal(paimon_cursor_column_count(cur), paimon_file_column_count(f));
    assert_int_equal(drain(cur, NULL), rows);
    paimon_cursor_free(cur);
    /* two columns in another order, three row positions; a second cursor at the same time */
    o.columns = cols;
    o.column_count = 2;
    o.row_ranges = ranges;
    o.row_range_count = 2;
    o.batch_rows = 1;
    assert_int_equal(paimon_file_cursor(&cur, f, &o, &err), 0);
    assert_int_equal(paimon_file_cursor(&cur2, f, NULL, &err), 0);
    paimon_file_free(f); /* the cursors read through their own handles */
    assert_int_equal(paimon_cursor_column_count(cur), 2);
    assert_string_equal(paimon_cursor_column_name(cur, 0), "v");
    assert_string_equal(paimon_cursor_column_name(cur, 1), "id");
    assert_int_equal(paimon_cursor_next(cur, &err), 0);
    assert_int_equal(paimon_cursor_next(cur2, &err), 0);
    assert_int_equal(paimon_cursor_value_text(cur, 1, &text, NULL, &err), 0);
    assert_int_equal(paimon_cursor_row_kind(cur), PAIMON_ROW_INSERT);
    assert_int_equal(drain(cur, NULL), 2);
    assert_int_equal(drain(cur2, NULL) + 1, rows);
    paimon_cursor_free(cur);
    paimon_cursor_free(cur2);
    /* the Arrow stream outlives the file and the cursor */
    assert_int_equal(paimon_file_open(&f, path, &err), 0);
    o.columns = NULL;
    o.column_count = 0;
    o.row_ranges = NULL;
    o.row_range_count = 0;
    assert_int_equal(paimon_file_cursor(&cur, f, &o, &err), 0);
    assert_int_equal(paimon_cursor_next(cur, &err), 0);
    assert_int_equal(paimon_cursor_arrow_stream(cur, &s, &err), 0);
    paimon_cursor_free(cur);
    paimon_file_free(f);
    assert_int_equal(stream_rows(&s, &sum, &batches), rows - 1);
    assert_int_equal(batches, rows - 1); /* batch_rows 1 */
    /* 4 rows read in batches of 3: the stream starts with the 2 rows left of the second */
    assert_int_equal(paimon_file_open(&f, path, &err), 0);
    o.batch_rows = 3;
    assert_int_equal(paimon_file_cursor(&cur, f, &o, &err), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(paimon_cursor_next(cur, &err), 0);
    assert_int_equal(paimon_cursor_arrow_stream(cur, &s, &err), 0);
    paimon_cursor_free(cur);
    paimon_file_free(f);
    assert_int_equal(stream_rows(&s, &sum, &batches), rows - 4);
    assert_int_equal(first_len, rows >= 6 ? 2 : rows - 4);
    /* unknown and repeated columns */
    assert_int_equal(paimon_file_open(&f, path, &err), 0);
    o.columns = bad;
    o.column_count = 1;
    assert_int_equal(paimon_file_cursor(&cur, f, &o, &err), PAIMON_ENOTFOUND);
    assert_null(cur);
    cols[0] = "id";
    o.columns = cols;
    o.column_count = 2;
    assert_int_equal(paimon_file_cursor(&cur, f, &o, &err), PAIMON_EINVALID);
    paimon_file_free(f);
    pm_strlist_free(&files);
}

static void test_misuse(void **state)
{
    paimon_cursor *cur = (paimon_cursor *)1;
    paimon_error err;
    struct ArrowArrayStream s;
    (void)state;
    assert_int_equal(paimon_scan_cursor(&cur, NULL, &err), PAIMON_EINVALID);
    assert_null(cur);
    assert_int_equal(paimon_scan_cursor(NULL, NULL, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_changes_cursor(&cur, NULL, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_file_cursor(&cur, NULL, NULL, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_cursor_next(NULL, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_cursor_arrow_stream(NULL, &s, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_cursor_row_kind(NULL), PAIMON_EINVALID);
    assert_int_equal(paimon_cursor_column_count(NULL), 0);
    assert_null(paimon_cursor_column_name(NULL, 0));
    paimon_cursor_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scan_every_split),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_one_split),
        cmocka_unit_test(test_system_table),
        cmocka_unit_test(test_arrow_stream_of_partly_read_cursor),
        cmocka_unit_test(test_empty_table),
        cmocka_unit_test(test_data_file),
        cmocka_unit_test(test_misuse),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
