/*
 * parquet_gen: writes a Parquet file of pseudo-random rows with paimon-c's writer, and the
 * same rows as canonical JSON lines, for the interop tests (parquet_interop.test.sh).
 *
 *   parquet_gen OUT.parquet --columns 'a INT, b ARRAY<STRING>, ...' [--rows N] [--seed S]
 *       [--nulls RATE] [--codec zstd|snappy|gzip|lz4_raw|none] [--page-size BYTES]
 *       [--page-rows N] [--block-size BYTES] [--dictionary true|false] [--dict-size BYTES]
 *       [--batch N]
 *
 * Writes OUT.parquet and OUT.jsonl; prints the row type.  Values cover each type's edges
 * (extreme integers, NaN/-0.0/infinities, dates before 1970 and after 9999, multi-byte and
 * control characters, empty strings, empty lists and maps) and repeat often enough for
 * dictionary encoding to be used (and, with many distinct values, to fall back).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/batch.h"
#include "format/parquet/meta.h"
#include "format/parquet/writer.h"
#include "io/fs.h"
#include "util/alloc.h"

static uint64_t rng_state = 88172645463325252ull;
static double null_rate = 0.1;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double unit(void)
{
    return (double)(rnd() >> 11) / 9007199254740992.0;
}

static int64_t pick_int(int bits)
{
    static const int64_t edges[] = {0, 1, -1, 42, -42, 127, -128, 32767, -32768};
    int64_t max = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
    int64_t min = -max - 1;
    uint64_t r = rnd() % 16;
    if (r == 0)
        return max;
    if (r == 1)
        return min;
    if (r < 6) {
        int64_t e = edges[rnd() % 9];
        return e >= min && e <= max ? e : 0;
    }
    if (r < 10)
        return (int64_t)(rnd() % 50) - 25; /* repeats: dictionary-friendly */
    return bits == 64 ? (int64_t)rnd()
                      : min + (int64_t)(rnd() % ((uint64_t)max - (uint64_t)min + 1));
}

static const char *const WORDS[] = {"",
                                    "a",
                                    "héllo",
                                    "wörld",
                                    "日本語",
                                    "emoji 😀",
                                    "quote \"x\"",
                                    "back\\slash",
                                    "tab\tnew\nline",
                                    "ctl\x01",
                                    "long string "
                                    "that is longer than sixty-four bytes to exercise truncated "
                                    "column index bounds ~~~~"};

static int gen_value(pm_column *c, int depth);

static int gen_scalar(pm_column *c)
{
    const pm_type *t = c->type;
    pm_datum d;
    memset(&d, 0, sizeof(d));
    switch (t->id) {
    case PM_TYPE_BOOLEAN: d.v.b = rnd() & 1; break;
    case PM_TYPE_TINYINT: d.v.i = pick_int(8); break;
    case PM_TYPE_SMALLINT: d.v.i = pick_int(16); break;
    case PM_TYPE_INT: d.v.i = pick_int(32); break;
    case PM_TYPE_BIGINT: d.v.i = pick_int(64); break;
    case PM_TYPE_FLOAT: {
        static const float sp[] = {0.0f, -0.0f, 1.5f, -2.25f, 0.1f, 3.4e38f, 1e-40f};
        uint64_t r = rnd() % 20;
        d.v.f = r == 0   ? (float)NAN
                : r == 1 ? (float)INFINITY
                : r == 2 ? -(float)INFINITY
                : r < 10 ? sp[rnd() % 7]
                         : (float)((unit() - 0.5) * 1e6);
        break;
    }
    case PM_TYPE_DOUBLE: {
        static const double sp[] = {0.0,   -0.0, 1e-7, 12345.678, 0.1, 1.7976931348623157e308,
                                    5e-324};
        uint64_t r = rnd() % 20;
        d.v.d = r == 0   ? (double)NAN
                : r == 1 ? (double)INFINITY
                : r == 2 ? -(double)INFINITY
                : r < 10 ? sp[rnd() % 7]
                         : (unit() - 0.5) * 1e12;
        break;
    }
    case PM_TYPE_DECIMAL: {
        /* |unscaled| < 10^min(p, 15): exact in a double, so hyparquet can be compared */
        int p = t->precision < 15 ? t->precision : 15;
        int64_t lim = 1;
        for (int i = 0; i < p; i++)
            lim *= 10;
        d.v.dec = (int64_t)(rnd() % (uint64_t)(2 * lim - 1)) - (lim - 1);
        if (rnd() % 8 == 0)
            d.v.dec = rnd() & 1 ? lim - 1 : -(lim - 1);
        break;
    }
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: {
        static char buf[64];
        if (rnd() % 3 == 0) {
            int n = snprintf(buf, sizeof(buf), "v%llu", (unsigned long long)(rnd() % 100000));
            d.v.s.ptr = (const uint8_t *)buf;
            d.v.s.len = (size_t)n;
        } else {
            const char *w = WORDS[rnd() % (sizeof(WORDS) / sizeof(WORDS[0]))];
            d.v.s.ptr = (const uint8_t *)w;
            d.v.s.len = strlen(w);
        }
        break;
    }
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: {
        static uint8_t buf[80];
        size_t n = rnd() % 3 == 0 ? 0 : rnd() % (sizeof(buf) - 1) + 1;
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)(rnd() % (rnd() % 2 ? 4 : 256));
        d.v.s.ptr = buf;
        d.v.s.len = n;
        break;
    }
    case PM_TYPE_DATE: {
        uint64_t r = rnd() % 10;
        d.v.i = r == 0   ? -719162 /* 0001-01-01 */
                : r == 1 ? 2932896 /* 9999-12-31 */
                : r == 2 ? -1
                         : (int64_t)(rnd() % 40000) - 10000;
        break;
    }
    case PM_TYPE_TIME:
        /* milliseconds, cut to the precision (Paimon keeps no more digits than that) */
        d.v.i = (int64_t)(rnd() % 86400000);
        if (t->precision < 3) {
            int64_t unit_ms = t->precision == 0 ? 1000 : t->precision == 1 ? 100 : 10;
            d.v.i -= d.v.i % unit_ms;
        }
        break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        /* 1677..2262: every unit up to nanoseconds can hold it */
        d.v.ts.millis = (int64_t)(rnd() % 18000000000000ull) - 9000000000000ll;
        if (rnd() % 8 == 0)
            d.v.ts.millis = -1;
        d.v.ts.nanos = (int32_t)(rnd() % 1000000);
        {
            /* cut to the precision: 10^(9 - p) nanoseconds */
            int64_t unit = 1;
            for (int p = t->precision; p < 9; p++)
                unit *= 10;
            if (unit >= 1000000) {
                int64_t ms = unit / 1000000;
                d.v.ts.nanos = 0;
                d.v.ts.millis -= ((d.v.ts.millis % ms) + ms) % ms;
            } else {
                d.v.ts.nanos -= d.v.ts.nanos % (int32_t)unit;
            }
        }
        break;
    }
    default: return PAIMON_EINVALID;
    }
    return pm_column_append_datum(c, &d);
}

static int gen_value(pm_column *c, int depth)
{
    const pm_type *t = c->type;
    int rc = 0;
    if (t->nullable && unit() < null_rate)
        return pm_column_append_null(c);
    switch (t->id) {
    case PM_TYPE_ARRAY:
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        int n = (int)(rnd() % (depth > 1 ? 3 : 5));
        if (t->id != PM_TYPE_ARRAY) {
            /* distinct keys: several readers turn maps into dictionaries */
            int64_t base = (int64_t)(rnd() % 1000) * 10;
            for (int i = 0; i < n && rc == 0; i++) {
                pm_column *k = c->children[0];
                pm_datum d;
                char buf[32];
                memset(&d, 0, sizeof(d));
                if (pm_type_is_string(k->type)) {
                    int l = snprintf(buf, sizeof(buf), "k%lld", (long long)(base + i));
                    d = pm_datum_bytes(buf, (size_t)l);
                } else {
                    d = pm_datum_int(base + i);
                }
                rc = pm_column_append_datum(k, &d);
                if (rc == 0)
                    rc = t->id == PM_TYPE_MAP
                             ? gen_value(c->children[1], depth + 1)
                             : pm_column_append_i64(c->children[1], (int64_t)(rnd() % 5) + 1);
            }
        } else {
            for (int i = 0; i < n && rc == 0; i++)
                rc = gen_value(c->children[0], depth + 1);
        }
        return rc != 0 ? rc : pm_column_list_end(c, true);
    }
    case PM_TYPE_ROW:
        for (size_t i = 0; i < c->child_count && rc == 0; i++)
            rc = gen_value(c->children[i], depth + 1);
        return rc != 0 ? rc : pm_column_struct_end(c, true);
    default: return gen_scalar(c);
    }
}

static const char *arg(int argc, char **argv, const char *name, const char *def)
{
    for (int i = 2; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return def;
}

int main(int argc, char **argv)
{
    paimon_error err = {0};
    pm_type *row = NULL;
    pm_pq_writer_options o = PM_PQ_WRITER_OPTIONS_INIT;
    pm_fs *fs = pm_fs_local_new(false);
    pm_output *out = NULL;
    pm_pq_writer *w = NULL;
    pm_buf json, path;
    FILE *jf;
    long long rows, batch_rows;
    const char *codec;
    int rc;

    if (argc < 2) {
        fprintf(stderr, "usage: parquet_gen OUT.parquet --columns COLUMNS [options]\n");
        return 2;
    }
    rows = atoll(arg(argc, argv, "--rows", "1000"));
    batch_rows = atoll(arg(argc, argv, "--batch", "777"));
    rng_state ^= (uint64_t)atoll(arg(argc, argv, "--seed", "1")) * 0x9e3779b97f4a7c15ull;
    null_rate = atof(arg(argc, argv, "--nulls", "0.1"));
    codec = arg(argc, argv, "--codec", "zstd");
    {
        const char *keys[] = {"file.compression",
                              "parquet.page.size",
                              "parquet.block.size",
                              "parquet.enable.dictionary",
                              "parquet.page.row.count.limit",
                              "parquet.dictionary.page.size"};
        const char *values[] = {codec,
                                arg(argc, argv, "--page-size", "1048576"),
                                arg(argc, argv, "--block-size", "134217728"),
                                arg(argc, argv, "--dictionary", "true"),
                                arg(argc, argv, "--page-rows", "20000"),
                                arg(argc, argv, "--dict-size", "1048576")};
        if (pm_pq_writer_options_parse(&o, keys, values, 6, &err) != 0) {
            fprintf(stderr, "parquet_gen: %s\n", err.message);
            return 2;
        }
    }
    if (pm_columns_parse(arg(argc, argv, "--columns", "id BIGINT"), &row, &err) != 0) {
        fprintf(stderr, "parquet_gen: %s\n", err.message);
        return 2;
    }
    pm_buf_init(&json, 0);
    pm_buf_init(&path, 0);
    pm_buf_printf(&path, "%s.jsonl", argv[1]);
    remove(argv[1]);
    if ((jf = fopen(pm_buf_cstr(&path), "w")) == NULL) {
        perror(pm_buf_cstr(&path));
        return 1;
    }
    if ((rc = fs->create(fs, argv[1], &out, &err)) != 0 ||
        (rc = pm_pq_writer_open(&w, out, row, &o, &err)) != 0)
        goto fail;
    for (long long done = 0; done < rows;) {
        long long n = rows - done < batch_rows ? rows - done : batch_rows;
        pm_batch *b = NULL;
        if ((rc = pm_batch_new(&b, row, &err)) != 0)
            goto fail;
        for (long long r = 0; r < n; r++)
            for (size_t c = 0; c < b->column_count; c++)
                if ((rc = gen_value(b->columns[c], 0)) != 0) {
                    pm_batch_free(b);
                    pm_err_set(&err, rc, "generating column %s", b->type->fields[c].name);
                    goto fail;
                }
        if ((rc = pm_batch_set_rows(b, n, &err)) != 0 || (rc = pm_batch_validate(b, &err)) != 0 ||
            (rc = pm_pq_writer_write(w, b, &err)) != 0) {
            pm_batch_free(b);
            goto fail;
        }
        for (long long r = 0; r < n; r++) {
            json.len = 0;
            if ((rc = pm_batch_row_json(&json, b, r, &err)) != 0) {
                pm_batch_free(b);
                goto fail;
            }
            fprintf(jf, "%s\n", pm_buf_cstr(&json));
        }
        pm_batch_free(b);
        done += n;
    }
    rc = pm_pq_writer_close(w, NULL, &err);
    w = NULL;
    if (rc != 0)
        goto fail;
    fclose(jf);
    json.len = 0;
    pm_type_format(row, &json);
    printf("%s\n", pm_buf_cstr(&json));
    pm_buf_free(&json);
    pm_buf_free(&path);
    pm_type_free(row);
    pm_fs_free(fs);
    return 0;
fail:
    fprintf(stderr, "parquet_gen: %s\n", err.message);
    pm_pq_writer_abort(w);
    fclose(jf);
    pm_buf_free(&json);
    pm_buf_free(&path);
    pm_type_free(row);
    pm_fs_free(fs);
    return 1;
}
