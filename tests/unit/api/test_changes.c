/* The public change-read API (include/paimon/changes.h) on a table written through the
 * writer API with changelog-producer=input: snapshot by snapshot, row kinds, a column
 * projection, the range rules, the cursor of a snapshot (rows, kinds, Arrow stream) and the
 * misuse checks (no current snapshot, a second cursor, bad options). */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "paimon.h"
#include "util/alloc.h"

/* The current snapshot's rows as one string of JSON lines, read through its cursor; the row
 * kinds the cursor gives are appended to `kinds` ("IUuD" for +I -U +U -D). */
static char *rows_of(paimon_changes *ch, char *kinds)
{
    paimon_error err;
    paimon_cursor *cur;
    char *all = pm_calloc(1, 1);
    size_t n = 0, k = strlen(kinds);
    int rc;
    assert_int_equal(paimon_changes_cursor(&cur, ch, &err), 0);
    while ((rc = paimon_cursor_next(cur, &err)) == 0) {
        const char *json;
        size_t len;
        int kind = paimon_cursor_row_kind(cur);
        assert_true(kind >= PAIMON_ROW_INSERT && kind <= PAIMON_ROW_DELETE);
        kinds[k++] = "IUuD"[kind];
        kinds[k] = '\0';
        assert_int_equal(paimon_cursor_row_json(cur, &json, &len, &err), 0);
        all = pm_realloc(all, n + len + 2);
        memcpy(all + n, json, len);
        n += len;
        all[n++] = '\n';
        all[n] = '\0';
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    assert_int_equal(paimon_cursor_row_kind(cur), PAIMON_EINVALID); /* no current row */
    paimon_cursor_free(cur);
    return all;
}

static void test_snapshots_and_kinds(void **state)
{
    char *path = pm_test_changes_table("changes-api"), *rows;
    char kinds[16] = "";
    paimon_table *t;
    paimon_changes *ch;
    paimon_cursor *cur;
    paimon_changes_options o = PAIMON_CHANGES_OPTIONS_INIT;
    paimon_changes_snapshot info;
    paimon_error err;
    const char *cols[1] = {"v"}, *text;
    size_t len;
    int64_t first, last;
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_table_changes(&ch, t, &o, &err), 0);
    paimon_changes_range(ch, &first, &last);
    assert_int_equal(first, 1);
    assert_int_equal(last, 2);
    assert_int_equal(paimon_changes_column_count(ch), 3);
    assert_string_equal(paimon_changes_column_name(ch, 0), "_ROW_KIND");
    assert_string_equal(paimon_changes_column_type(ch, 0), "STRING NOT NULL");
    assert_null(paimon_changes_column_name(ch, 3));
    /* no current snapshot yet */
    assert_int_equal(paimon_changes_cursor(&cur, ch, &err), PAIMON_EINVALID);
    assert_null(cur);
    assert_int_equal(paimon_changes_next_snapshot(ch, &info, &err), 0);
    assert_int_equal(info.id, 1);
    assert_string_equal(info.commit_kind, "APPEND");
    assert_int_equal(info.read, 1);
    assert_int_equal(info.file_count, 1);
    rows = rows_of(ch, kinds);
    assert_string_equal(rows, "{\"_ROW_KIND\":\"+I\",\"id\":1,\"v\":\"a\"}\n"
                              "{\"_ROW_KIND\":\"+I\",\"id\":2,\"v\":\"b\"}\n");
    pm_free(rows);
    /* the snapshot went with its cursor: a second cursor of it is refused */
    assert_int_equal(paimon_changes_cursor(&cur, ch, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "snapshot 1 is already being read"));
    assert_int_equal(paimon_changes_next_snapshot(ch, &info, &err), 0);
    assert_int_equal(info.id, 2);
    rows = rows_of(ch, kinds);
    assert_string_equal(rows, "{\"_ROW_KIND\":\"-U\",\"id\":1,\"v\":\"a\"}\n"
                              "{\"_ROW_KIND\":\"+U\",\"id\":1,\"v\":\"c\"}\n"
                              "{\"_ROW_KIND\":\"-D\",\"id\":2,\"v\":\"b\"}\n");
    assert_string_equal(kinds, "IIUuD");
    /* the snapshot's info outlives its cursor (which took the snapshot's plan) */
    assert_string_equal(info.commit_kind, "APPEND");
    pm_free(rows);
    assert_int_equal(paimon_changes_next_snapshot(ch, &info, &err), PAIMON_ITEROVER);
    assert_int_equal(paimon_changes_cursor(&cur, ch, &err), PAIMON_EINVALID);
    paimon_changes_free(ch);

    /* a projection, from snapshot 2, read as an Arrow stream after one row was read */
    o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
    o.from_value = 2;
    o.columns = cols;
    o.column_count = 1;
    assert_int_equal(paimon_table_changes(&ch, t, &o, &err), 0);
    assert_int_equal(paimon_changes_column_count(ch), 2);
    assert_string_equal(paimon_changes_column_name(ch, 1), "v");
    assert_int_equal(paimon_changes_next_snapshot(ch, NULL, &err), 0);
    assert_int_equal(paimon_changes_cursor(&cur, ch, &err), 0);
    /* the cursor holds the snapshot: the read may end first */
    paimon_changes_free(ch);
    assert_int_equal(paimon_cursor_column_count(cur), 2);
    assert_string_equal(paimon_cursor_column_name(cur, 0), "_ROW_KIND");
    assert_string_equal(paimon_cursor_column_type(cur, 1), "STRING");
    assert_int_equal(paimon_cursor_next(cur, &err), 0);
    assert_int_equal(paimon_cursor_row_kind(cur), PAIMON_ROW_UPDATE_BEFORE);
    {
        struct ArrowArrayStream s;
        struct ArrowSchema schema;
        struct ArrowArray a;
        int64_t n = 0;
        assert_int_equal(paimon_cursor_arrow_stream(cur, &s, &err), 0);
        assert_int_equal(paimon_cursor_next(cur, &err), PAIMON_ITEROVER);
        paimon_cursor_free(cur);
        assert_int_equal(s.get_schema(&s, &schema), 0);
        assert_string_equal(schema.children[0]->name, "_ROW_KIND");
        assert_string_equal(schema.children[0]->format, "u");
        schema.release(&schema);
        for (;;) {
            assert_int_equal(s.get_next(&s, &a), 0);
            if (a.release == NULL)
                break;
            assert_int_equal(a.n_children, 2);
            n += a.length;
            a.release(&a);
        }
        assert_int_equal(n, 2); /* +U and -D: the -U was read before */
        s.release(&s);
    }

    /* value text of the first row of snapshot 2 */
    o.columns = NULL;
    o.column_count = 0;
    assert_int_equal(paimon_table_changes(&ch, t, &o, &err), 0);
    assert_int_equal(paimon_changes_next_snapshot(ch, NULL, &err), 0);
    assert_int_equal(paimon_changes_cursor(&cur, ch, &err), 0);
    assert_int_equal(paimon_cursor_value_text(cur, 0, &text, &len, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_cursor_next(cur, &err), 0);
    assert_int_equal(paimon_cursor_value_text(cur, 0, &text, &len, &err), 0);
    assert_string_equal(text, "-U");
    assert_int_equal(len, 2);
    assert_int_equal(paimon_cursor_value_text(cur, 2, &text, NULL, &err), 0);
    assert_string_equal(text, "a");
    assert_int_equal(paimon_cursor_value_text(cur, 3, &text, NULL, &err), PAIMON_EINVALID);
    paimon_cursor_free(cur);
    paimon_changes_free(ch);
    paimon_table_free(t);
    pm_free(path);
}

static void test_bad_ranges_and_options(void **state)
{
    char *path = pm_test_changes_table("changes-api");
    paimon_table *t;
    paimon_changes *ch = NULL;
    paimon_changes_options o = PAIMON_CHANGES_OPTIONS_INIT;
    paimon_error err;
    const char *cols[2] = {"v", "nope"};
    int64_t first, last;
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
    o.from_value = 3;
    assert_int_equal(paimon_table_changes(&ch, t, &o, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "snapshot 3 does not exist (the latest is 2)"));
    assert_null(ch);
    o.from_value = 2;
    o.to_snapshot = 1;
    assert_int_equal(paimon_table_changes(&ch, t, &o, &err), PAIMON_EINVALID);
    o.to_snapshot = 0;
    o.columns = cols;
    o.column_count = 2;
    assert_int_equal(paimon_table_changes(&ch, t, &o, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "nope: no such column"));
    o.columns = NULL;
    o.column_count = 0;
    o.from = 9;
    assert_int_equal(paimon_table_changes(&ch, t, &o, &err), PAIMON_EINVALID);
    o.from = PAIMON_CHANGES_FROM_TIMESTAMP;
    o.from_value = INT64_MAX; /* after every commit: an empty range */
    assert_int_equal(paimon_table_changes(&ch, t, &o, &err), 0);
    paimon_changes_range(ch, &first, &last);
    assert_true(first > last);
    assert_int_equal(paimon_changes_next_snapshot(ch, NULL, &err), PAIMON_ITEROVER);
    paimon_changes_free(ch);
    o.version = 7;
    assert_int_equal(paimon_table_changes(&ch, t, &o, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_table_changes(NULL, t, NULL, &err), PAIMON_EINVALID);
    paimon_changes_free(NULL);
    paimon_table_free(t);
    pm_free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshots_and_kinds),
        cmocka_unit_test(test_bad_ranges_and_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
