/* Tables and commit messages for the commit tests: see commit_fixture.h. */
#include "commit_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "data/binary_row.h"
#include "meta/live_files.h"
#include "meta/snapshot.h"
#include "paimon.h"
#include "util/alloc.h"

static const uint8_t EMPTY_ROW[12] = {0};

char *pm_test_commit_table(const char *tag, bool partitioned, bool pk, const char *const *opts,
                           size_t nopt)
{
    char *dir = pm_test_tmpdir(tag);
    char *path = pm_path_join(dir, "t");
    paimon_create_options o = PAIMON_CREATE_OPTIONS_INIT;
    const char *parts[] = {"p"};
    const char *pks[] = {"id", "p"};
    const char *keys[8], *values[8];
    char buf[8][128];
    paimon_error err;
    assert_true(nopt <= 8);
    for (size_t i = 0; i < nopt; i++) {
        char *eq;
        snprintf(buf[i], sizeof(buf[i]), "%s", opts[i]);
        eq = strchr(buf[i], '=');
        assert_non_null(eq);
        *eq = '\0';
        keys[i] = buf[i];
        values[i] = eq + 1;
    }
    o.columns = "id BIGINT, v STRING, p INT";
    o.partition_keys = partitioned ? parts : NULL;
    o.partition_key_count = partitioned ? 1 : 0;
    o.primary_keys = pk ? pks : NULL;
    o.primary_key_count = pk ? 2 : 0;
    o.option_keys = keys;
    o.option_values = values;
    o.option_count = nopt;
    assert_int_equal(paimon_table_create(path, &o, &err), 0);
    pm_free(dir);
    return path;
}

void pm_test_add_entry(pm_commit_messages *m, pm_test_part part, int kind, int p, int32_t bucket,
                       int32_t level, const char *name, int64_t rows)
{
    pm_manifest_entry e;
    pm_buf row;
    int64_t nulls[1] = {0};
    pm_type *int_type = pm_type_new(PM_TYPE_INT);
    const pm_type *types[1] = {int_type};
    pm_datum v = pm_datum_int(p);
    pm_buf_init(&row, 0);
    assert_int_equal(pm_binrow_serialize(&row, types, &v, p >= 0 ? 1 : 0), 0);
    memset(&e, 0, sizeof(e));
    e.kind = kind;
    e.partition.ptr = row.data;
    e.partition.len = row.len;
    e.bucket = bucket;
    e.total_buckets = -1;
    e.file.file_name = name;
    e.file.file_size = 100;
    e.file.row_count = rows;
    e.file.level = level;
    e.file.min_key.ptr = EMPTY_ROW;
    e.file.min_key.len = 12;
    e.file.max_key = e.file.min_key;
    e.file.key_stats.min_values = e.file.min_key;
    e.file.key_stats.max_values = e.file.min_key;
    e.file.key_stats.null_counts.present = true;
    e.file.value_stats = e.file.key_stats;
    e.file.value_stats.null_counts.items = nulls;
    e.file.has_creation_time = true;
    e.file.creation_time = 1700000000000;
    e.file.has_delete_row_count = true;
    e.file.has_file_source = true;
    switch (part) {
    case PM_TEST_DATA: assert_int_equal(pm_commit_messages_add_data(m, &e), 0); break;
    case PM_TEST_COMPACT: assert_int_equal(pm_commit_messages_add_compact(m, &e), 0); break;
    case PM_TEST_CHANGELOG: assert_int_equal(pm_commit_messages_add_changelog(m, &e), 0); break;
    }
    pm_buf_free(&row);
    pm_type_free(int_type);
}

void pm_test_first_live_entry(const char *tool, pm_fs *fs, const char *table, pm_arena *arena,
                              pm_manifest_entry *out)
{
    pm_snapshot *snap = NULL;
    pm_live_file *files = NULL;
    size_t n = 0;
    paimon_error err = {0, {0}};
    int64_t latest = 0;
    bool found = false;
    if (pm_snapshot_latest_id(fs, table, &latest, &found, &err) != 0 || !found ||
        pm_snapshot_read(fs, table, latest, &snap, &err) != 0 ||
        pm_live_files_sorted(fs, table, snap, NULL, 0, NULL, NULL, arena, &files, &n, &err) != 0 ||
        n == 0) {
        fprintf(stderr, "%s: %s: no live file: %s\n", tool, table, err.message);
        exit(1);
    }
    *out = *files[0].e;
    pm_snapshot_free(snap);
}

int64_t pm_test_commit_append(const char *tool, pm_fs *fs, const char *table, pm_commit_messages *m,
                              const char *user)
{
    pm_commit_opts o;
    paimon_error err = {0, {0}};
    int64_t id = 0;
    memset(&o, 0, sizeof(o));
    o.commit_user = user;
    o.identifier = 1;
    o.kind = PM_COMMIT_APPEND;
    if (pm_commit(fs, table, m, &o, &id, &err) != 0) {
        fprintf(stderr, "%s: %s: %s\n", tool, table, err.message);
        exit(1);
    }
    return id;
}
