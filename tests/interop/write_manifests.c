/*
 * Interop helper: writes manifest lists, manifests and index manifests with paimon-c's
 * writer, in every codec, with every field exercised (nulls and values, empty and long
 * arrays, negative numbers), and beside each file the records it holds as JSON lines
 * (nullable fields as null or the bare value, bytes as base64) for independent readers
 * (avsc, python3-avro) to compare with.
 *
 * usage: interop_write_manifests DIR [RECORDS]   (default 3000 records per file)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/canonical.h"
#include "meta/manifest.h"
#include "util/alloc.h"

static void dump_value(pm_buf *out, pm_avro_ftype t, const pm_avro_rdesc *rd, const void *p);

static void dump_record(pm_buf *out, const pm_avro_rdesc *rd, const void *src)
{
    const uint8_t *base = src;
    pm_buf_putc(out, '{');
    for (size_t i = 0; i < rd->field_count; i++) {
        const pm_avro_fdesc *fd = &rd->fields[i];
        const void *p = base + fd->offset;
        bool is_null = false;
        if (fd->nullable) {
            if (fd->type == PM_AF_STRING)
                is_null = *(const char *const *)p == NULL;
            else if (fd->type == PM_AF_BYTES)
                is_null = ((const pm_avro_bytes *)p)->ptr == NULL;
            else if (fd->type == PM_AF_ARRAY)
                is_null = !((const pm_avro_array *)p)->present;
            else
                is_null = !*(const bool *)(base + fd->present_offset);
        }
        pm_buf_printf(out, "%s\"%s\":", i > 0 ? "," : "", fd->name);
        if (is_null) {
            pm_buf_puts(out, "null");
        } else if (fd->type == PM_AF_ARRAY) {
            const pm_avro_array *a = p;
            size_t size = fd->item_type == PM_AF_INT      ? sizeof(int32_t)
                          : fd->item_type == PM_AF_LONG   ? sizeof(int64_t)
                          : fd->item_type == PM_AF_STRING ? sizeof(char *)
                                                          : fd->record->size;
            pm_buf_putc(out, '[');
            for (size_t k = 0; k < a->count; k++) {
                const uint8_t *item = (const uint8_t *)a->items + k * size;
                if (k > 0)
                    pm_buf_putc(out, ',');
                if (fd->item_type == PM_AF_LONG && *(const int64_t *)item == PM_AVRO_NULL_LONG)
                    pm_buf_puts(out, "null");
                else
                    dump_value(out, fd->item_type, fd->record, item);
            }
            pm_buf_putc(out, ']');
        } else {
            dump_value(out, fd->type, fd->record, p);
        }
    }
    pm_buf_putc(out, '}');
}

static void dump_value(pm_buf *out, pm_avro_ftype t, const pm_avro_rdesc *rd, const void *p)
{
    switch (t) {
    case PM_AF_INT: pm_buf_printf(out, "%d", *(const int32_t *)p); break;
    case PM_AF_LONG:
    case PM_AF_TS_MILLIS: pm_buf_printf(out, "%lld", (long long)*(const int64_t *)p); break;
    case PM_AF_STRING: {
        const char *s = *(const char *const *)p;
        pm_json_quote(out, s, strlen(s));
        break;
    }
    case PM_AF_BYTES: {
        const pm_avro_bytes *b = p;
        pm_buf_putc(out, '"');
        pm_base64(out, b->ptr, b->len);
        pm_buf_putc(out, '"');
        break;
    }
    case PM_AF_RECORD: dump_record(out, rd, p); break;
    case PM_AF_ARRAY: break;
    }
}

static const uint8_t ROW_A[] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0};
static const uint8_t ROW_EMPTY[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static int64_t NULL_COUNTS[] = {0, PM_AVRO_NULL_LONG, 12345678901LL};
static const char *EXTRA[] = {"data-x.parquet.index", "another"};
static const char *COLS[] = {"a", "b", "\xc3\xa9t\xc3\xa9"};

static pm_simple_stats stats(int with_counts)
{
    pm_simple_stats s;
    memset(&s, 0, sizeof(s));
    s.min_values.ptr = ROW_A;
    s.min_values.len = sizeof(ROW_A);
    s.max_values.ptr = ROW_EMPTY;
    s.max_values.len = sizeof(ROW_EMPTY);
    if (with_counts) {
        s.null_counts.present = true;
        s.null_counts.items = NULL_COUNTS;
        s.null_counts.count = 3;
    }
    return s;
}

static void write_pair(const char *dir, const char *kind, const char *codec,
                       const pm_avro_rdesc *rd, const void *records, size_t n)
{
    char path[4096];
    pm_buf file, json;
    paimon_error err = {0};
    FILE *f;
    pm_buf_init(&file, 0);
    pm_buf_init(&json, 0);
    if (pm_manifest_encode(rd, records, n, codec, 3, &file, &err) != 0) {
        fprintf(stderr, "encode %s/%s: %s\n", kind, codec, err.message);
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        dump_record(&json, rd, (const uint8_t *)records + i * rd->size);
        pm_buf_putc(&json, '\n');
    }
    snprintf(path, sizeof(path), "%s/%s-%s.avro", dir, kind, codec);
    f = fopen(path, "wb");
    if (f == NULL || fwrite(file.data, 1, file.len, f) != file.len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    snprintf(path, sizeof(path), "%s/%s-%s.jsonl", dir, kind, codec);
    f = fopen(path, "wb");
    if (f == NULL || (json.len > 0 && fwrite(json.data, 1, json.len, f) != json.len) ||
        fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    pm_buf_free(&file);
    pm_buf_free(&json);
}

int main(int argc, char **argv)
{
    static const char *codecs[] = {"null", "deflate", "snappy", "zstandard"};
    /* 3000 records make several 64000-byte blocks per file. */
    int N = argc > 2 ? atoi(argv[2]) : 3000;
    pm_manifest_file_meta *lists = calloc(N, sizeof(*lists));
    pm_manifest_entry *entries = calloc(N, sizeof(*entries));
    pm_index_manifest_entry *index = calloc(N, sizeof(*index));
    pm_dv_range ranges[2];
    int32_t extra_ids[] = {7, -8};
    char(*names)[64] = calloc(N, 64);

    if (argc < 2 || N < 1) {
        fprintf(stderr, "usage: interop_write_manifests DIR [RECORDS]\n");
        return 2;
    }
    memset(ranges, 0, sizeof(ranges));
    ranges[0].data_file = "data-1.parquet";
    ranges[0].offset = 1;
    ranges[0].length = 22;
    ranges[0].cardinality = 3;
    ranges[0].has_cardinality = true;
    ranges[1].data_file = "data-2.parquet";
    ranges[1].offset = 27;
    ranges[1].length = 30;
    for (int i = 0; i < N; i++) {
        int odd = i % 2;
        snprintf(names[i], 64, "data-%08d-%d.parquet", i, i * 7);
        lists[i].version = 2;
        lists[i].file_name = names[i];
        lists[i].file_size = 1000 + i;
        lists[i].num_added_files = i;
        lists[i].num_deleted_files = -i;
        lists[i].partition_stats = stats(odd);
        lists[i].schema_id = i % 5;
        lists[i].has_min_bucket = lists[i].has_max_bucket = odd;
        lists[i].min_bucket = -2;
        lists[i].max_bucket = i;
        lists[i].has_min_level = lists[i].has_max_level = !odd;
        lists[i].max_level = 5;
        lists[i].has_min_row_id = odd;
        lists[i].min_row_id = INT64_MIN;

        entries[i].version = 2;
        entries[i].kind = odd;
        entries[i].partition.ptr = ROW_A;
        entries[i].partition.len = sizeof(ROW_A);
        entries[i].bucket = i % 4;
        entries[i].total_buckets = odd ? 4 : -1;
        entries[i].file.file_name = names[i];
        entries[i].file.file_size = (int64_t)i << 33;
        entries[i].file.row_count = i;
        entries[i].file.min_key.ptr = ROW_EMPTY;
        entries[i].file.min_key.len = sizeof(ROW_EMPTY);
        entries[i].file.max_key = entries[i].file.min_key;
        entries[i].file.key_stats = stats(1);
        entries[i].file.value_stats = stats(odd);
        entries[i].file.min_sequence_number = -1;
        entries[i].file.max_sequence_number = INT64_MAX;
        entries[i].file.schema_id = 3;
        entries[i].file.level = i % 6;
        entries[i].file.extra_files.present = true;
        entries[i].file.extra_files.items = odd ? (void *)EXTRA : NULL;
        entries[i].file.extra_files.count = odd ? 2 : 0;
        entries[i].file.has_creation_time = true;
        entries[i].file.creation_time = 1784242408022LL + i;
        entries[i].file.has_delete_row_count = odd;
        entries[i].file.delete_row_count = 9;
        if (i % 3 == 0) {
            entries[i].file.embedded_file_index.ptr = ROW_A;
            entries[i].file.embedded_file_index.len = 7;
        }
        entries[i].file.has_file_source = true;
        entries[i].file.file_source = odd;
        if (i % 3 == 1) {
            entries[i].file.value_stats_cols.present = true;
            entries[i].file.value_stats_cols.items = COLS;
            entries[i].file.value_stats_cols.count = 3;
        }
        entries[i].file.external_path = i % 5 == 0 ? "s3://bucket/x/data" : NULL;
        entries[i].file.has_first_row_id = i % 7 == 0;
        entries[i].file.first_row_id = 123;
        entries[i].file.write_cols.present = i % 4 == 0;
        entries[i].file.write_cols.items = COLS;
        entries[i].file.write_cols.count = 2;

        index[i].version = 1;
        index[i].kind = odd;
        index[i].partition.ptr = ROW_EMPTY;
        index[i].partition.len = sizeof(ROW_EMPTY);
        index[i].bucket = i;
        index[i].index_type = odd ? "DELETION_VECTORS" : "HASH";
        index[i].file_name = names[i];
        index[i].file_size = 99;
        index[i].row_count = 2;
        if (odd) {
            index[i].dv_ranges.present = true;
            index[i].dv_ranges.items = ranges;
            index[i].dv_ranges.count = 2;
        }
        index[i].external_path = i % 3 == 0 ? "/abs/index-1" : NULL;
        index[i].has_global_index = i % 4 == 1;
        index[i].global_index.row_range_start = 1;
        index[i].global_index.row_range_end = 100;
        index[i].global_index.index_field_id = 4;
        index[i].global_index.extra_field_ids.present = true;
        index[i].global_index.extra_field_ids.items = extra_ids;
        index[i].global_index.extra_field_ids.count = 2;
    }
    for (size_t c = 0; c < 4; c++) {
        write_pair(argv[1], "manifest-list", codecs[c], &PM_MANIFEST_FILE_META_DESC, lists, N);
        write_pair(argv[1], "manifest", codecs[c], &PM_MANIFEST_ENTRY_DESC, entries, N);
        write_pair(argv[1], "index-manifest", codecs[c], &PM_INDEX_MANIFEST_ENTRY_DESC, index, N);
    }
    /* An empty file (no blocks), as Java writes the first snapshot's base list. */
    write_pair(argv[1], "manifest-list-empty", "zstandard", &PM_MANIFEST_FILE_META_DESC, lists, 0);
    free(lists);
    free(entries);
    free(index);
    free(names);
    return 0;
}
