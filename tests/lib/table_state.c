/* A table's state for the fault-injection tests: see table_state.h. */
#include "table_state.h"

#include <string.h>

#include "testlib.h"

#include "io/fs.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "paimon/scan.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/strlist.h"

char *pm_test_table_rows(const char *path)
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
        fail_msg("%s: %s", path, err.message);
    assert_int_equal(paimon_scan_cursor(&rows, scan, &err), 0);
    for (;;) {
        const char *json;
        size_t len;
        int rc = paimon_cursor_next(rows, &err);
        if (rc == PAIMON_ITEROVER)
            break;
        if (rc != 0)
            fail_msg("%s: %s", path, err.message);
        assert_int_equal(paimon_cursor_row_json(rows, &json, &len, &err), 0);
        pm_strlist_pushn(&lines, json, len);
    }
    pm_strlist_sort(&lines);
    for (size_t i = 0; i < lines.count; i++) {
        pm_buf_puts(&all, lines.items[i]);
        pm_buf_putc(&all, '\n');
    }
    pm_strlist_free(&lines);
    paimon_cursor_free(rows);
    paimon_scan_free(scan);
    paimon_table_free(t);
    return (char *)pm_buf_detach(&all, NULL);
}

int64_t pm_test_latest_snapshot(const char *path)
{
    pm_fs *fs = pm_fs_local_new(false);
    int64_t id = 0;
    bool found;
    assert_int_equal(pm_snapshot_latest_id(fs, path, &id, &found, NULL), 0);
    pm_fs_free(fs);
    return found ? id : 0;
}

void pm_test_remove_table(char *path)
{
    char *dir = pm_strndup(path, strlen(path) - 2);
    pm_test_rmtree(dir);
    pm_free(dir);
    pm_free(path);
}
