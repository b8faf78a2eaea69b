/* Snapshot selection: latest, id, tag, time travel (Java's binary search), errors. */
#include <string.h>

#include "testlib.h"

#include "table/snapshot_select.h"
#include "util/alloc.h"

static void put(pm_fs *fs, const char *path, const char *text)
{
    assert_int_equal(fs->write_atomic(fs, path, text, strlen(text), true, NULL), 0);
}

static void put_snapshot(pm_fs *fs, int64_t id, int64_t time)
{
    char path[64], text[512];
    snprintf(path, sizeof(path), "t/snapshot/snapshot-%lld", (long long)id);
    snprintf(text, sizeof(text),
             "{\"version\":3,\"id\":%lld,\"schemaId\":0,\"baseManifestList\":\"b\","
             "\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitIdentifier\":1,"
             "\"commitKind\":\"APPEND\",\"timeMillis\":%lld}",
             (long long)id, (long long)time);
    put(fs, path, text);
}

static int64_t select_id(paimon_table *t, pm_snapshot_selector sel, int expect_rc)
{
    pm_snapshot *s = NULL;
    paimon_error err = {0};
    int64_t id;
    int rc = pm_table_select_snapshot(t, &sel, &s, &err);
    if (rc != expect_rc)
        fail_msg("rc %d (%s), expected %d", rc, err.message, expect_rc);
    id = s != NULL ? s->id : -1;
    pm_snapshot_free(s);
    return id;
}

static void test_selection(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    paimon_table *t = NULL;
    paimon_error err = {0};
    pm_snapshot_selector sel = {PM_SNAPSHOT_LATEST, 0, NULL, 0};
    (void)state;
    put(fs, "t/schema/schema-0",
        "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
        "\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}");
    /* expired history: snapshots 3..7 */
    put_snapshot(fs, 3, 100);
    put_snapshot(fs, 4, 200);
    put_snapshot(fs, 5, 300);
    put_snapshot(fs, 6, 300);
    put_snapshot(fs, 7, 500);
    put(fs, "t/tag/tag-v1",
        "{\"version\":3,\"id\":4,\"schemaId\":0,\"baseManifestList\":\"b\",\"deltaManifestList\":"
        "\"d\",\"commitUser\":\"u\",\"commitIdentifier\":1,\"commitKind\":\"APPEND\","
        "\"timeMillis\":200,\"tagCreateTime\":[2026,1,1,0,0,0,0]}");
    assert_int_equal(pm_table_open(&t, "t", fs, &err), 0);
    assert_int_equal(select_id(t, sel, 0), 7);
    sel.by = PM_SNAPSHOT_ID;
    sel.id = 5;
    assert_int_equal(select_id(t, sel, 0), 5);
    sel.id = 2;
    assert_int_equal(select_id(t, sel, PAIMON_ENOTFOUND), -1);
    sel.id = 0;
    assert_int_equal(select_id(t, sel, PAIMON_EINVALID), -1);
    sel.by = PM_SNAPSHOT_TAG;
    sel.tag = "v1";
    assert_int_equal(select_id(t, sel, 0), 4);
    sel.tag = "v2";
    assert_int_equal(select_id(t, sel, PAIMON_ENOTFOUND), -1);
    sel.by = PM_SNAPSHOT_TIMESTAMP;
    sel.timestamp = 250;
    assert_int_equal(select_id(t, sel, 0), 4);
    sel.timestamp = 100;
    assert_int_equal(select_id(t, sel, 0), 3);
    sel.timestamp = 499;
    assert_int_equal(select_id(t, sel, 0), 6);
    sel.timestamp = 10000;
    assert_int_equal(select_id(t, sel, 0), 7);
    /* Java's probe order: ids 3..7, mid 5 has time 300 == ts: it stops there. */
    sel.timestamp = 300;
    assert_int_equal(select_id(t, sel, 0), 5);
    sel.timestamp = 99;
    assert_int_equal(select_id(t, sel, PAIMON_ENOTFOUND), -1);
    pm_table_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_selection)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
