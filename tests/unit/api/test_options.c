/* The one rule for option structs (include/paimon.h, "Options"), as a caller without the
 * INIT macros sees it (ctypes, Rust, Go): the paimon_*_options_init() functions; a struct of
 * an older version accepted with defaults for the fields it lacks; version 0 and versions
 * newer than the library's refused by every entry point, naming the function and both
 * versions; NULL options meaning every default at every entry point.  This file uses no
 * PAIMON_*_INIT macro on purpose. */
#include <stddef.h>
#include <string.h>

#include "testlib.h"

#include "paimon.h"
#include "util/alloc.h"

/* Each init function, at the current version, gives what the header documents. */
static void test_init_functions(void **state)
{
    paimon_scan_options so;
    paimon_file_read_options fo;
    paimon_changes_options cho;
    paimon_create_options cro;
    paimon_commit_options cmo;
    paimon_compact_options cpo;
    paimon_writer_options wo;
    paimon_stream_options sto;
    paimon_alter al;
    (void)state;
    memset(&so, 0xab, sizeof(so));
    assert_int_equal(paimon_scan_options_init(&so, PAIMON_SCAN_OPTIONS_VERSION), 0);
    assert_int_equal(so.version, PAIMON_SCAN_OPTIONS_VERSION);
    assert_int_equal(so.snapshot_id, 0);
    assert_null(so.tag);
    assert_int_equal(so.use_timestamp, 0);
    assert_null(so.columns);
    assert_null(so.filter);
    assert_int_equal(so.batch_rows, 0);
    assert_null(so.system_table);

    memset(&fo, 0xab, sizeof(fo));
    assert_int_equal(paimon_file_read_options_init(&fo, PAIMON_FILE_READ_OPTIONS_VERSION), 0);
    assert_int_equal(fo.version, PAIMON_FILE_READ_OPTIONS_VERSION);
    assert_null(fo.columns);
    assert_null(fo.row_ranges);
    assert_int_equal(fo.batch_rows, 0);

    memset(&cho, 0xab, sizeof(cho));
    assert_int_equal(paimon_changes_options_init(&cho, PAIMON_CHANGES_OPTIONS_VERSION), 0);
    assert_int_equal(cho.from, PAIMON_CHANGES_FROM_EARLIEST);
    assert_int_equal(cho.to_snapshot, 0);
    assert_null(cho.columns);

    memset(&cro, 0xab, sizeof(cro));
    assert_int_equal(paimon_create_options_init(&cro, PAIMON_CREATE_OPTIONS_VERSION), 0);
    assert_null(cro.columns);
    assert_null(cro.primary_keys);
    assert_int_equal(cro.option_count, 0);
    assert_null(cro.comment);

    memset(&cmo, 0xab, sizeof(cmo));
    assert_int_equal(paimon_commit_options_init(&cmo, PAIMON_COMMIT_OPTIONS_VERSION), 0);
    assert_null(cmo.commit_user);
    assert_int_equal(cmo.identifier, INT64_MAX); /* a batch commit */
    assert_int_equal(cmo.overwrite, 0);
    assert_null(cmo.property_keys); /* version 3 */
    assert_int_equal(cmo.property_count, 0);

    memset(&cpo, 0xab, sizeof(cpo));
    assert_int_equal(paimon_compact_options_init(&cpo, PAIMON_COMPACT_OPTIONS_VERSION), 0);
    assert_int_equal(cpo.full, 0);
    assert_null(cpo.partition);
    assert_null(cpo.commit_user);

    memset(&wo, 0xab, sizeof(wo));
    assert_int_equal(paimon_writer_options_init(&wo, PAIMON_WRITER_OPTIONS_VERSION), 0);
    assert_int_equal(wo.overwrite, 0);
    assert_null(wo.commit_user);

    memset(&sto, 0xab, sizeof(sto));
    assert_int_equal(paimon_stream_options_init(&sto, PAIMON_STREAM_OPTIONS_VERSION), 0);
    assert_int_equal(sto.version, PAIMON_STREAM_OPTIONS_VERSION);
    assert_int_equal(sto.option_count, 0);
    assert_null(sto.consumer_id);
    assert_int_equal(sto.position, 0);
    assert_int_equal(sto.from, PAIMON_STREAM_FROM_SCAN_MODE);
    assert_int_equal(sto.to_snapshot, 0);
    assert_null(sto.columns);
    assert_int_equal(sto.no_inotify, 0);
    assert_null(sto.system_table);

    memset(&al, 0xab, sizeof(al));
    assert_int_equal(paimon_alter_init(&al, PAIMON_ALTER_VERSION), 0);
    assert_int_equal(al.kind, PAIMON_ALTER_ADD_COLUMN);
    assert_null(al.column);
    assert_int_equal(al.first, 0);

    /* unknown versions and NULL */
    assert_int_equal(paimon_scan_options_init(&so, 0), PAIMON_EINVALID);
    assert_int_equal(paimon_scan_options_init(&so, PAIMON_SCAN_OPTIONS_VERSION + 1),
                     PAIMON_EINVALID);
    assert_int_equal(paimon_commit_options_init(NULL, 1), PAIMON_EINVALID);
    assert_int_equal(paimon_alter_init(&al, PAIMON_ALTER_VERSION + 1), PAIMON_EINVALID);
}

/* An init of version 1 of the scan options writes only what version 1 has. */
static void test_init_older_version(void **state)
{
    unsigned char buf[sizeof(paimon_scan_options) + 8];
    size_t v1 = offsetof(paimon_scan_options, system_table);
    paimon_scan_options so;
    (void)state;
    memset(buf, 0x5a, sizeof(buf));
    assert_int_equal(paimon_scan_options_init((paimon_scan_options *)buf, 1), 0);
    memcpy(&so, buf, sizeof(so));
    assert_int_equal(so.version, 1);
    assert_null(so.filter);
    for (size_t i = v1; i < sizeof(buf); i++)
        assert_int_equal(buf[i], 0x5a); /* a version-1 caller's struct ends at v1 */
}

/* A table with rows 1 and 2 in column id, made without macros. */
static char *make_table(paimon_table **out)
{
    char *path = pm_test_table_path("options");
    paimon_create_options co;
    paimon_writer *w;
    paimon_commit_messages *m;
    paimon_error err;
    int64_t id = 0;
    assert_int_equal(paimon_create_options_init(&co, PAIMON_CREATE_OPTIONS_VERSION), 0);
    co.columns = "id BIGINT, v STRING";
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(paimon_table_open(out, path, &err), 0);
    assert_int_equal(paimon_writer_open(&w, *out, NULL, &err), 0); /* NULL: append */
    for (int64_t i = 1; i <= 2; i++) {
        paimon_value row[2];
        row[0].type = PAIMON_VALUE_INT;
        row[0].v.i = i;
        row[1].type = PAIMON_VALUE_NULL;
        assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), 0);
    }
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
    /* NULL commit options: a fresh user, an append */
    if (paimon_table_commit(*out, m, NULL, &id, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(id, 1);
    paimon_commit_messages_free(m);
    paimon_writer_free(w);
    return path;
}

static int64_t count_rows(paimon_scan *scan, size_t *columns)
{
    paimon_cursor *cur;
    paimon_error err;
    int64_t n = 0;
    assert_int_equal(paimon_scan_cursor(&cur, scan, &err), 0);
    *columns = paimon_cursor_column_count(cur);
    while (paimon_cursor_next(cur, &err) == 0)
        n++;
    paimon_cursor_free(cur);
    return n;
}

/* A version-1 scan struct: its system_table, which version 1 does not have, is not read. */
static void test_older_struct_gets_defaults(void **state)
{
    paimon_table *t;
    paimon_scan *scan;
    paimon_scan_options so;
    paimon_error err;
    size_t columns;
    char *path = make_table(&t);
    (void)state;
    assert_int_equal(paimon_scan_options_init(&so, PAIMON_SCAN_OPTIONS_VERSION), 0);
    so.system_table = "snapshots"; /* bytes beyond a version-1 struct */
    so.version = 1;
    assert_int_equal(paimon_table_scan(&scan, t, &so, &err), 0);
    assert_int_equal(count_rows(scan, &columns), 2);
    assert_int_equal(columns, 2); /* the table's rows, not $snapshots */
    paimon_scan_free(scan);
    so.version = 2;
    assert_int_equal(paimon_table_scan(&scan, t, &so, &err), 0);
    assert_int_equal(count_rows(scan, &columns), 1);
    assert_true(columns > 2); /* $snapshots */
    paimon_scan_free(scan);
    paimon_table_free(t);
    pm_free(path);
}

/* Version 0 and the version after the current one, at every entry point. */
static void expect_refused(int rc, const paimon_error *err, const char *fn, const char *type,
                           unsigned int version, unsigned int current)
{
    char want[160];
    assert_int_equal(rc, PAIMON_EINVALID);
    snprintf(want, sizeof(want), "%s: %s version %u; this library knows versions 1 to %u", fn, type,
             version, current);
    assert_string_equal(err->message, want);
}

static void test_bad_versions(void **state)
{
    paimon_table *t;
    paimon_scan *scan = NULL;
    paimon_changes *ch = NULL;
    paimon_writer *w = NULL;
    paimon_file *f;
    paimon_cursor *cur = NULL;
    paimon_commit_messages *m;
    paimon_error err;
    pm_strlist files;
    char *path = make_table(&t), *other = pm_test_table_path("options-new");
    (void)state;
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    pm_strlist_init(&files);
    pm_test_find_files(path, "data-", &files);
    assert_int_equal(paimon_file_open(&f, files.items[0], &err), 0);
    for (int k = 0; k < 2; k++) {
        paimon_scan_options so;
        paimon_file_read_options fo;
        paimon_changes_options cho;
        paimon_create_options cro;
        paimon_commit_options cmo;
        paimon_compact_options cpo;
        paimon_writer_options wo;
        paimon_stream_options sto;
        paimon_stream *st = NULL;
        paimon_alter al;
        unsigned int v;

        paimon_scan_options_init(&so, PAIMON_SCAN_OPTIONS_VERSION);
        so.version = v = k == 0 ? 0 : PAIMON_SCAN_OPTIONS_VERSION + 1;
        expect_refused(paimon_table_scan(&scan, t, &so, &err), &err, "paimon_table_scan",
                       "paimon_scan_options", v, PAIMON_SCAN_OPTIONS_VERSION);
        assert_null(scan);

        paimon_file_read_options_init(&fo, PAIMON_FILE_READ_OPTIONS_VERSION);
        fo.version = v = k == 0 ? 0 : PAIMON_FILE_READ_OPTIONS_VERSION + 1;
        expect_refused(paimon_file_cursor(&cur, f, &fo, &err), &err, "paimon_file_cursor",
                       "paimon_file_read_options", v, PAIMON_FILE_READ_OPTIONS_VERSION);
        assert_null(cur);

        paimon_changes_options_init(&cho, PAIMON_CHANGES_OPTIONS_VERSION);
        cho.version = v = k == 0 ? 0 : PAIMON_CHANGES_OPTIONS_VERSION + 1;
        expect_refused(paimon_table_changes(&ch, t, &cho, &err), &err, "paimon_table_changes",
                       "paimon_changes_options", v, PAIMON_CHANGES_OPTIONS_VERSION);
        assert_null(ch);

        paimon_create_options_init(&cro, PAIMON_CREATE_OPTIONS_VERSION);
        cro.columns = "a INT";
        cro.version = v = k == 0 ? 0 : PAIMON_CREATE_OPTIONS_VERSION + 1;
        expect_refused(paimon_table_create(other, &cro, &err), &err, "paimon_table_create",
                       "paimon_create_options", v, PAIMON_CREATE_OPTIONS_VERSION);

        paimon_commit_options_init(&cmo, PAIMON_COMMIT_OPTIONS_VERSION);
        cmo.version = v = k == 0 ? 0 : PAIMON_COMMIT_OPTIONS_VERSION + 1;
        expect_refused(paimon_table_commit(t, m, &cmo, NULL, &err), &err, "paimon_table_commit",
                       "paimon_commit_options", v, PAIMON_COMMIT_OPTIONS_VERSION);

        paimon_compact_options_init(&cpo, PAIMON_COMPACT_OPTIONS_VERSION);
        cpo.version = v = k == 0 ? 0 : PAIMON_COMPACT_OPTIONS_VERSION + 1;
        expect_refused(paimon_table_compact(t, &cpo, NULL, &err), &err, "paimon_table_compact",
                       "paimon_compact_options", v, PAIMON_COMPACT_OPTIONS_VERSION);

        paimon_writer_options_init(&wo, PAIMON_WRITER_OPTIONS_VERSION);
        wo.version = v = k == 0 ? 0 : PAIMON_WRITER_OPTIONS_VERSION + 1;
        expect_refused(paimon_writer_open(&w, t, &wo, &err), &err, "paimon_writer_open",
                       "paimon_writer_options", v, PAIMON_WRITER_OPTIONS_VERSION);
        assert_null(w);

        paimon_stream_options_init(&sto, PAIMON_STREAM_OPTIONS_VERSION);
        sto.version = v = k == 0 ? 0 : PAIMON_STREAM_OPTIONS_VERSION + 1;
        expect_refused(paimon_stream_open(&st, t, &sto, &err), &err, "paimon_stream_open",
                       "paimon_stream_options", v, PAIMON_STREAM_OPTIONS_VERSION);
        assert_null(st);

        paimon_alter_init(&al, PAIMON_ALTER_VERSION);
        al.kind = PAIMON_ALTER_SET_OPTION;
        al.column = "k";
        al.value = "v";
        al.version = v = k == 0 ? 0 : PAIMON_ALTER_VERSION + 1;
        expect_refused(paimon_table_alter(path, &al, NULL, &err), &err, "paimon_table_alter",
                       "paimon_alter", v, PAIMON_ALTER_VERSION);
    }
    /* nothing was created, committed or changed */
    assert_int_equal(paimon_table_open(&(paimon_table *){NULL}, other, &err), PAIMON_ENOTFOUND);
    {
        paimon_list *l;
        assert_int_equal(paimon_table_snapshots(t, &l, &err), 0);
        assert_int_equal(paimon_list_count(l), 1);
        paimon_list_free(l);
        assert_int_equal(paimon_table_schemas(t, &l, &err), 0);
        assert_int_equal(paimon_list_count(l), 1);
        paimon_list_free(l);
    }
    paimon_file_free(f);
    pm_strlist_free(&files);
    paimon_commit_messages_free(m);
    paimon_table_free(t);
    pm_free(path);
    pm_free(other);
}

/* NULL options everywhere: the defaults. */
static void test_null_options(void **state)
{
    paimon_table *t;
    paimon_scan *scan;
    paimon_changes *ch;
    paimon_writer *w;
    paimon_file *f;
    paimon_cursor *cur;
    paimon_commit_messages *m;
    paimon_changes_snapshot info;
    paimon_error err;
    pm_strlist files;
    size_t columns;
    int64_t id = -1, first, last;
    char *path = make_table(&t), *other = pm_test_table_path("options-null");
    (void)state;
    /* scan: the latest snapshot, every column */
    assert_int_equal(paimon_table_scan(&scan, t, NULL, &err), 0);
    assert_int_equal(paimon_scan_snapshot_id(scan), 1);
    assert_int_equal(count_rows(scan, &columns), 2);
    assert_int_equal(columns, 2);
    paimon_scan_free(scan);
    /* file: every column and row */
    pm_strlist_init(&files);
    pm_test_find_files(path, "data-", &files);
    assert_int_equal(paimon_file_open(&f, files.items[0], &err), 0);
    assert_int_equal(paimon_file_cursor(&cur, f, NULL, &err), 0);
    assert_int_equal(paimon_cursor_next(cur, &err), 0);
    assert_int_equal(paimon_cursor_next(cur, &err), 0);
    assert_int_equal(paimon_cursor_next(cur, &err), PAIMON_ITEROVER);
    paimon_cursor_free(cur);
    paimon_file_free(f);
    pm_strlist_free(&files);
    /* changes: from the earliest to the latest */
    assert_int_equal(paimon_table_changes(&ch, t, NULL, &err), 0);
    paimon_changes_range(ch, &first, &last);
    assert_int_equal(first, 1);
    assert_int_equal(last, 1);
    assert_int_equal(paimon_changes_next_snapshot(ch, &info, &err), 0);
    assert_int_equal(info.id, 1);
    paimon_changes_free(ch);
    /* writer, commit: rows appended; compact: nothing to compact on an append table with one
     * file per bucket, no snapshot, no error */
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    {
        paimon_value row[2];
        row[0].type = PAIMON_VALUE_INT;
        row[0].v.i = 3;
        row[1].type = PAIMON_VALUE_NULL;
        assert_int_equal(paimon_writer_write_row(w, row, 2, PAIMON_ROW_INSERT, &err), 0);
    }
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
    assert_int_equal(paimon_table_commit(t, m, NULL, &id, &err), 0);
    assert_int_equal(id, 2);
    paimon_commit_messages_free(m);
    paimon_writer_free(w);
    if (paimon_table_compact(t, NULL, &id, &err) != 0)
        fail_msg("%s", err.message);
    assert_true(id == 0 || id == 3);
    assert_int_equal(paimon_table_scan(&scan, t, NULL, &err), 0);
    assert_int_equal(count_rows(scan, &columns), 3);
    paimon_scan_free(scan);
    /* create: the defaults name no columns */
    assert_int_equal(paimon_table_create(other, NULL, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "no columns"));
    /* alter: the change is not an options struct; it is required */
    assert_int_equal(paimon_table_alter(path, NULL, NULL, &err), PAIMON_EINVALID);
    paimon_table_free(t);
    pm_free(path);
    pm_free(other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_functions),
        cmocka_unit_test(test_init_older_version),
        cmocka_unit_test(test_older_struct_gets_defaults),
        cmocka_unit_test(test_bad_versions),
        cmocka_unit_test(test_null_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
