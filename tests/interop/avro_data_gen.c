/*
 * Helper of avro_data.test.sh:
 *
 *   interop_avro_data_gen write DIR   writes DIR/paimon-<codec>.avro, one per Avro codec,
 *                                     with the same rows of every type Paimon writes to Avro,
 *                                     and DIR/expected.jsonl (their canonical JSON rows)
 *   interop_avro_data_gen read FILE   prints the rows paimon-c reads from FILE (written by
 *                                     another implementation) with the same row type
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/batch.h"
#include "format/avro/avro_data.h"
#include "format/data_file.h"
#include "util/alloc.h"

static const char COLUMNS[] =
    "b BOOLEAN, t TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, f FLOAT, d DOUBLE, "
    "dec DECIMAL(10, 2), big DECIMAL(38, 9), c CHAR(4), str STRING, bin BYTES, dt DATE, "
    "tm TIME(3), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ltz3 TIMESTAMP(3) WITH LOCAL TIME ZONE, "
    "ltz6 TIMESTAMP(6) WITH LOCAL TIME ZONE, arr ARRAY<BIGINT>, sm MAP<STRING, DOUBLE>, "
    "im MAP<INT, STRING>, r ROW<x INT NOT NULL, y ARRAY<STRING>>, ms MULTISET<STRING>";

static void die(const char *what, const paimon_error *err)
{
    fprintf(stderr, "interop_avro_data_gen: %s: %s\n", what, err->message);
    exit(1);
}

static uint64_t seed = 1;
static uint64_t rnd(void)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 17;
}

static void value(pm_column *c, int64_t row)
{
    const pm_type *t = c->type;
    pm_datum d;
    char buf[32];
    memset(&d, 0, sizeof(d));
    if (t->nullable && rnd() % 5 == 0) {
        pm_column_append_null(c);
        return;
    }
    switch (t->id) {
    case PM_TYPE_ARRAY:
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        int n = (int)(rnd() % 4);
        for (int k = 0; k < n; k++) {
            if (t->id != PM_TYPE_ARRAY && pm_type_is_string(t->element)) {
                /* distinct string keys */
                int len = snprintf(buf, sizeof(buf), "k%d", k);
                d.v.s.ptr = (const uint8_t *)buf;
                d.v.s.len = (size_t)len;
                pm_column_append_datum(c->children[0], &d);
            } else if (t->id != PM_TYPE_ARRAY) {
                d.v.i = k * 7 - (int64_t)row;
                pm_column_append_datum(c->children[0], &d);
            } else {
                value(c->children[0], row);
            }
            if (c->child_count > 1)
                value(c->children[1], row);
        }
        pm_column_list_end(c, true);
        return;
    }
    case PM_TYPE_ROW:
        for (size_t k = 0; k < c->child_count; k++)
            value(c->children[k], row);
        pm_column_struct_end(c, true);
        return;
    case PM_TYPE_BOOLEAN: d.v.b = rnd() % 2; break;
    case PM_TYPE_TINYINT: d.v.i = (int8_t)rnd(); break;
    case PM_TYPE_SMALLINT: d.v.i = (int16_t)rnd(); break;
    case PM_TYPE_INT: d.v.i = row == 1 ? INT32_MIN : (int32_t)rnd(); break;
    case PM_TYPE_BIGINT: d.v.i = row == 2 ? INT64_MAX : (int64_t)(rnd() << 20) - (1LL << 50); break;
    case PM_TYPE_FLOAT: d.v.f = (float)(int64_t)(rnd() % 100000) / 16.0f - 100.0f; break;
    case PM_TYPE_DOUBLE: d.v.d = (double)(int64_t)(rnd() % 1000000) / 1024.0 - 7.0; break;
    case PM_TYPE_DECIMAL:
        d.v.dec = t->precision > 18
                      ? (pm_int128)(int64_t)rnd() * 1000000000000LL * (row % 2 ? -1 : 1)
                      : (pm_int128)(int64_t)(rnd() % 10000000) - 5000000;
        break;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_VARBINARY: {
        int len = snprintf(buf, sizeof(buf), "%s%lld", t->id == PM_TYPE_CHAR ? "" : "héllo-",
                           (long long)row);
        if (t->id == PM_TYPE_CHAR)
            len = len > 4 ? 4 : len;
        d.v.s.ptr = (const uint8_t *)buf;
        d.v.s.len = (size_t)len;
        break;
    }
    case PM_TYPE_DATE: d.v.i = (int64_t)(rnd() % 50000) - 20000; break;
    case PM_TYPE_TIME: d.v.i = (int64_t)(rnd() % 86400000); break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        d.v.ts.millis = (int64_t)(rnd() % 3000000000000ULL) - 500000000000LL;
        d.v.ts.nanos = t->precision > 3 ? (int32_t)(rnd() % 1000) * 1000 : 0;
        break;
    default: break;
    }
    pm_column_append_datum(c, &d);
}

static void print_rows(const pm_batch *b, FILE *out)
{
    paimon_error err = {0};
    pm_buf line;
    pm_buf_init(&line, 0);
    for (int64_t r = 0; r < b->row_count; r++) {
        pm_buf_reset(&line);
        if (pm_batch_row_json(&line, b, r, &err) != 0)
            die("json", &err);
        fprintf(out, "%s\n", pm_buf_cstr(&line));
    }
    pm_buf_free(&line);
}

int main(int argc, char **argv)
{
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_local_new(false);
    if (argc != 3 || (strcmp(argv[1], "write") != 0 && strcmp(argv[1], "read") != 0)) {
        fprintf(stderr, "usage: interop_avro_data_gen write DIR | read FILE\n");
        return 2;
    }
    if (pm_columns_parse(COLUMNS, &row, &err) != 0)
        die("columns", &err);
    if (strcmp(argv[1], "write") == 0) {
        static const char *const codecs[] = {"none", "deflate", "snappy", "zstd"};
        pm_batch *b;
        char path[1024];
        FILE *f;
        if (pm_batch_new(&b, row, &err) != 0)
            die("batch", &err);
        for (int64_t r = 0; r < 3000; r++)
            for (size_t c = 0; c < b->column_count; c++)
                value(b->columns[c], r);
        if (pm_batch_set_rows(b, 3000, &err) != 0)
            die("rows", &err);
        for (size_t k = 0; k < 4; k++) {
            pm_output *out;
            pm_avro_data_writer *w;
            snprintf(path, sizeof(path), "%s/paimon-%s.avro", argv[2], codecs[k]);
            if (fs->create(fs, path, &out, &err) != 0 ||
                pm_avro_data_writer_open(&w, out, row, codecs[k], 3, &err) != 0 ||
                pm_avro_data_writer_write(w, b, &err) != 0 ||
                pm_avro_data_writer_close(w, NULL, &err) != 0)
                die(path, &err);
        }
        snprintf(path, sizeof(path), "%s/expected.jsonl", argv[2]);
        if ((f = fopen(path, "w")) == NULL)
            return 1;
        print_rows(b, f);
        fclose(f);
        pm_batch_free(b);
    } else {
        pm_data_file *df;
        pm_read_options ro;
        pm_batch *b;
        int rc;
        if (pm_data_file_open(&df, fs, argv[2], &err) != 0)
            die(argv[2], &err);
        memset(&ro, 0, sizeof(ro));
        ro.read_type = row;
        if (df->format->start(df->impl, &ro, &err) != 0)
            die(argv[2], &err);
        while ((rc = df->format->next(df->impl, &b, &err)) == 0) {
            print_rows(b, stdout);
            pm_batch_free(b);
        }
        if (rc != PAIMON_ITEROVER)
            die(argv[2], &err);
        pm_data_file_free(df);
    }
    pm_type_free(row);
    pm_fs_free(fs);
    return 0;
}
