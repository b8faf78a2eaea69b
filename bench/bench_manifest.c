/*
 * Manifest benchmark (issue: "Figures" of the metadata layer).
 *
 * Builds 1,000,000 manifest entries of a primary-key table with two partition columns
 * (dt STRING, hr INT), a BIGINT key and five value columns (INT, BIGINT, DOUBLE, STRING,
 * DECIMAL(18, 2)), with full key and value statistics (min/max BinaryRows and null counts
 * over all eight columns, as Java writes for a PK table's value stats), encodes them with
 * paimon-c's writer as one zstandard manifest, then decodes the file into entries
 * (pm_manifest_decode: every field, strings copied, BinaryRows as views).
 *
 * usage: bench_manifest [ENTRIES] [RUNS] [OUT_FILE]
 *        bench_manifest --decode FILE [RUNS]   (decode an existing manifest only)
 * Prints encode and decode rates (median of RUNS), the file size and peak RSS.  When
 * OUT_FILE is given the manifest is left there (bench/manifest.sh reads it with avsc too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "data/binary_row.h"
#include "meta/manifest.h"
#include "util/alloc.h"

static pm_type T(pm_type_id id, int precision, int scale, int length)
{
    pm_type t;
    memset(&t, 0, sizeof(t));
    t.id = id;
    t.nullable = true;
    t.precision = precision;
    t.scale = scale;
    t.length = length;
    return t;
}

/* Streams every entry (decoded in full: strings, BinaryRow views, arrays) and folds a few
 * fields into a checksum so nothing is optimized away.  Returns entries seen, 0 on error. */
static size_t decode_streaming(const uint8_t *data, size_t len, int64_t *checksum)
{
    pm_manifest_reader r;
    pm_manifest_entry e;
    paimon_error err = {0};
    size_t n = 0;
    int rc = pm_manifest_reader_open(&r, data, len, "bench", &PM_MANIFEST_ENTRY_DESC,
                                     PM_MANIFEST_VERSION, &err);
    while (rc == 0 && (rc = pm_manifest_reader_next(&r, &e, &err)) == 0) {
        *checksum += e.file.row_count + e.file.file_size +
                     (int64_t)e.file.value_stats.max_values.len + (int64_t)e.file.file_name[5] +
                     e.bucket;
        n++;
    }
    pm_manifest_reader_close(&r);
    if (rc != PAIMON_ITEROVER) {
        fprintf(stderr, "decode: %s\n", err.message);
        return 0;
    }
    return n;
}

/* Decodes every entry into one array that stays valid (pm_manifest_decode). */
static size_t decode_retained(const uint8_t *data, size_t len)
{
    pm_arena arena;
    pm_manifest_entry *back;
    size_t count = 0;
    paimon_error err = {0};
    pm_arena_init(&arena, 1 << 20);
    if (pm_manifest_decode(data, len, "bench", &PM_MANIFEST_ENTRY_DESC, PM_MANIFEST_VERSION, &arena,
                           (void **)&back, &count, &err) != 0) {
        fprintf(stderr, "decode: %s\n", err.message);
        count = 0;
    }
    pm_arena_free(&arena);
    return count;
}

static void report_decodes(const uint8_t *data, size_t len, int runs)
{
    double stream[32], retained[32], stream_cpu[32];
    int64_t checksum = 0;
    size_t n = 0;
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now(), c0 = bench_cpu_now();
        n = decode_streaming(data, len, &checksum);
        stream[r] = bench_now() - t0;
        stream_cpu[r] = bench_cpu_now() - c0;
        t0 = bench_now();
        if (decode_retained(data, len) != n || n == 0) {
            fprintf(stderr, "the decoders disagree\n");
            exit(1);
        }
        retained[r] = bench_now() - t0;
    }
    printf("decode, streaming     %.3f s  %.2f M entries/s (median of %d; checksum %lld)\n",
           bench_median(stream, (size_t)runs), (double)n / bench_median(stream, (size_t)runs) / 1e6,
           runs, (long long)checksum);
    printf("decode, streaming CPU %.3f s  %.2f M entries/s (median of %d, CPU time)\n",
           bench_median(stream_cpu, (size_t)runs),
           (double)n / bench_median(stream_cpu, (size_t)runs) / 1e6, runs);
    printf("decode, all retained  %.3f s  %.2f M entries/s (median of %d)\n",
           bench_median(retained, (size_t)runs),
           (double)n / bench_median(retained, (size_t)runs) / 1e6, runs);
}

static int decode_only(const char *path, int runs)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data;
    long len;
    double times[32];
    size_t count = 0;
    paimon_error err = {0};
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0) {
        perror(path);
        return 1;
    }
    rewind(f);
    data = pm_malloc((size_t)len);
    if (data == NULL || fread(data, 1, (size_t)len, f) != (size_t)len) {
        perror(path);
        return 1;
    }
    fclose(f);
    (void)times;
    (void)count;
    (void)err;
    report_decodes(data, (size_t)len, runs);
    pm_free(data);
    return 0;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 1000000;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    const char *out_file = argc > 3 ? argv[3] : NULL;
    pm_type s = T(PM_TYPE_VARCHAR, 0, 0, PM_MAX_LENGTH), i32 = T(PM_TYPE_INT, 0, 0, 0),
            i64 = T(PM_TYPE_BIGINT, 0, 0, 0), dbl = T(PM_TYPE_DOUBLE, 0, 0, 0),
            dec = T(PM_TYPE_DECIMAL, 18, 2, 0);
    /* the table: dt, hr, id, v1..v5 */
    const pm_type *row_types[8] = {&s, &i32, &i64, &i32, &i64, &dbl, &s, &dec};
    const pm_type *part_types[2] = {&s, &i32}, *key_types[1] = {&i64};
    pm_manifest_entry *entries = pm_calloc(n, sizeof(*entries));
    pm_arena build;
    pm_buf file, tmp;
    paimon_error err = {0};
    double enc[32];
    int64_t *null_counts8, *null_counts1;

    if (argc > 2 && strcmp(argv[1], "--decode") == 0)
        return decode_only(argv[2], argc > 3 ? atoi(argv[3]) : 5);
    if (entries == NULL || runs < 1 || runs > 32) {
        fprintf(stderr, "usage: bench_manifest [ENTRIES] [RUNS<=32] [OUT_FILE]\n");
        return 2;
    }
    pm_arena_init(&build, 1 << 20);
    pm_buf_init(&tmp, 0);
    null_counts8 = pm_arena_calloc(&build, 8, sizeof(int64_t));
    null_counts1 = pm_arena_calloc(&build, 1, sizeof(int64_t));
    null_counts8[6] = 3;
    for (size_t k = 0; k < n; k++) {
        pm_manifest_entry *e = &entries[k];
        char dt[16], name[80], lo_s[24], hi_s[24];
        pm_datum part[2], min_row[8], max_row[8], key;
        int64_t base = (int64_t)k * 1000;
        int dl =
            snprintf(dt, sizeof(dt), "2026-%02d-%02d", (int)(k / 28 % 12) + 1, (int)(k % 28) + 1);
        int nl = snprintf(name, sizeof(name), "data-5f1c2a7e-9b3d-4e21-8c55-%012zx-%zu.parquet", k,
                          k % 64);
        snprintf(lo_s, sizeof(lo_s), "customer-%07lld", (long long)(base % 9999999));
        snprintf(hi_s, sizeof(hi_s), "customer-%07lld", (long long)((base + 999) % 9999999));
#define KEEP(b) ((pm_avro_bytes){pm_arena_dup(&build, (b).data, (b).len), (b).len})
        part[0] = pm_datum_bytes(dt, (size_t)dl);
        part[1] = pm_datum_int((int64_t)(k % 24));
        pm_buf_reset(&tmp);
        pm_binrow_serialize(&tmp, part_types, part, 2);
        e->partition = KEEP(tmp);
        min_row[0] = max_row[0] = part[0];
        min_row[1] = max_row[1] = part[1];
        min_row[2] = pm_datum_int(base);
        max_row[2] = pm_datum_int(base + 999);
        min_row[3] = pm_datum_int(-(int64_t)(k % 1000));
        max_row[3] = pm_datum_int((int64_t)(k % 100000));
        min_row[4] = pm_datum_int(base * 7);
        max_row[4] = pm_datum_int(base * 7 + 6993);
        min_row[5].is_null = max_row[5].is_null = false;
        min_row[5].v.d = -1.5 * (double)k;
        max_row[5].v.d = 2.25 * (double)k;
        min_row[6] = pm_datum_bytes(lo_s, strlen(lo_s));
        max_row[6] = pm_datum_bytes(hi_s, strlen(hi_s));
        min_row[7].is_null = max_row[7].is_null = false;
        min_row[7].v.dec = -(pm_int128)k * 100;
        max_row[7].v.dec = (pm_int128)k * 12345;
        e->version = PM_MANIFEST_VERSION;
        e->kind = PM_FILE_KIND_ADD;
        e->bucket = (int32_t)(k % 4);
        e->total_buckets = 4;
        e->file.file_name = pm_arena_strndup(&build, name, (size_t)nl);
        e->file.file_size = 180000 + (int64_t)(k % 5000);
        e->file.row_count = 1000;
        key = min_row[2];
        pm_buf_reset(&tmp);
        pm_binrow_serialize(&tmp, key_types, &key, 1);
        e->file.min_key = KEEP(tmp);
        e->file.key_stats.min_values = e->file.min_key;
        key = max_row[2];
        pm_buf_reset(&tmp);
        pm_binrow_serialize(&tmp, key_types, &key, 1);
        e->file.max_key = KEEP(tmp);
        e->file.key_stats.max_values = e->file.max_key;
        e->file.key_stats.null_counts = (pm_avro_array){null_counts1, 1, true};
        pm_buf_reset(&tmp);
        pm_binrow_serialize(&tmp, row_types, min_row, 8);
        e->file.value_stats.min_values = KEEP(tmp);
        pm_buf_reset(&tmp);
        pm_binrow_serialize(&tmp, row_types, max_row, 8);
        e->file.value_stats.max_values = KEEP(tmp);
        e->file.value_stats.null_counts = (pm_avro_array){null_counts8, 8, true};
        e->file.min_sequence_number = base;
        e->file.max_sequence_number = base + 999;
        e->file.schema_id = 0;
        e->file.level = (int32_t)(k % 6);
        e->file.extra_files.present = true;
        e->file.has_creation_time = true;
        e->file.creation_time = 1796000000000LL + (int64_t)k;
        e->file.has_delete_row_count = true;
        e->file.delete_row_count = (int64_t)(k % 17);
        e->file.has_file_source = true;
        e->file.file_source = 0;
#undef KEEP
    }

    pm_buf_init(&file, 0);
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now();
        pm_buf_reset(&file);
        if (pm_manifest_encode(&PM_MANIFEST_ENTRY_DESC, entries, n, "zstandard", 1, &file, &err)) {
            fprintf(stderr, "encode: %s\n", err.message);
            return 1;
        }
        enc[r] = bench_now() - t0;
    }
    {
        double e = bench_median(enc, (size_t)runs);
        printf("manifest entries      %zu (PK table: 2 partition columns, BIGINT key, 5 value "
               "columns, full stats)\n",
               n);
        printf("file (zstandard)      %.1f MB, %.0f bytes/entry\n", (double)file.len / 1e6,
               (double)file.len / (double)n);
        printf("encode                %.3f s  %.2f M entries/s (median of %d)\n", e,
               (double)n / e / 1e6, runs);
        report_decodes(file.data, file.len, runs);
        printf("peak RSS              %ld MB\n", bench_peak_rss_kb() / 1024);
    }
    if (out_file != NULL) {
        FILE *f = fopen(out_file, "wb");
        if (f == NULL || fwrite(file.data, 1, file.len, f) != file.len || fclose(f) != 0) {
            perror(out_file);
            return 1;
        }
    }
    pm_buf_free(&file);
    pm_buf_free(&tmp);
    pm_arena_free(&build);
    pm_free(entries);
    return 0;
}
