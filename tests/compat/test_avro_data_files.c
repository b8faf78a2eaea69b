/*
 * Avro data files in the fixtures (file.format=avro):
 *  - every data file named by a manifest entry of any snapshot decodes in full through the
 *    data-file interface, with the row count its entry records, both as a bare file (its
 *    own columns) and read with the table's columns (resolution by field name);
 *  - the writer schema paimon-c produces for the file's row type is the one Java wrote,
 *    byte for byte (for primary-key tables the row type is Java's KeyValue layout:
 *    _KEY_ fields, _SEQUENCE_NUMBER, _VALUE_KIND, then the columns).
 * Values are checked end to end by the table read (tests/compat/cat_expected.test.sh).
 */
#include <string.h>

#include "testlib.h"

#include "format/avro/avro_container.h"
#include "format/avro/avro_data.h"
#include "format/data_file.h"
#include "meta/file_entry.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "util/alloc.h"

#define KEY_FIELD_ID_START 1073741823 /* Java SpecialFields: Integer.MAX_VALUE / 2 */
#define MAX_KEYS           16

/* Finds a file by name under `dir` (data files sit in partition and bucket folders). */
static char *find_named(const char *dir, const char *name)
{
    pm_strlist found;
    char *path = NULL;
    pm_strlist_init(&found);
    pm_test_find_files(dir, name, &found);
    for (size_t i = 0; i < found.count && path == NULL; i++)
        if (strcmp(strrchr(found.items[i], '/') + 1, name) == 0)
            path = pm_strdup(found.items[i]);
    pm_strlist_free(&found);
    return path;
}

/* Reads every batch of `path`; returns the rows. */
static int64_t count_rows(pm_fs *fs, const char *path, const pm_type *read_type)
{
    pm_data_file *f = NULL;
    pm_read_options o;
    pm_batch *b = NULL;
    paimon_error err = {0};
    int64_t rows = 0;
    int rc;
    memset(&o, 0, sizeof(o));
    o.read_type = read_type;
    o.batch_rows = 5; /* several batches even for small files */
    if (pm_data_file_open(&f, fs, path, &err) != 0)
        fail_msg("%s", err.message);
    assert_string_equal(f->format->name, "avro");
    if (f->format->start(f->impl, &o, &err) != 0)
        fail_msg("%s", err.message);
    while ((rc = f->format->next(f->impl, &b, &err)) == 0) {
        if (read_type != NULL)
            assert_int_equal(b->type->field_count, read_type->field_count);
        rows += b->row_count;
        pm_batch_free(b);
        b = NULL;
    }
    if (rc != PAIMON_ITEROVER)
        fail_msg("%s", err.message);
    pm_data_file_free(f);
    return rows;
}

/* The row type Java writes a table's data files with. */
static pm_type *file_row_type(const pm_schema *s)
{
    pm_type *row = pm_type_new(PM_TYPE_ROW);
    const pm_field *keys[MAX_KEYS];
    size_t nkeys = 0;
    paimon_error err = {0};
    row->nullable = false;
    if (s->primary_keys.count > 0) {
        pm_type *seq = pm_type_new(PM_TYPE_BIGINT), *kind = pm_type_new(PM_TYPE_TINYINT);
        char name[256];
        if (pm_schema_trimmed_pk_fields(s, keys, MAX_KEYS, &nkeys, &err) != 0)
            fail_msg("%s", err.message);
        /* the key holds the trimmed primary key (partition columns left out), as Java's
         * PrimaryKeyTableUtils.createKeyType */
        for (size_t i = 0; i < nkeys; i++) {
            snprintf(name, sizeof(name), "_KEY_%s", keys[i]->name);
            assert_int_equal(pm_type_row_add(row, KEY_FIELD_ID_START + keys[i]->id, name,
                                             pm_type_clone(keys[i]->type)),
                             0);
        }
        seq->nullable = kind->nullable = false;
        assert_int_equal(pm_type_row_add(row, 2147483646, "_SEQUENCE_NUMBER", seq), 0);
        assert_int_equal(pm_type_row_add(row, 2147483645, "_VALUE_KIND", kind), 0);
    }
    for (size_t k = 0; k < s->row->field_count; k++)
        assert_int_equal(pm_type_row_add(row, s->row->fields[k].id, s->row->fields[k].name,
                                         pm_type_clone(s->row->fields[k].type)),
                         0);
    return row;
}

/* The file's writer schema equals what paimon-c writes for the table's file row type. */
static void check_schema(const char *path, const pm_schema *s)
{
    size_t len;
    uint8_t *data = pm_test_read_file(path, &len);
    pm_avro_reader r;
    pm_buf json;
    paimon_error err = {0};
    pm_type *row = file_row_type(s);
    pm_buf_init(&json, 1 << 20);
    if (pm_avro_reader_open(&r, data, len, path, &err) != 0 ||
        pm_avro_data_schema_json(row, &json, &err) != 0)
        fail_msg("%s", err.message);
    if (json.len != r.schema_json_len || memcmp(json.data, r.schema_json, json.len) != 0)
        fail_msg("%s: schema differs:\n  java:     %.*s\n  paimon-c: %.*s", path,
                 (int)r.schema_json_len, r.schema_json, (int)json.len, (const char *)json.data);
    pm_avro_reader_close(&r);
    pm_buf_free(&json);
    pm_type_free(row);
    pm_free(data);
}

static bool is_avro_file(const char *path)
{
    size_t len;
    uint8_t *data = pm_test_read_file(path, &len);
    bool avro = len >= 4 && memcmp(data, "Obj\x01", 4) == 0;
    pm_free(data);
    return avro;
}

static void test_data_files(void **state)
{
    pm_strlist tables, seen;
    pm_fs *fs;
    size_t files = 0, tables_with_avro = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    fs = pm_fs_local_new(false);
    pm_strlist_init(&tables);
    pm_strlist_init(&seen);
    pm_test_fixture_tables(&tables);
    for (size_t t = 0; t < tables.count; t++) {
        int64_t *ids = NULL;
        size_t nids = 0, before = files;
        paimon_error err = {0};
        if (pm_snapshot_list_ids(fs, tables.items[t], &ids, &nids, &err) != 0)
            fail_msg("%s: %s", tables.items[t], err.message);
        for (size_t sn = 0; sn < nids; sn++) {
            pm_snapshot *snap = NULL;
            pm_arena arena;
            const pm_manifest_entry **live = NULL;
            size_t n = 0;
            pm_arena_init(&arena, 1 << 14);
            if (pm_snapshot_read(fs, tables.items[t], ids[sn], &snap, &err) != 0 ||
                pm_snapshot_live_entries(fs, tables.items[t], snap, &arena, &live, &n, &err) != 0)
                fail_msg("%s snapshot %lld: %s", tables.items[t], (long long)ids[sn], err.message);
            for (size_t i = 0; i < n; i++) {
                const pm_data_file_meta *m = &live[i]->file;
                char *path = find_named(tables.items[t], m->file_name);
                pm_schema *schema = NULL;
                bool dup = false;
                if (path == NULL)
                    fail_msg("%s: %s is missing", tables.items[t], m->file_name);
                for (size_t k = 0; k < seen.count && !dup; k++)
                    dup = strcmp(seen.items[k], path) == 0;
                if (dup || !is_avro_file(path)) {
                    pm_free(path);
                    continue;
                }
                pm_strlist_push(&seen, path);
                if (pm_schema_read(fs, tables.items[t], m->schema_id, &schema, &err) != 0)
                    fail_msg("%s", err.message);
                if (count_rows(fs, path, NULL) != m->row_count ||
                    count_rows(fs, path, schema->row) != m->row_count)
                    fail_msg("%s: the row count differs from the entry's %lld", path,
                             (long long)m->row_count);
                check_schema(path, schema);
                pm_schema_free(schema);
                pm_free(path);
                files++;
            }
            pm_arena_free(&arena);
            pm_snapshot_free(snap);
        }
        tables_with_avro += files > before;
        pm_free(ids);
    }
    printf("%zu Avro data files in %zu tables decode with their entries' row counts and "
           "Java's writer schema\n",
           files, tables_with_avro);
    assert_true(files >= 4);
    assert_true(tables_with_avro >= 2);
    pm_strlist_free(&seen);
    pm_strlist_free(&tables);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
