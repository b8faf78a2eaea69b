/*
 * System tables on a small table built in memory, whose every value is known:
 *
 *   schema 0: id INT NOT NULL, dt DATE, v STRING, amount DECIMAL(10, 2); partition dt;
 *             primary key (dt, id); bucket 2
 *   schema 1: v renamed name, amount now DOUBLE, extra BIGINT added
 *
 *   snapshot 1 (schema 0)  ADD f1 (dt 2024-01-01, bucket 0, level 0)
 *                          ADD f2 (dt null, bucket 1, level 0, dense stats of id only)
 *   snapshot 2 (schema 1)  DELETE f1, ADD f3 (2024-01-01, level 5), ADD f4 (2024-01-02)
 *   snapshot 3 (schema 1)  DELETE f4: partition 2024-01-02 is gone
 *
 * The expected rows follow Java 1.4.2's system tables (see src/table/system_*.c for the
 * rules): statistics evolved to the table's schema by field id and cast, TreeMap text,
 * partition texts, entries summed with DELETEs subtracting, `$files` at an old snapshot
 * limited to the latest snapshot's partitions, `$ro` reading only the highest level.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "manifest_util.h"
#include "testlib.h"

#include "data/binary_row.h"
#include "meta/manifest.h"
#include "paimon/scan.h"
#include "table/scan.h"
#include "table/table.h"
#include "util/alloc.h"
#include "util/arena.h"

#define D_2024_01_01  19723
#define D_2024_01_02  19724
#define MS_2024_01_02 1704153600000LL

static pm_arena arena; /* bytes of the records being written */

static void put(pm_fs *fs, const char *path, const char *text)
{
    assert_int_equal(fs->write_atomic(fs, path, text, strlen(text), true, NULL), 0);
}

/* A serialized BinaryRow of `n` values of the given types ("i" INT, "d" DATE, "s" STRING,
 * "m" DECIMAL(10, 2), "f" DOUBLE, "l" BIGINT); NULL values for nulls. */
static pm_avro_bytes row(const char *kinds, const char *const *values)
{
    pm_type *types[8];
    const pm_type *tp[8];
    pm_datum d[8];
    size_t n = strlen(kinds);
    pm_buf b;
    pm_avro_bytes out;
    for (size_t i = 0; i < n; i++) {
        pm_type_id id = kinds[i] == 'i'   ? PM_TYPE_INT
                        : kinds[i] == 'd' ? PM_TYPE_DATE
                        : kinds[i] == 's' ? PM_TYPE_VARCHAR
                        : kinds[i] == 'm' ? PM_TYPE_DECIMAL
                        : kinds[i] == 'f' ? PM_TYPE_DOUBLE
                                          : PM_TYPE_BIGINT;
        types[i] = pm_type_new(id);
        if (id == PM_TYPE_DECIMAL) {
            types[i]->precision = 10;
            types[i]->scale = 2;
        }
        tp[i] = types[i];
        d[i].is_null = values[i] == NULL;
        if (values[i] == NULL)
            continue;
        if (id == PM_TYPE_VARCHAR)
            d[i] = pm_datum_bytes(values[i], strlen(values[i]));
        else if (id == PM_TYPE_DOUBLE)
            d[i].v.d = atof(values[i]);
        else if (id == PM_TYPE_DECIMAL)
            d[i].v.dec = atoll(values[i]);
        else
            d[i].v.i = atoll(values[i]);
    }
    pm_buf_init(&b, 0);
    assert_int_equal(pm_binrow_serialize(&b, tp, d, (int32_t)n), 0);
    out.ptr = pm_arena_dup(&arena, b.data, b.len);
    out.len = b.len;
    pm_buf_free(&b);
    for (size_t i = 0; i < n; i++)
        pm_type_free(types[i]);
    return out;
}

static pm_avro_array longs(size_t n, const int64_t *v)
{
    pm_avro_array a = {pm_arena_dup(&arena, v, n * sizeof(int64_t)), n, true};
    return a;
}

static pm_avro_array strings(size_t n, const char *const *v)
{
    pm_avro_array a = {pm_arena_dup(&arena, v, n * sizeof(char *)), n, true};
    return a;
}

static pm_manifest_entry entry(int kind, const char *name, const char *dt, int32_t bucket,
                               int32_t level, int64_t schema_id, int64_t rows, int64_t size)
{
    pm_manifest_entry e;
    memset(&e, 0, sizeof(e));
    e.version = PM_MANIFEST_VERSION;
    e.kind = kind;
    e.partition = row("d", (const char *[]){dt});
    e.bucket = bucket;
    e.total_buckets = 2;
    e.file.file_name = name;
    e.file.file_size = size;
    e.file.row_count = rows;
    e.file.schema_id = schema_id;
    e.file.level = level;
    e.file.extra_files.present = true;
    return e;
}

static void keys(pm_manifest_entry *e, const char *min, const char *max)
{
    int64_t zero = 0;
    e->file.min_key = e->file.key_stats.min_values = row("i", (const char *[]){min});
    e->file.max_key = e->file.key_stats.max_values = row("i", (const char *[]){max});
    e->file.key_stats.null_counts = longs(1, &zero);
}

static void put_snapshot(pm_fs *fs, int id, int schema, const char *kind, long long total)
{
    char path[64], text[640];
    snprintf(path, sizeof(path), "t/snapshot/snapshot-%d", id);
    snprintf(text, sizeof(text),
             "{\"version\":3,\"id\":%d,\"schemaId\":%d,\"baseManifestList\":\"list-%d-base\","
             "\"deltaManifestList\":\"list-%d-delta\",\"commitUser\":\"u\",\"commitIdentifier\":%d,"
             "\"commitKind\":\"%s\",\"timeMillis\":%lld,\"totalRecordCount\":%lld,"
             "\"deltaRecordCount\":%lld%s}",
             id, schema, id, id, id, kind, 1700000000000LL + 100000LL * id, total, total - 5,
             id == 3 ? ",\"watermark\":42,\"nextRowId\":13" : "");
    put(fs, path, text);
}

static paimon_table *build_table(void)
{
    pm_fs *fs = pm_fs_memory_new();
    paimon_table *t = NULL;
    paimon_error err = {0};
    pm_manifest_entry m1[2], m2[3], m3[1];
    pm_manifest_file_meta metas[3];
    int64_t nulls0[] = {0, 0, 1, 0}, nulls1[] = {0, 0, 1, 0, 3}, nulls4[] = {0, 0, 0, 0, 0};
    int64_t dense_nulls[] = {0}, part_nulls[] = {1}, no_part_nulls[] = {0};

    put(fs, "t/schema/schema-0",
        "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"id\",\"type\":\"INT NOT NULL\"},"
        "{\"id\":1,\"name\":\"dt\",\"type\":\"DATE\"},{\"id\":2,\"name\":\"v\",\"type\":"
        "\"VARCHAR(2147483647)\"},{\"id\":3,\"name\":\"amount\",\"type\":\"DECIMAL(10, 2)\","
        "\"description\":\"in \\\"EUR\\\"\\u001f\"}],\"highestFieldId\":3,\"partitionKeys\":"
        "[\"dt\"],\"primaryKeys\":[\"dt\",\"id\"],\"options\":{\"bucket\":\"2\","
        "\"file.format\":\"parquet\",\"manifest.format\":\"avro\",\"b\":\"x\",\"a\":\"y\"},"
        "\"timeMillis\":1700000000000}");
    put(fs, "t/schema/schema-1",
        "{\"version\":3,\"id\":1,\"fields\":[{\"id\":0,\"name\":\"id\",\"type\":\"INT NOT NULL\"},"
        "{\"id\":1,\"name\":\"dt\",\"type\":\"DATE\"},{\"id\":2,\"name\":\"name\",\"type\":"
        "\"STRING\"},{\"id\":3,\"name\":\"amount\",\"type\":\"DOUBLE\"},{\"id\":4,\"name\":"
        "\"extra\",\"type\":\"BIGINT\"}],\"highestFieldId\":4,\"partitionKeys\":[\"dt\"],"
        "\"primaryKeys\":[\"dt\",\"id\"],\"options\":{\"bucket\":\"2\",\"file.format\":"
        "\"parquet\",\"manifest.format\":\"avro\",\"b\":\"x\",\"a\":\"y\",\"num-levels\":\"6\"},"
        "\"comment\":\"evolved\",\"timeMillis\":1700000100000}");

    /* f1: schema 0, full statistics */
    m1[0] = entry(PM_FILE_KIND_ADD, "f1.parquet", "19723", 0, 0, 0, 3, 100);
    keys(&m1[0], "1", "3");
    m1[0].file.value_stats.min_values = row("idsm", (const char *[]){"1", "19723", "a", "150"});
    m1[0].file.value_stats.max_values = row("idsm", (const char *[]){"3", "19723", "c", "999"});
    m1[0].file.value_stats.null_counts = longs(4, nulls0);
    m1[0].file.max_sequence_number = 2;
    m1[0].file.creation_time = 1704412800000LL; /* 2024-01-05, later than f3's */
    m1[0].file.has_creation_time = true;
    m1[0].file.file_source = 0;
    m1[0].file.has_file_source = true;
    m1[0].file.has_delete_row_count = true;
    /* f2: schema 0, null partition, statistics of id only */
    m1[1] = entry(PM_FILE_KIND_ADD, "f2.parquet", NULL, 1, 0, 0, 2, 50);
    keys(&m1[1], "7", "8");
    m1[1].file.value_stats.min_values = row("i", (const char *[]){"7"});
    m1[1].file.value_stats.max_values = row("i", (const char *[]){"8"});
    m1[1].file.value_stats.null_counts = longs(1, dense_nulls);
    m1[1].file.value_stats_cols = strings(1, (const char *[]){"id"});
    m1[1].file.creation_time = MS_2024_01_02;
    m1[1].file.has_creation_time = true;
    pm_test_write_manifest(fs, "m1", m1, 2, &metas[0]);
    metas[0].partition_stats.min_values = row("d", (const char *[]){"19723"});
    metas[0].partition_stats.max_values = row("d", (const char *[]){"19723"});
    metas[0].partition_stats.null_counts = longs(1, part_nulls);

    /* snapshot 2: f1 compacted into f3 (schema 1), f4 added */
    m2[0] = m1[0];
    m2[0].kind = PM_FILE_KIND_DELETE;
    m2[1] = entry(PM_FILE_KIND_ADD, "f3.parquet", "19723", 0, 5, 1, 3, 120);
    keys(&m2[1], "1", "3");
    m2[1].file.value_stats.min_values =
        row("idsfl", (const char *[]){"1", "19723", "a", "1.5", NULL});
    m2[1].file.value_stats.max_values =
        row("idsfl", (const char *[]){"3", "19723", "c", "9.99", NULL});
    m2[1].file.value_stats.null_counts = longs(5, nulls1);
    m2[1].file.max_sequence_number = 2;
    m2[1].file.creation_time = 1704240000000LL; /* 2024-01-03 */
    m2[1].file.has_creation_time = true;
    m2[1].file.file_source = 1;
    m2[1].file.has_file_source = true;
    m2[1].file.has_delete_row_count = true;
    m2[1].file.first_row_id = 10;
    m2[1].file.has_first_row_id = true;
    m2[1].file.write_cols = strings(2, (const char *[]){"id", "name"});
    m2[2] = entry(PM_FILE_KIND_ADD, "f4.parquet", "19724", 0, 0, 1, 1, 40);
    keys(&m2[2], "5", "5");
    m2[2].file.value_stats.min_values = row("idsfl", (const char *[]){"5", "19724", "e", "2", "7"});
    m2[2].file.value_stats.max_values = m2[2].file.value_stats.min_values;
    m2[2].file.value_stats.null_counts = longs(5, nulls4);
    m2[2].file.creation_time = 1704326400000LL; /* 2024-01-04 */
    m2[2].file.has_creation_time = true;
    pm_test_write_manifest(fs, "m2", m2, 3, &metas[1]);
    metas[1].partition_stats.min_values = row("d", (const char *[]){"19723"});
    metas[1].partition_stats.max_values = row("d", (const char *[]){"19724"});
    metas[1].partition_stats.null_counts = longs(1, no_part_nulls);
    metas[1].schema_id = 1;
    metas[1].min_row_id = 10;
    metas[1].max_row_id = 12;
    metas[1].has_min_row_id = metas[1].has_max_row_id = true;

    m3[0] = m2[2];
    m3[0].kind = PM_FILE_KIND_DELETE;
    pm_test_write_manifest(fs, "m3", m3, 1, &metas[2]);
    metas[2].partition_stats.min_values = row("d", (const char *[]){"19724"});
    metas[2].partition_stats.max_values = metas[2].partition_stats.min_values;
    metas[2].partition_stats.null_counts = longs(1, no_part_nulls);
    metas[2].schema_id = 1;

    pm_test_write_list(fs, "list-1-base", metas, 0);
    pm_test_write_list(fs, "list-1-delta", &metas[0], 1);
    pm_test_write_list(fs, "list-2-base", &metas[0], 1);
    pm_test_write_list(fs, "list-2-delta", &metas[1], 1);
    pm_test_write_list(fs, "list-3-base", &metas[0], 2);
    pm_test_write_list(fs, "list-3-delta", &metas[2], 1);
    put_snapshot(fs, 1, 0, "APPEND", 5);
    put_snapshot(fs, 2, 1, "COMPACT", 6);
    put_snapshot(fs, 3, 1, "APPEND", 5);
    assert_int_equal(pm_table_open(&t, "t", fs, &err), 0);
    return t;
}

/* ---- reading ------------------------------------------------------------------------------ */

typedef struct scan_args {
    const char *system_table;
    int64_t snapshot;
    const char *filter;
    const char *const *columns;
    size_t column_count;
} scan_args;

/* The rows as JSON lines, or the error code (the message in `err`). */
static int read_rows(paimon_table *t, scan_args a, pm_buf *out, paimon_error *err)
{
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_scan *scan = NULL;
    paimon_cursor *rows = NULL;
    int rc;
    o.system_table = a.system_table;
    o.snapshot_id = a.snapshot;
    o.filter = a.filter;
    o.columns = a.columns;
    o.column_count = a.column_count;
    o.batch_rows = 2; /* several batches even for small tables */
    pm_buf_reset(out);
    if ((rc = paimon_table_scan(&scan, t, &o, err)) != 0)
        return rc;
    assert_int_equal(paimon_scan_cursor(&rows, scan, err), 0);
    while ((rc = paimon_cursor_next(rows, err)) == 0) {
        const char *json;
        size_t len;
        assert_int_equal(paimon_cursor_row_json(rows, &json, &len, err), 0);
        assert_int_equal(pm_buf_append(out, json, len), 0);
        assert_int_equal(pm_buf_putc(out, '\n'), 0);
    }
    paimon_cursor_free(rows);
    paimon_scan_free(scan);
    return rc == PAIMON_ITEROVER ? 0 : rc;
}

static void expect_rows(paimon_table *t, scan_args a, const char *want)
{
    pm_buf got;
    paimon_error err = {0};
    pm_buf_init(&got, 0);
    if (read_rows(t, a, &got, &err) != 0)
        fail_msg("%s: %s", a.system_table, err.message);
    if (strcmp(pm_buf_cstr(&got), want) != 0)
        fail_msg("%s:\n got: %s\nwant: %s", a.system_table, pm_buf_cstr(&got), want);
    pm_buf_free(&got);
}

static int setup(void **state)
{
    setenv("TZ", "UTC", 1);
    tzset();
    pm_arena_init(&arena, 1 << 12);
    *state = build_table();
    return 0;
}

static int teardown(void **state)
{
    paimon_table_free(*state);
    pm_arena_free(&arena);
    return 0;
}

/* ---- tests -------------------------------------------------------------------------------- */

static void test_snapshots(void **state)
{
    expect_rows(*state, (scan_args){"snapshots", 0, "snapshot_id <> 2", NULL, 0},
                "{\"snapshot_id\":1,\"schema_id\":0,\"commit_user\":\"u\",\"commit_identifier\":1,"
                "\"commit_kind\":\"APPEND\",\"commit_time\":\"2023-11-14 22:15:00.000\","
                "\"base_manifest_list\":\"list-1-base\",\"delta_manifest_list\":\"list-1-delta\","
                "\"changelog_manifest_list\":null,\"total_record_count\":5,"
                "\"delta_record_count\":0,\"changelog_record_count\":null,\"watermark\":null,"
                "\"next_row_id\":null}\n"
                "{\"snapshot_id\":3,\"schema_id\":1,\"commit_user\":\"u\",\"commit_identifier\":3,"
                "\"commit_kind\":\"APPEND\",\"commit_time\":\"2023-11-14 22:18:20.000\","
                "\"base_manifest_list\":\"list-3-base\",\"delta_manifest_list\":\"list-3-delta\","
                "\"changelog_manifest_list\":null,\"total_record_count\":5,"
                "\"delta_record_count\":0,\"changelog_record_count\":null,\"watermark\":42,"
                "\"next_row_id\":13}\n");
    /* Another zone: commit_time is the local date-time (ZoneId.systemDefault()). */
    setenv("TZ", "Asia/Shanghai", 1);
    tzset();
    expect_rows(*state,
                (scan_args){"SNAPSHOTS", 0, "snapshot_id = 1",
                            (const char *[]){"commit_time", "snapshot_id"}, 2},
                "{\"commit_time\":\"2023-11-15 06:15:00.000\",\"snapshot_id\":1}\n");
    setenv("TZ", "UTC", 1);
    tzset();
}

static void test_schemas_and_options(void **state)
{
    expect_rows(
        *state, (scan_args){"schemas", 0, "schema_id = 0", NULL, 0},
        "{\"schema_id\":0,\"fields\":\"[{\\\"id\\\":0,\\\"name\\\":\\\"id\\\",\\\"type\\\":"
        "\\\"INT NOT NULL\\\"},{\\\"id\\\":1,\\\"name\\\":\\\"dt\\\",\\\"type\\\":\\\"DATE\\\"},"
        "{\\\"id\\\":2,\\\"name\\\":\\\"v\\\",\\\"type\\\":\\\"STRING\\\"},{\\\"id\\\":3,"
        "\\\"name\\\":\\\"amount\\\",\\\"type\\\":\\\"DECIMAL(10, 2)\\\",\\\"description\\\":"
        "\\\"in \\\\\\\"EUR\\\\\\\"\\\\u001F\\\"}]\",\"partition_keys\":\"[\\\"dt\\\"]\","
        "\"primary_keys\":\"[\\\"dt\\\",\\\"id\\\"]\",\"options\":\"{\\\"bucket\\\":\\\"2\\\","
        "\\\"a\\\":\\\"y\\\",\\\"b\\\":\\\"x\\\",\\\"manifest.format\\\":\\\"avro\\\","
        "\\\"file.format\\\":\\\"parquet\\\"}\",\"comment\":null,"
        "\"update_time\":\"2023-11-14 22:13:20.000\"}\n");
    expect_rows(*state, (scan_args){"schemas", 3, NULL, (const char *[]){"comment"}, 1},
                "{\"comment\":null}\n{\"comment\":\"evolved\"}\n");
    /* the latest schema's options, in Java's HashMap order; --snapshot is ignored */
    expect_rows(*state, (scan_args){"options", 1, NULL, NULL, 0},
                "{\"key\":\"bucket\",\"value\":\"2\"}\n{\"key\":\"a\",\"value\":\"y\"}\n"
                "{\"key\":\"b\",\"value\":\"x\"}\n{\"key\":\"num-levels\",\"value\":\"6\"}\n"
                "{\"key\":\"manifest.format\",\"value\":\"avro\"}\n"
                "{\"key\":\"file.format\",\"value\":\"parquet\"}\n");
}

static const char F2_LATEST[] =
    "{\"partition\":\"{null}\",\"bucket\":1,\"file_path\":\"t/dt=__DEFAULT_PARTITION__/bucket-1/"
    "f2.parquet\",\"file_format\":\"parquet\",\"schema_id\":0,\"level\":0,\"record_count\":2,"
    "\"file_size_in_bytes\":50,\"min_key\":\"[7]\",\"max_key\":\"[8]\",\"null_value_counts\":"
    "\"{amount=null, dt=null, extra=2, id=0, name=null}\",\"min_value_stats\":\"{amount=null, "
    "dt=null, extra=null, id=7, name=null}\",\"max_value_stats\":\"{amount=null, dt=null, "
    "extra=null, id=8, name=null}\",\"min_sequence_number\":0,\"max_sequence_number\":0,"
    "\"creation_time\":\"2024-01-02 00:00:00.000\",\"deleteRowCount\":null,\"file_source\":null,"
    "\"first_row_id\":null,\"write_cols\":null}\n";

static const char F3_LATEST[] =
    "{\"partition\":\"{2024-01-01}\",\"bucket\":0,\"file_path\":\"t/dt=19723/bucket-0/"
    "f3.parquet\",\"file_format\":\"parquet\",\"schema_id\":1,\"level\":5,\"record_count\":3,"
    "\"file_size_in_bytes\":120,\"min_key\":\"[1]\",\"max_key\":\"[3]\",\"null_value_counts\":"
    "\"{amount=0, dt=0, extra=3, id=0, name=1}\",\"min_value_stats\":\"{amount=1.5, dt=19723, "
    "extra=null, id=1, name=a}\",\"max_value_stats\":\"{amount=9.99, dt=19723, extra=null, id=3, "
    "name=c}\",\"min_sequence_number\":0,\"max_sequence_number\":2,\"creation_time\":"
    "\"2024-01-03 00:00:00.000\",\"deleteRowCount\":0,\"file_source\":\"COMPACT\","
    "\"first_row_id\":10,\"write_cols\":[\"id\",\"name\"]}\n";

static void test_files(void **state)
{
    pm_buf want;
    pm_buf_init(&want, 0);
    assert_int_equal(pm_buf_puts(&want, F2_LATEST), 0);
    assert_int_equal(pm_buf_puts(&want, F3_LATEST), 0);
    expect_rows(*state, (scan_args){"files", 0, NULL, NULL, 0}, pm_buf_cstr(&want));
    /* Snapshot 2 also has f4, but its partition is not in the latest snapshot. */
    expect_rows(*state, (scan_args){"files", 2, NULL, NULL, 0}, pm_buf_cstr(&want));
    pm_buf_free(&want);
    /* Snapshot 1 is read with schema 0: f2's dense statistics cover the file's columns. */
    expect_rows(*state,
                (scan_args){"files", 1, NULL,
                            (const char *[]){"file_path", "null_value_counts", "min_value_stats",
                                             "max_value_stats"},
                            4},
                "{\"file_path\":\"t/dt=__DEFAULT_PARTITION__/bucket-1/f2.parquet\","
                "\"null_value_counts\":\"{amount=null, dt=null, id=0, v=null}\","
                "\"min_value_stats\":\"{amount=null, dt=null, id=7, v=null}\","
                "\"max_value_stats\":\"{amount=null, dt=null, id=8, v=null}\"}\n"
                "{\"file_path\":\"t/dt=19723/bucket-0/f1.parquet\","
                "\"null_value_counts\":\"{amount=0, dt=0, id=0, v=1}\","
                "\"min_value_stats\":\"{amount=1.50, dt=19723, id=1, v=a}\","
                "\"max_value_stats\":\"{amount=9.99, dt=19723, id=3, v=c}\"}\n");
    /* A filter on the system table's own columns. */
    expect_rows(*state,
                (scan_args){"files", 0, "level = 5 AND file_source = 'COMPACT'",
                            (const char *[]){"file_path", "creation_time"}, 2},
                "{\"file_path\":\"t/dt=19723/bucket-0/f3.parquet\","
                "\"creation_time\":\"2024-01-03 00:00:00.000\"}\n");
}

static void test_manifests(void **state)
{
    static const char *const columns[] = {
        "file_name",           "num_added_files",     "num_deleted_files", "schema_id",
        "min_partition_stats", "max_partition_stats", "min_row_id",        "max_row_id"};
    expect_rows(*state, (scan_args){"manifests", 0, "file_size > 100", columns, 8},
                "{\"file_name\":\"m1\",\"num_added_files\":2,\"num_deleted_files\":0,"
                "\"schema_id\":0,\"min_partition_stats\":\"{2024-01-01}\","
                "\"max_partition_stats\":\"{2024-01-01}\",\"min_row_id\":null,"
                "\"max_row_id\":null}\n"
                "{\"file_name\":\"m2\",\"num_added_files\":2,\"num_deleted_files\":1,"
                "\"schema_id\":1,\"min_partition_stats\":\"{2024-01-01}\","
                "\"max_partition_stats\":\"{2024-01-02}\",\"min_row_id\":10,"
                "\"max_row_id\":12}\n"
                "{\"file_name\":\"m3\",\"num_added_files\":0,\"num_deleted_files\":1,"
                "\"schema_id\":1,\"min_partition_stats\":\"{2024-01-02}\","
                "\"max_partition_stats\":\"{2024-01-02}\",\"min_row_id\":null,"
                "\"max_row_id\":null}\n");
    expect_rows(*state, (scan_args){"manifests", 1, NULL, (const char *[]){"file_name"}, 1},
                "{\"file_name\":\"m1\"}\n");
}

static void test_partitions_and_buckets(void **state)
{
    /* 2024-01-01: f1 added and deleted, f3 added; the deleted f1 still counts for the last
     * update time (Java takes the maximum over every entry). */
    expect_rows(*state, (scan_args){"partitions", 0, NULL, NULL, 0},
                "{\"partition\":\"dt=2024-01-01\",\"record_count\":3,\"file_size_in_bytes\":120,"
                "\"file_count\":1,\"last_update_time\":\"2024-01-05 00:00:00.000\","
                "\"created_at\":null,\"created_by\":null,\"updated_by\":null,\"options\":null}\n"
                "{\"partition\":\"dt=__DEFAULT_PARTITION__\",\"record_count\":2,"
                "\"file_size_in_bytes\":50,\"file_count\":1,\"last_update_time\":"
                "\"2024-01-02 00:00:00.000\",\"created_at\":null,\"created_by\":null,"
                "\"updated_by\":null,\"options\":null}\n");
    expect_rows(*state,
                (scan_args){"partitions", 2, NULL,
                            (const char *[]){"partition", "record_count", "file_count"}, 3},
                "{\"partition\":\"dt=2024-01-01\",\"record_count\":3,\"file_count\":1}\n"
                "{\"partition\":\"dt=2024-01-02\",\"record_count\":1,\"file_count\":1}\n"
                "{\"partition\":\"dt=__DEFAULT_PARTITION__\",\"record_count\":2,"
                "\"file_count\":1}\n");
    /* $buckets always reads the latest snapshot. */
    expect_rows(*state, (scan_args){"buckets", 2, NULL, NULL, 0},
                "{\"partition\":\"{2024-01-01}\",\"bucket\":0,\"record_count\":3,"
                "\"file_size_in_bytes\":120,\"file_count\":1,\"last_update_time\":"
                "\"2024-01-05 00:00:00.000\"}\n"
                "{\"partition\":\"{null}\",\"bucket\":1,\"record_count\":2,"
                "\"file_size_in_bytes\":50,\"file_count\":1,\"last_update_time\":"
                "\"2024-01-02 00:00:00.000\"}\n");
}

static void test_read_optimized_plan(void **state)
{
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_scan *scan = NULL;
    paimon_split_file f;
    paimon_error err = {0};
    o.system_table = "ro";
    assert_int_equal(paimon_table_scan(&scan, *state, &o, &err), 0);
    /* f2 (level 0) is left out: only the highest level of num-levels 6 */
    assert_int_equal(paimon_scan_split_count(scan), 1);
    assert_int_equal(paimon_scan_split_file(scan, 0, 0, &f, &err), 0);
    assert_int_equal(f.level, 5);
    assert_non_null(strstr(f.path, "f3.parquet"));
    assert_string_equal(paimon_scan_column_name(scan, 4), "extra");
    paimon_scan_free(scan);
}

static void test_splits_and_arrow(void **state)
{
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_scan *scan = NULL;
    paimon_split_info info;
    paimon_split_file f;
    struct ArrowArrayStream stream;
    struct ArrowSchema schema;
    paimon_error err = {0};
    int64_t rows = 0, batches = 0;
    o.system_table = "snapshots";
    o.batch_rows = 1;
    assert_int_equal(paimon_table_scan(&scan, *state, &o, &err), 0);
    assert_int_equal(paimon_scan_snapshot_id(scan), -1);
    assert_int_equal(paimon_scan_split_count(scan), 1);
    assert_int_equal(paimon_scan_split(scan, 0, &info, &err), 0);
    assert_int_equal(info.file_count, 0);
    assert_string_equal(info.partition, "{}");
    assert_int_equal(paimon_scan_split_file(scan, 0, 0, &f, &err), PAIMON_EINVALID);
    assert_string_equal(paimon_scan_column_type(scan, 5), "TIMESTAMP(3) NOT NULL");
    {
        paimon_cursor *cur;
        assert_int_equal(paimon_scan_split_cursor(&cur, scan, 0, &err), 0);
        assert_int_equal(paimon_cursor_arrow_stream(cur, &stream, &err), 0);
        paimon_cursor_free(cur); /* the stream does not need it */
    }
    assert_int_equal(stream.get_schema(&stream, &schema), 0);
    assert_int_equal(schema.n_children, 14);
    assert_string_equal(schema.children[0]->name, "snapshot_id");
    schema.release(&schema);
    for (;;) {
        struct ArrowArray a;
        assert_int_equal(stream.get_next(&stream, &a), 0);
        if (a.release == NULL)
            break;
        rows += a.length;
        batches++;
        a.release(&a);
    }
    assert_int_equal(rows, 3);
    assert_int_equal(batches, 3);
    stream.release(&stream);
    paimon_scan_free(scan);

    o.system_table = "files";
    o.snapshot_id = 2;
    assert_int_equal(paimon_table_scan(&scan, *state, &o, &err), 0);
    assert_int_equal(paimon_scan_snapshot_id(scan), 2);
    paimon_scan_free(scan);
}

static void test_errors(void **state)
{
    pm_buf got;
    paimon_error err = {0};
    pm_buf_init(&got, 0);
    assert_int_equal(read_rows(*state, (scan_args){"nope", 0, NULL, NULL, 0}, &got, &err),
                     PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "t$nope: no such system table"));
    assert_int_equal(read_rows(*state, (scan_args){"statistics", 0, NULL, NULL, 0}, &got, &err),
                     PAIMON_EUNSUPPORTED);
    assert_non_null(strstr(err.message, "t$statistics: "));
    assert_int_equal(read_rows(*state, (scan_args){"files", 9, NULL, NULL, 0}, &got, &err),
                     PAIMON_ENOTFOUND);
    /* a filter and columns refer to the system table's columns */
    assert_int_equal(read_rows(*state, (scan_args){"files", 0, "id = 1", NULL, 0}, &got, &err),
                     PAIMON_ENOTFOUND);
    assert_int_equal(read_rows(*state, (scan_args){"files", 0, "level = 'x'", NULL, 0}, &got, &err),
                     PAIMON_EINVALID);
    assert_int_equal(
        read_rows(*state, (scan_args){"options", 0, NULL, (const char *[]){"nope"}, 1}, &got, &err),
        PAIMON_ENOTFOUND);
    pm_buf_free(&got);
}

/* A version 1 options struct (without system_table) still scans the table itself. */
static void test_options_version_1(void **state)
{
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_scan *scan = NULL;
    paimon_error err = {0};
    o.version = 1;
    o.system_table = "snapshots"; /* not part of a version 1 struct: ignored */
    assert_int_equal(paimon_table_scan(&scan, *state, &o, &err), 0);
    assert_string_equal(paimon_scan_column_name(scan, 0), "id");
    paimon_scan_free(scan);
    o.version = PAIMON_SCAN_OPTIONS_VERSION + 1;
    assert_int_equal(paimon_table_scan(&scan, *state, &o, &err), PAIMON_EINVALID);
}

/* A table without snapshots: the system tables are empty, not errors. */
static void test_no_snapshots(void **state)
{
    static const char *const names[] = {"snapshots", "files", "manifests", "partitions", "buckets"};
    pm_fs *fs = pm_fs_memory_new();
    paimon_table *t = NULL;
    paimon_error err = {0};
    pm_buf got;
    (void)state;
    put(fs, "e/schema/schema-0",
        "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
        "\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}");
    assert_int_equal(pm_table_open(&t, "e", fs, &err), 0);
    pm_buf_init(&got, 0);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        assert_int_equal(read_rows(t, (scan_args){names[i], 0, NULL, NULL, 0}, &got, &err), 0);
        assert_int_equal(got.len, 0);
    }
    assert_int_equal(
        read_rows(t, (scan_args){"schemas", 0, NULL, (const char *[]){"schema_id"}, 1}, &got, &err),
        0);
    assert_string_equal(pm_buf_cstr(&got), "{\"schema_id\":0}\n");
    /* Java's $files lists the latest snapshot's partitions before it time travels: with no
     * snapshot at all, an unknown one is never looked up ($manifests does look it up). */
    assert_int_equal(read_rows(t, (scan_args){"files", 5, NULL, NULL, 0}, &got, &err), 0);
    assert_int_equal(got.len, 0);
    assert_int_equal(read_rows(t, (scan_args){"manifests", 5, NULL, NULL, 0}, &got, &err),
                     PAIMON_ENOTFOUND);
    pm_buf_free(&got);
    paimon_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshots),
        cmocka_unit_test(test_schemas_and_options),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_manifests),
        cmocka_unit_test(test_partitions_and_buckets),
        cmocka_unit_test(test_read_optimized_plan),
        cmocka_unit_test(test_splits_and_arrow),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_options_version_1),
        cmocka_unit_test(test_no_snapshots),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
