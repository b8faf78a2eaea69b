/* Snapshot properties through the public commit API (paimon_commit_options version 3): a
 * commit with properties records them in its snapshot's "properties" object, as Java's
 * ManifestCommittable.properties end up in Snapshot.properties; a commit without them (and
 * a version-2 struct) writes no "properties" field, as Java writes null for an empty map;
 * bad property arrays are PAIMON_EINVALID and commit nothing.  The CDC source (src/cdc)
 * relies on this to keep its replication position in the table. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "paimon.h"

static char *make_table(void)
{
    return pm_test_create_table("commit_properties", "id BIGINT NOT NULL, v STRING", "id", NULL);
}

/* Writes one row and commits it with `co`; returns the call's code. */
static int write_commit(paimon_table *t, int64_t key, const paimon_commit_options *co, int64_t *id,
                        paimon_error *err)
{
    paimon_writer *w = NULL;
    paimon_commit_messages *m = NULL;
    paimon_value vals[2];
    int rc;
    vals[0].type = PAIMON_VALUE_INT;
    vals[0].v.i = key;
    vals[1].type = PAIMON_VALUE_TEXT;
    vals[1].v.s.ptr = "x";
    vals[1].v.s.len = 1;
    assert_int_equal(paimon_writer_open(&w, t, NULL, err), 0);
    assert_int_equal(paimon_commit_messages_new(&m, err), 0);
    assert_int_equal(paimon_writer_write_row(w, vals, 2, PAIMON_ROW_INSERT, err), 0);
    assert_int_equal(paimon_writer_prepare_commit(w, m, err), 0);
    rc = paimon_table_commit(t, m, co, id, err);
    if (rc != 0)
        assert_int_equal(paimon_commit_messages_abort(t, m, NULL), 0);
    paimon_commit_messages_free(m);
    paimon_writer_free(w);
    return rc;
}

/* The JSON of the snapshot with id `id`, copied. */
static char *snapshot_json(paimon_table *t, int64_t id)
{
    paimon_list *list = NULL;
    paimon_error err;
    char *json = NULL;
    assert_int_equal(paimon_table_snapshots(t, &list, &err), 0);
    for (size_t i = 0; i < paimon_list_count(list); i++)
        if (paimon_list_snapshot(list, i)->id == id)
            json = strdup(paimon_list_snapshot(list, i)->json);
    paimon_list_free(list);
    assert_non_null(json);
    return json;
}

static void test_properties_recorded(void **state)
{
    char *path = make_table();
    paimon_table *t = NULL;
    paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
    const char *keys[2] = {"cdc.lsn", "cdc.slot"}, *vals[2] = {"0/16B3748", "paimon_s1"};
    paimon_error err;
    int64_t id = 0;
    char *json;
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    co.commit_user = "cdc-user";
    co.identifier = 7;
    co.property_keys = keys;
    co.property_values = vals;
    co.property_count = 2;
    assert_int_equal(write_commit(t, 1, &co, &id, &err), 0);
    assert_int_equal(id, 1);
    json = snapshot_json(t, 1);
    assert_non_null(
        strstr(json, "\"properties\":{\"cdc.lsn\":\"0/16B3748\",\"cdc.slot\":\"paimon_s1\"}"));
    free(json);

    /* no properties: no field (Java writes null for an empty map and omits it) */
    co.property_count = 0;
    co.identifier = 8;
    assert_int_equal(write_commit(t, 2, &co, &id, &err), 0);
    json = snapshot_json(t, id);
    assert_null(strstr(json, "properties"));
    free(json);

    /* a version-2 caller's struct ends before the property fields, which are not read */
    co.version = 2;
    co.identifier = 9;
    co.property_count = 5; /* garbage a version-2 caller never set */
    assert_int_equal(write_commit(t, 3, &co, &id, &err), 0);
    json = snapshot_json(t, id);
    assert_null(strstr(json, "properties"));
    free(json);
    paimon_table_free(t);
    free(path);
}

static void test_bad_properties(void **state)
{
    char *path = make_table();
    paimon_table *t = NULL;
    paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
    const char *dup[2] = {"k", "k"}, *empty[1] = {""}, *vals[2] = {"a", "b"};
    paimon_error err;
    int64_t id = -1;
    paimon_list *list = NULL;
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    co.property_keys = dup;
    co.property_values = vals;
    co.property_count = 2;
    assert_int_equal(write_commit(t, 1, &co, &id, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "\"k\" given twice"));
    co.property_keys = empty;
    co.property_count = 1;
    assert_int_equal(write_commit(t, 1, &co, &id, &err), PAIMON_EINVALID);
    co.property_keys = NULL;
    assert_int_equal(write_commit(t, 1, &co, &id, &err), PAIMON_EINVALID);
    /* nothing was committed */
    assert_int_equal(paimon_table_snapshots(t, &list, &err), 0);
    assert_int_equal(paimon_list_count(list), 0);
    paimon_list_free(list);
    paimon_table_free(t);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_properties_recorded),
        cmocka_unit_test(test_bad_properties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
