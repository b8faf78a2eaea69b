/*
 * Statistics the writer computes, against Java's bytes: for every live Parquet data file of
 * every fixture table, the file's rows go through the writer's statistics collectors
 * (table/write/col_stats.h) with the table's options; for every live ORC data file (all
 * written by ORC Java 1.9), its footer statistics go through pm_orc_file_col_stats (Java's
 * OrcSimpleStatsExtractor) and the same collectors; the key statistics, value statistics,
 * _VALUE_STATS_COLS, minimum and maximum key, sequence-number range and delete count must
 * equal what Java recorded in the manifest entry, byte for byte.
 *
 * Tables written before Java 1.0 used other rules for key statistics (and paimon-cpp's own
 * tables are not Java's): their differences are printed, not failed (see KNOWN below).
 */
#include <string.h>

#include "testlib.h"

#include "data/binary_row.h"
#include "format/data_file.h"
#include "format/orc/orc_format.h"
#include "lsm/merge_function.h"
#include "meta/file_entry.h"
#include "meta/manifest.h"
#include "meta/schema.h"
#include "table/scan.h"
#include "table/table.h"
#include "table/write/col_stats.h"
#include "util/alloc.h"

/* Tables whose writers predate the rules checked here (0.9-SNAPSHOTs, paimon-cpp), and
 * cpp-parquet-unordered, written by a Java Paimon older than 1.3: before RowHelper (#5849)
 * Java wrote a null non-compact TIMESTAMP/DECIMAL bound as a zero slot; 1.3 and later (and
 * paimon-c) keep an offset and reserve the zeroed var bytes, as in partition rows. */
static const char *const KNOWN[] = {"-09", "duckdb-polardb", "cpp-parquet-unordered", NULL};

static bool known(const char *table)
{
    for (size_t i = 0; KNOWN[i] != NULL; i++)
        if (strstr(table, KNOWN[i]) != NULL)
            return true;
    return false;
}

static bool same_bytes(const pm_avro_bytes *a, const pm_avro_bytes *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->ptr, b->ptr, a->len) == 0);
}

static bool same_stats(const pm_simple_stats *a, const pm_simple_stats *b)
{
    if (!same_bytes(&a->min_values, &b->min_values) ||
        !same_bytes(&a->max_values, &b->max_values) ||
        a->null_counts.present != b->null_counts.present ||
        a->null_counts.count != b->null_counts.count)
        return false;
    for (size_t i = 0; i < a->null_counts.count; i++)
        if (((int64_t *)a->null_counts.items)[i] != ((int64_t *)b->null_counts.items)[i])
            return false;
    return true;
}

static bool same_cols(const pm_avro_array *a, const pm_avro_array *b)
{
    if (a->present != b->present || a->count != b->count)
        return false;
    for (size_t i = 0; i < a->count; i++)
        if (strcmp(((const char *const *)a->items)[i], ((const char *const *)b->items)[i]) != 0)
            return false;
    return true;
}

typedef struct counts {
    size_t files, orc_files, mismatches, known_mismatches;
} counts;

static void report(counts *c, const char *table, const char *file, const char *what,
                   const pm_avro_bytes *java, const pm_avro_bytes *ours)
{
    bool k = known(table);
    if (k)
        c->known_mismatches++;
    else
        c->mismatches++;
    printf("%s %s %s: %s differs\n", k ? "known" : "MISMATCH", table, file, what);
    if (java != NULL) {
        printf("  java %s\n", pm_test_hex(java->ptr, java->len));
        printf("  ours %s\n", pm_test_hex(ours->ptr, ours->len));
    }
}

static void check_file(paimon_table *t, const pm_schema *s, const pm_manifest_entry *e,
                       const char *path, counts *c)
{
    paimon_error err = {0};
    pm_fs *fs = pm_fs_local_new(false);
    pm_data_file *f = NULL;
    const pm_type *type;
    pm_read_options ro;
    pm_stats_mode *modes;
    pm_stats_acc *acc;
    pm_col_result *res;
    const pm_type **types;
    const char **names;
    bool *thin_keys;
    size_t n, value_start = 0, key_count = 0;
    int key_cols[64], seq_col = -1, kind_col = -1;
    bool pk = s->primary_keys.count > 0, dense = true;
    pm_arena arena;
    pm_simple_stats ks, vs;
    pm_avro_array cols;
    pm_buf min_key, max_key;
    int64_t rows = 0, min_seq = INT64_MAX, max_seq = INT64_MIN, deletes = 0;
    const char *mode = pm_schema_option(s, "metadata.stats-mode");
    size_t path_len = strlen(path);
    bool orc = path_len > 4 && strcmp(path + path_len - 4, ".orc") == 0;
    pm_stats_source source = orc ? PM_STATS_FROM_ORC : PM_STATS_FROM_PARQUET;

    assert_int_equal(pm_data_file_open(&f, fs, path, &err), 0);
    type = f->format->type(f->impl);
    n = type->field_count;
    modes = pm_calloc(n + 1, sizeof(*modes));
    acc = pm_calloc(n + 1, sizeof(*acc));
    res = pm_calloc(n + 1, sizeof(*res));
    types = pm_calloc(n + 1, sizeof(*types));
    names = pm_calloc(n + 1, sizeof(*names));
    thin_keys = pm_calloc(n + 1, sizeof(*thin_keys));
    for (size_t i = 0; i < n; i++) {
        names[i] = type->fields[i].name;
        types[i] = type->fields[i].type;
        if (strcmp(names[i], "_SEQUENCE_NUMBER") == 0)
            seq_col = (int)i;
        else if (strcmp(names[i], "_VALUE_KIND") == 0)
            kind_col = (int)i;
        else if (strncmp(names[i], "_KEY_", 5) == 0)
            key_cols[key_count++] = (int)i;
    }
    if (pk) {
        const pm_field *keys[64];
        size_t nk;
        value_start = (size_t)kind_col + 1;
        if (key_count == 0) { /* thin mode: the key fields among the values */
            assert_int_equal(pm_schema_trimmed_pk_fields(s, keys, 64, &nk, &err), 0);
            for (size_t k = 0; k < nk; k++)
                for (size_t i = value_start; i < n; i++)
                    if (strcmp(names[i], keys[k]->name) == 0) {
                        key_cols[key_count++] = (int)i;
                        thin_keys[i] = true;
                    }
        }
    }
    assert_int_equal(pm_options_get_bool(&s->options, "metadata.stats-dense-store", &dense, &err),
                     0);
    if (pm_stats_modes_for(&s->options, mode != NULL ? mode : "truncate(16)", source, names, n,
                           thin_keys, modes, &err) != 0)
        fail_msg("%s: %s", path, err.message);
    for (size_t i = 0; i < n; i++)
        pm_stats_acc_init(&acc[i], types[i], modes[i], source);
    pm_buf_init(&min_key, 0);
    pm_buf_init(&max_key, 0);
    memset(&ro, 0, sizeof(ro));
    assert_int_equal(f->format->start(f->impl, &ro, &err), 0);
    for (;;) {
        pm_batch *b = NULL;
        int rc = f->format->next(f->impl, &b, &err);
        if (rc == PAIMON_ITEROVER)
            break;
        if (rc != 0)
            fail_msg("%s: %s", path, err.message);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(pm_stats_acc_add(&acc[i], b->columns[i], 0, b->row_count), 0);
        if (pk && b->row_count > 0) {
            pm_datum kv[64];
            const pm_type *kt[64];
            for (int64_t r = 0; r < b->row_count; r++) {
                int64_t sq;
                memcpy(&sq, b->columns[seq_col]->values.data + 8 * r, 8);
                min_seq = sq < min_seq ? sq : min_seq;
                max_seq = sq > max_seq ? sq : max_seq;
                deletes += !pm_kind_is_add(((int8_t *)b->columns[kind_col]->values.data)[r]);
            }
            for (int pass = 0; pass < 2; pass++) {
                int64_t r = pass == 0 ? 0 : b->row_count - 1;
                if (pass == 0 && rows > 0)
                    continue;
                for (size_t k = 0; k < key_count; k++) {
                    kt[k] = types[key_cols[k]];
                    pm_column_get_datum(b->columns[key_cols[k]], r, &kv[k]);
                }
                pm_buf *dst = pass == 0 ? &min_key : &max_key;
                dst->len = 0;
                assert_int_equal(pm_binrow_serialize(dst, kt, kv, (int32_t)key_count), 0);
            }
        }
        rows += b->row_count;
        pm_batch_free(b);
    }
    pm_arena_init(&arena, 4096);
    if (orc) { /* the statistics of the file's footer, as Java reads them back */
        pm_file_col_stats *raw = pm_arena_calloc(&arena, n + 1, sizeof(*raw));
        assert_non_null(raw);
        if (pm_orc_file_col_stats(fs, path, type, &arena, raw, &err) != 0)
            fail_msg("%s: %s", path, err.message);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(pm_stats_acc_set_file(&acc[i], &raw[i]), 0);
        c->orc_files++;
    }
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pm_stats_acc_result(&acc[i], &res[i]), 0);
    assert_int_equal(pm_stats_serialize_dense(&arena, types + value_start, names + value_start,
                                              res + value_start, n - value_start, dense, &vs, &cols,
                                              &err),
                     0);
    c->files++;
    if (!same_stats(&vs, &e->file.value_stats))
        report(c, t->path, e->file.file_name, "_VALUE_STATS", &e->file.value_stats.max_values,
               &vs.max_values);
    if (!same_cols(&cols, &e->file.value_stats_cols))
        report(c, t->path, e->file.file_name, "_VALUE_STATS_COLS", NULL, NULL);
    if (pk) {
        pm_col_result kr[64];
        const pm_type *kt[64];
        pm_avro_bytes a = {min_key.data, min_key.len}, b = {max_key.data, max_key.len};
        for (size_t k = 0; k < key_count; k++) {
            kr[k] = res[key_cols[k]];
            kt[k] = types[key_cols[k]];
        }
        assert_int_equal(pm_stats_serialize_all(&arena, kt, kr, key_count, &ks, &err), 0);
        if (!same_stats(&ks, &e->file.key_stats))
            report(c, t->path, e->file.file_name, "_KEY_STATS", &e->file.key_stats.max_values,
                   &ks.max_values);
        if (!same_bytes(&a, &e->file.min_key))
            report(c, t->path, e->file.file_name, "_MIN_KEY", &e->file.min_key, &a);
        if (!same_bytes(&b, &e->file.max_key))
            report(c, t->path, e->file.file_name, "_MAX_KEY", &e->file.max_key, &b);
        if (min_seq != e->file.min_sequence_number || max_seq != e->file.max_sequence_number)
            report(c, t->path, e->file.file_name, "sequence numbers", NULL, NULL);
        if (e->file.has_delete_row_count && deletes != e->file.delete_row_count)
            report(c, t->path, e->file.file_name, "_DELETE_ROW_COUNT", NULL, NULL);
    }
    if (rows != e->file.row_count)
        report(c, t->path, e->file.file_name, "_ROW_COUNT", NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        pm_stats_acc_free(&acc[i]);
        pm_col_result_free(&res[i]);
    }
    pm_arena_free(&arena);
    pm_buf_free(&min_key);
    pm_buf_free(&max_key);
    pm_free(modes);
    pm_free(acc);
    pm_free(res);
    pm_free(types);
    pm_free(names);
    pm_free(thin_keys);
    pm_data_file_free(f);
    pm_fs_free(fs);
}

static void check_table(const char *table, counts *c)
{
    paimon_error err = {0};
    paimon_table *t = NULL;
    pm_snapshot *snap = NULL;
    pm_arena arena;
    const pm_manifest_entry **live = NULL;
    size_t count = 0;
    if (paimon_table_open(&t, table, &err) != 0)
        return;
    if (pm_table_snapshot(t, -1, &snap, &err) != 0) {
        paimon_table_free(t);
        return;
    }
    pm_arena_init(&arena, 64 * 1024);
    if (pm_snapshot_live_entries(t->fs, t->path, snap, &arena, &live, &count, &err) != 0) {
        printf("FAIL %s: %s\n", table, err.message); /* every manifest format reads */
        c->mismatches++;
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        const pm_manifest_entry *e = live[i];
        pm_schema *s = NULL;
        const char *path;
        size_t len = strlen(e->file.file_name);
        if ((len < 8 || strcmp(e->file.file_name + len - 8, ".parquet") != 0) &&
            (len < 4 || strcmp(e->file.file_name + len - 4, ".orc") != 0))
            continue;
        if (pm_table_schema(t, e->file.schema_id, &s, &err) != 0)
            fail_msg("%s: %s", table, err.message);
        path = pm_data_file_path(t, s, e, &arena, &err);
        if (path != NULL)
            check_file(t, s, e, path, c);
        pm_table_schema_release(t, s);
    }
done:
    pm_arena_free(&arena);
    pm_snapshot_free(snap);
    paimon_table_free(t);
}

static void test_fixture_stats(void **state)
{
    pm_strlist tables;
    counts c = {0, 0, 0, 0};
    (void)state;
    if (!pm_test_require_fixtures())
        skip();
    pm_strlist_init(&tables);
    pm_test_fixture_tables(&tables);
    for (size_t i = 0; i < tables.count; i++)
        check_table(tables.items[i], &c);
    printf("%zu data files checked (%zu of them ORC): %zu mismatches, %zu known (older "
           "writers)\n",
           c.files, c.orc_files, c.mismatches, c.known_mismatches);
    pm_strlist_free(&tables);
    assert_true(c.files > 0);
    assert_true(c.orc_files > 0);
    assert_int_equal(c.mismatches, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_fixture_stats)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
