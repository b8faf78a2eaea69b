/*
 * BinaryRow against Java's bytes: every serialized BinaryRow in the fixtures' Avro manifests
 * (partitions, min/max keys, key and value statistics, manifest-list partition statistics)
 * is decoded with the types of its table's schema and encoded again; the bytes must be
 * identical.  This pins every slot layout Java wrote, nulls included.
 */
#include <string.h>

#include "testlib.h"

#include "data/binary_row.h"
#include "meta/manifest.h"
#include "meta/schema.h"
#include "util/alloc.h"

#define MAX_FIELDS 256

typedef struct counters {
    size_t rows, fields;
} counters;

static void check_row(const pm_avro_bytes *bytes, const pm_type *const *types, size_t n,
                      const char *what, counters *c)
{
    pm_binrow row;
    pm_datum values[MAX_FIELDS];
    paimon_error err = {0};
    pm_buf again;
    if (bytes->ptr == NULL)
        return;
    if (pm_binrow_deserialize(&row, bytes->ptr, bytes->len, &err) != 0)
        fail_msg("%s: %s", what, err.message);
    if ((size_t)row.arity != n)
        fail_msg("%s: arity %d, schema has %zu fields", what, row.arity, n);
    for (size_t i = 0; i < n; i++)
        if (pm_binrow_get(&row, (int32_t)i, types[i], &values[i], &err) != 0)
            fail_msg("%s field %zu: %s", what, i, err.message);
    pm_buf_init(&again, 0);
    assert_int_equal(pm_binrow_serialize(&again, types, values, (int32_t)n), 0);
    if (again.len != bytes->len || memcmp(again.data, bytes->ptr, bytes->len) != 0) {
        char java[4200];
        snprintf(java, sizeof(java), "%s", pm_test_hex(bytes->ptr, bytes->len));
        fail_msg("%s: re-encoded bytes differ\n java %s\n ours %s", what, java,
                 pm_test_hex(again.data, again.len));
    }
    pm_buf_free(&again);
    c->rows++;
    c->fields += n;
}

static size_t fields_named(const pm_schema *s, const pm_avro_array *names, const pm_type **out)
{
    size_t n = 0;
    if (!names->present) {
        for (size_t i = 0; i < s->row->field_count && n < MAX_FIELDS; i++)
            out[n++] = s->row->fields[i].type;
        return n;
    }
    for (size_t i = 0; i < names->count; i++) {
        const pm_field *f = pm_schema_field(s, ((const char *const *)names->items)[i]);
        assert_non_null(f);
        out[n++] = f->type;
    }
    return n;
}

static void check_table(const char *table, counters *c)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_strlist files;
    pm_schema *latest = NULL;
    const pm_field *parts[64], *keys[64];
    const pm_type *part_types[64];
    size_t np = 0;
    paimon_error err = {0};

    pm_strlist_init(&files);
    if (pm_schema_read_latest(fs, table, &latest, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(pm_schema_partition_fields(latest, parts, 64, &np, &err), 0);
    for (size_t i = 0; i < np; i++)
        part_types[i] = parts[i]->type;
    {
        char dir[4096];
        snprintf(dir, sizeof(dir), "%s/manifest", table);
        pm_test_find_files(dir, "manifest-", &files);
    }
    for (size_t f = 0; f < files.count; f++) {
        size_t len, count;
        uint8_t *data = pm_test_read_file(files.items[f], &len);
        pm_arena arena;
        const char *name = strrchr(files.items[f], '/') + 1;
        if (memcmp(data, "Obj", 3) != 0) {
            pm_free(data);
            continue;
        }
        pm_arena_init(&arena, 1 << 16);
        if (strncmp(name, "manifest-list-", 14) == 0) {
            pm_manifest_file_meta *m;
            assert_int_equal(pm_manifest_decode(data, len, name, &PM_MANIFEST_FILE_META_DESC, 2,
                                                &arena, (void **)&m, &count, &err),
                             0);
            for (size_t i = 0; i < count; i++) {
                check_row(&m[i].partition_stats.min_values, part_types, np, name, c);
                check_row(&m[i].partition_stats.max_values, part_types, np, name, c);
            }
        } else {
            pm_manifest_entry *e;
            assert_int_equal(pm_manifest_decode(data, len, name, &PM_MANIFEST_ENTRY_DESC, 2, &arena,
                                                (void **)&e, &count, &err),
                             0);
            for (size_t i = 0; i < count; i++) {
                pm_schema *s = NULL;
                const pm_type *types[MAX_FIELDS];
                size_t nk = 0, nv;
                char what[512];
                snprintf(what, sizeof(what), "%s %s", name, e[i].file.file_name);
                check_row(&e[i].partition, part_types, np, what, c);
                if (pm_schema_read(fs, table, e[i].file.schema_id, &s, &err) != 0)
                    fail_msg("%s", err.message);
                assert_int_equal(pm_schema_trimmed_pk_fields(s, keys, 64, &nk, &err), 0);
                for (size_t k = 0; k < nk; k++)
                    types[k] = keys[k]->type;
                if (nk > 0) {
                    check_row(&e[i].file.min_key, types, nk, what, c);
                    check_row(&e[i].file.max_key, types, nk, what, c);
                    check_row(&e[i].file.key_stats.min_values, types, nk, what, c);
                    check_row(&e[i].file.key_stats.max_values, types, nk, what, c);
                }
                nv = fields_named(s, &e[i].file.value_stats_cols, types);
                check_row(&e[i].file.value_stats.min_values, types, nv, what, c);
                check_row(&e[i].file.value_stats.max_values, types, nv, what, c);
                pm_schema_free(s);
            }
        }
        pm_arena_free(&arena);
        pm_free(data);
    }
    pm_schema_free(latest);
    pm_strlist_free(&files);
    pm_fs_free(fs);
}

static void test_fixture_rows_reencode_identically(void **state)
{
    pm_strlist tables;
    counters c = {0, 0};
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&tables);
    pm_test_fixture_tables(&tables);
    for (size_t i = 0; i < tables.count; i++)
        check_table(tables.items[i], &c);
    printf("%zu BinaryRows (%zu fields) from Java-written manifests re-encoded byte for byte\n",
           c.rows, c.fields);
    assert_true(c.rows > 200);
    pm_strlist_free(&tables);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_rows_reencode_identically),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
