/* Writes an append table through the commit layer, for the oracle to read:
 *
 *   interop_write_commit_table TABLE > expected.jsonl
 *
 * Table: id BIGINT, v STRING, p INT, partitioned by p, unaware bucket, file.format=avro.
 * Five commits of one Avro data file per partition (p = 0, 1, 2), written here by hand in
 * Paimon's Avro data-file layout with the statistics Java collects for Avro (row by row,
 * truncate(16)), then an overwrite of p=1.  Prints the rows the last snapshot holds in the
 * canonical form.  (The data writers of the write path replace this hand-made file.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/binary_row.h"
#include "format/avro/avro_container.h"
#include "meta/partition.h"
#include "meta/path_factory.h"
#include "paimon.h"
#include "table/commit.h"
#include "util/alloc.h"
#include "util/time.h"
#include "util/varint.h"

#define ROWS 4

static const char SCHEMA[] =
    "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\","
    "\"fields\":[{\"name\":\"id\",\"type\":[\"null\",\"long\"],\"default\":null},"
    "{\"name\":\"v\",\"type\":[\"null\",\"string\"],\"default\":null},"
    "{\"name\":\"p\",\"type\":[\"null\",\"int\"],\"default\":null}]}";

static void die(const char *what, const paimon_error *err)
{
    fprintf(stderr, "write_commit_table: %s: %s\n", what, err != NULL ? err->message : "");
    exit(1);
}

static void put_long(pm_buf *b, int64_t v)
{
    uint8_t tmp[10];
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    size_t n = 0;
    while (z >= 0x80) {
        tmp[n++] = (uint8_t)(z | 0x80);
        z >>= 7;
    }
    tmp[n++] = (uint8_t)z;
    pm_buf_append(b, tmp, n);
}

/* One data file of rows (id = base + i, v = "row-<id>", p) and its manifest entry. */
static void write_file(pm_fs *fs, const char *table, pm_path_factory *names, int p, int64_t base,
                       int64_t seq, pm_commit_messages *m, FILE *expected)
{
    pm_buf file, name, dir, stat_min, stat_max, part;
    pm_avro_writer w;
    paimon_error err;
    pm_type *tb = pm_type_new(PM_TYPE_BIGINT), *ts = pm_type_new(PM_TYPE_VARCHAR),
            *ti = pm_type_new(PM_TYPE_INT);
    const pm_type *types[3] = {tb, ts, ti};
    pm_datum mins[3], maxs[3], pv = pm_datum_int(p);
    char vmin[32], vmax[32];
    int64_t nulls[3] = {0, 0, 0};
    pm_manifest_entry e;
    char *path;
    pm_output *out;
    static const uint8_t EMPTY[12] = {0};

    ts->length = PM_MAX_LENGTH;
    pm_buf_init(&file, 0);
    pm_buf_init(&name, 0);
    pm_buf_init(&dir, 0);
    pm_buf_init(&stat_min, 0);
    pm_buf_init(&stat_max, 0);
    pm_buf_init(&part, 0);
    if (pm_avro_writer_open(&w, SCHEMA, pm_avro_codec_for_option("zstd"), 1, &file, NULL, &err))
        die("avro", &err);
    for (int i = 0; i < ROWS; i++) {
        pm_buf *o = pm_avro_writer_object(&w);
        char v[32];
        int len = snprintf(v, sizeof(v), "row-%lld", (long long)(base + i));
        put_long(o, 1);
        put_long(o, base + i);
        put_long(o, 1);
        put_long(o, len);
        pm_buf_append(o, v, (size_t)len);
        put_long(o, 1);
        put_long(o, p);
        if (pm_avro_writer_end_object(&w, &err))
            die("avro", &err);
        fprintf(expected, "{\"id\":%lld,\"v\":\"%s\",\"p\":%d}\n", (long long)(base + i), v, p);
    }
    if (pm_avro_writer_close(&w, &err))
        die("avro", &err);
    /* statistics: strings compare by bytes; ids ascend */
    snprintf(vmin, sizeof(vmin), "row-%lld", (long long)base);
    snprintf(vmax, sizeof(vmax), "row-%lld", (long long)(base + ROWS - 1));
    mins[0] = pm_datum_int(base);
    maxs[0] = pm_datum_int(base + ROWS - 1);
    mins[1] = pm_datum_bytes(vmin, strlen(vmin));
    maxs[1] = pm_datum_bytes(vmax, strlen(vmax));
    if (strcmp(vmin, vmax) > 0) {
        pm_datum t = mins[1];
        mins[1] = maxs[1];
        maxs[1] = t;
    }
    mins[2] = maxs[2] = pm_datum_int(p);
    pm_binrow_serialize(&stat_min, types, mins, 3);
    pm_binrow_serialize(&stat_max, types, maxs, 3);
    pm_binrow_serialize(&part, &types[2], &pv, 1);

    pm_path_factory_next(names, PM_NAME_DATA, NULL, "avro", &name);
    pm_buf_printf(&dir, "%s/p=%d/bucket-0/%s", table, p, pm_buf_cstr(&name));
    path = (char *)pm_buf_cstr(&dir);
    if (fs->create(fs, path, &out, &err) || out->write(out, file.data, file.len, &err) ||
        out->close(out, &err))
        die(path, &err);

    memset(&e, 0, sizeof(e));
    e.kind = PM_FILE_KIND_ADD;
    e.partition.ptr = part.data;
    e.partition.len = part.len;
    e.bucket = 0;
    e.total_buckets = -1;
    e.file.file_name = pm_buf_cstr(&name);
    e.file.file_size = (int64_t)file.len;
    e.file.row_count = ROWS;
    e.file.min_key.ptr = EMPTY;
    e.file.min_key.len = 12;
    e.file.max_key = e.file.min_key;
    e.file.key_stats.min_values = e.file.min_key;
    e.file.key_stats.max_values = e.file.min_key;
    e.file.key_stats.null_counts.present = true;
    e.file.value_stats.min_values.ptr = stat_min.data;
    e.file.value_stats.min_values.len = stat_min.len;
    e.file.value_stats.max_values.ptr = stat_max.data;
    e.file.value_stats.max_values.len = stat_max.len;
    e.file.value_stats.null_counts.items = nulls;
    e.file.value_stats.null_counts.count = 3;
    e.file.value_stats.null_counts.present = true;
    e.file.min_sequence_number = seq;
    e.file.max_sequence_number = seq + ROWS - 1;
    e.file.has_creation_time = true;
    e.file.creation_time = pm_now_local_as_utc_millis();
    e.file.has_delete_row_count = true;
    e.file.has_file_source = true;
    if (pm_commit_messages_add_data(m, &e) != 0)
        die("messages", NULL);
    pm_buf_free(&file);
    pm_buf_free(&name);
    pm_buf_free(&dir);
    pm_buf_free(&stat_min);
    pm_buf_free(&stat_max);
    pm_buf_free(&part);
    pm_type_free(tb);
    pm_type_free(ts);
    pm_type_free(ti);
}

int main(int argc, char **argv)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *parts[] = {"p"}, *keys[] = {"file.format"}, *values[] = {"avro"};
    const char *spec[] = {"p=1"};
    paimon_error err;
    pm_fs *fs;
    pm_path_factory names;
    FILE *all, *keep;
    int64_t seq[3] = {0, 0, 0};
    char line[256];
    if (argc != 2) {
        fprintf(stderr, "usage: %s TABLE\n", argv[0]);
        return 2;
    }
    co.columns = "id BIGINT, v STRING, p INT";
    co.partition_keys = parts;
    co.partition_key_count = 1;
    co.option_keys = keys;
    co.option_values = values;
    co.option_count = 1;
    if (paimon_table_create(argv[1], &co, &err))
        die("create", &err);
    fs = pm_fs_local_new(true);
    pm_path_factory_init(&names);
    all = tmpfile();
    for (int c = 0; c < 6; c++) {
        pm_commit_messages m;
        pm_commit_opts o;
        int64_t id;
        bool overwrite = c == 5;
        pm_commit_messages_init(&m);
        for (int p = 0; p < 3; p++) {
            if (overwrite && p != 1)
                continue;
            if (overwrite)
                seq[p] = 0;
            write_file(fs, argv[1], &names, p, (int64_t)c * 100 + p * 10, seq[p], &m, all);
            seq[p] += ROWS;
        }
        memset(&o, 0, sizeof(o));
        o.commit_user = "interop-writer";
        o.identifier = c;
        o.overwrite = overwrite;
        o.partition = overwrite ? spec : NULL;
        o.partition_count = overwrite ? 1 : 0;
        if (pm_commit(fs, argv[1], &m, &o, &id, &err))
            die("commit", &err);
        pm_commit_messages_release(&m);
    }
    /* Expected: everything except p=1 rows of commits 0-4. */
    rewind(all);
    keep = stdout;
    while (fgets(line, sizeof(line), all) != NULL) {
        long long idv;
        int p;
        if (sscanf(line, "{\"id\":%lld,\"v\":\"row-%*d\",\"p\":%d}", &idv, &p) == 2 && p == 1 &&
            idv < 500)
            continue;
        fputs(line, keep);
    }
    fclose(all);
    pm_fs_free(fs);
    return 0;
}
