/*
 * Input parsing benchmark (data/input.h): JSONL and CSV rows into batches.
 *
 * Builds ROWS rows of (id BIGINT, qty INT, price DOUBLE, name STRING, amount DECIMAL(18, 2),
 * ts TIMESTAMP(3)) with a fixed pseudo-random generator, prints them with the canonical
 * printer (pm_batch_row_json) as JSONL and with `paimon cat --format csv`'s rules as CSV,
 * then parses each text RUNS times into batches of 4096 rows: from memory
 * (pm_input_open_buffer) and from a file through stdio (pm_input_open_file, the
 * `paimon write` path).  Prints the median rows/s and MB/s (wall clock and CPU time of the
 * process) and the peak RSS; for reference, jansson parsing each JSONL line into a DOM.
 *
 * Values: qty uniform in [-10^6, 10^6); price has two decimals (0.00 .. 99999.99) in half
 * of the rows and is a full 17-digit double in the other half; name is 4..24 ASCII letters;
 * amount up to 10^10 with two decimals, a tenth negative; ts within 2020..2030; a twentieth
 * of the names and prices are null.
 *
 * usage: bench_input [ROWS] [RUNS] [--keep]   (default 1000000 5; --keep leaves the JSONL
 *        and CSV files in /tmp and prints their names, for profiling)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "bench_util.h"
#include "data/input.h"
#include "util/alloc.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    /* xorshift64*: fixed seed, same data every run */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static pm_batch *make_rows(const pm_type *row, int64_t n)
{
    pm_batch *b = NULL;
    paimon_error err = {0};
    char name[32];
    if (pm_batch_new(&b, row, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    for (int64_t i = 0; i < n; i++) {
        pm_column **c = b->columns;
        pm_datum d;
        size_t len = 4 + rnd() % 21;
        double price;
        pm_column_append_i64(c[0], i + 1);
        pm_column_append_i64(c[1], (int64_t)(rnd() % 2000000) - 1000000);
        if (rnd() % 20 == 0)
            pm_column_append_null(c[2]);
        else {
            if (i % 2 == 0)
                price = (double)(rnd() % 10000000) / 100.0;
            else
                price = (double)(rnd() >> 11) / (double)(1ull << 53) * 100000.0;
            pm_column_append_f64(c[2], price);
        }
        for (size_t k = 0; k < len; k++)
            name[k] = (char)('a' + rnd() % 26);
        if (rnd() % 20 == 0)
            pm_column_append_null(c[3]);
        else
            pm_column_append_bytes(c[3], name, len);
        d = (pm_datum){.is_null = false};
        d.v.dec = (pm_int128)(rnd() % 1000000000000ull) * (rnd() % 10 == 0 ? -1 : 1);
        pm_column_append_datum(c[4], &d);
        pm_column_append_i64(c[5], 1577836800000LL + (int64_t)(rnd() % 315360000000ull));
    }
    b->row_count = n;
    return b;
}

static void to_jsonl(const pm_batch *b, pm_buf *out)
{
    paimon_error err = {0};
    for (int64_t r = 0; r < b->row_count; r++) {
        PM_IGNORE(pm_batch_row_json(out, b, r, &err));
        pm_buf_putc(out, '\n');
    }
}

static void to_csv(const pm_batch *b, pm_buf *out)
{
    paimon_error err = {0};
    pm_buf text;
    pm_buf_init(&text, 0);
    for (size_t i = 0; i < b->column_count; i++) {
        if (i > 0)
            pm_buf_putc(out, ',');
        pm_buf_puts(out, b->type->fields[i].name);
    }
    pm_buf_putc(out, '\n');
    for (int64_t r = 0; r < b->row_count; r++) {
        for (size_t i = 0; i < b->column_count; i++) {
            bool is_null;
            if (i > 0)
                pm_buf_putc(out, ',');
            pm_buf_reset(&text);
            PM_IGNORE(pm_column_text(&text, b->columns[i], r, &is_null, &err));
            if (!is_null)
                pm_input_csv_field(out, (const char *)text.data, text.len);
        }
        pm_buf_putc(out, '\n');
    }
    pm_buf_free(&text);
}

/* Parses the text once; returns the rows read (0 on error). */
static int64_t parse(pm_input_format fmt, const pm_type *row, const pm_buf *text, const char *file)
{
    pm_row_input *in = NULL;
    paimon_error err = {0};
    pm_batch *b;
    const int8_t *k;
    int64_t rows = 0;
    FILE *f = NULL;
    int rc;
    if (file != NULL) {
        if ((f = fopen(file, "rb")) == NULL)
            return 0;
        rc = pm_input_open_file(&in, fmt, f, row, NULL, &err);
    } else {
        rc = pm_input_open_buffer(&in, fmt, text->data, text->len, row, NULL, &err);
    }
    while (rc == 0 && (rc = pm_input_next(in, &b, &k, &err)) == 0)
        rows += b->row_count;
    if (rc != PAIMON_ITEROVER) {
        fprintf(stderr, "parse: %s\n", err.message);
        rows = 0;
    }
    pm_input_free(in);
    if (f != NULL)
        fclose(f);
    return rows;
}

/* CPU seconds of this process: on a shared machine the wall clock also counts the time
 * other processes hold the cores, so both are reported. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void measure(const char *label, pm_input_format fmt, const pm_type *row, const pm_buf *text,
                    const char *file, int64_t n, int runs)
{
    double secs[32], cpu[32];
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now(), c0 = cpu_now();
        int64_t got = parse(fmt, row, text, file);
        secs[r] = bench_now() - t0;
        cpu[r] = cpu_now() - c0;
        if (got != n) {
            fprintf(stderr, "%s: read %lld rows, expected %lld\n", label, (long long)got,
                    (long long)n);
            exit(1);
        }
    }
    {
        double med = bench_median(secs, (size_t)runs), cmed = bench_median(cpu, (size_t)runs);
        printf("%-14s wall %6.3f s %6.2f M rows/s %7.1f MB/s | cpu %6.3f s %6.2f M rows/s "
               "%7.1f MB/s\n",
               label, med, (double)n / med / 1e6, (double)text->len / med / 1e6, cmed,
               (double)n / cmed / 1e6, (double)text->len / cmed / 1e6);
    }
}

/* The reference point for "no DOM": jansson's json_loadb on every line, parse only (no
 * conversion to column types), as a reader built on the library's JSON helper would start. */
static void measure_jansson(const pm_buf *text, int64_t n, int runs)
{
    double secs[32];
    for (int r = 0; r < runs; r++) {
        double c0 = cpu_now();
        const uint8_t *p = text->data, *end = text->data + text->len;
        int64_t got = 0;
        while (p < end) {
            const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
            size_t len = (size_t)((nl != NULL ? nl : end) - p);
            json_error_t jerr;
            json_t *v = json_loadb((const char *)p, len, 0, &jerr);
            got += v != NULL;
            json_decref(v);
            p += len + 1;
        }
        secs[r] = cpu_now() - c0;
        if (got != n) {
            fprintf(stderr, "jansson: %lld rows\n", (long long)got);
            exit(1);
        }
    }
    {
        double cmed = bench_median(secs, (size_t)runs);
        printf("%-14s                                       | cpu %6.3f s %6.2f M rows/s "
               "%7.1f MB/s  (DOM only, no conversion)\n",
               "jsonl, jansson", cmed, (double)n / cmed / 1e6, (double)text->len / cmed / 1e6);
    }
}

int main(int argc, char **argv)
{
    int64_t n = argc > 1 ? atoll(argv[1]) : 1000000;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    bool keep = argc > 3 && strcmp(argv[3], "--keep") == 0;
    pm_type *row = NULL;
    paimon_error err = {0};
    pm_batch *b;
    pm_buf jsonl, csv;
    char jpath[] = "/tmp/bench_input_jsonl_XXXXXX", cpath[] = "/tmp/bench_input_csv_XXXXXX";
    FILE *f;
    int fd;

    if (n <= 0 || runs <= 0 || runs > 32) {
        fprintf(stderr, "usage: bench_input [ROWS] [RUNS<=32]\n");
        return 2;
    }
    if (pm_columns_parse("id BIGINT, qty INT, price DOUBLE, name STRING, amount DECIMAL(18, 2), "
                         "ts TIMESTAMP(3)",
                         &row, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    b = make_rows(row, n);
    pm_buf_init(&jsonl, 0);
    pm_buf_init(&csv, 0);
    to_jsonl(b, &jsonl);
    to_csv(b, &csv);
    pm_batch_free(b);
    if ((fd = mkstemp(jpath)) < 0 || (f = fdopen(fd, "wb")) == NULL)
        return 1;
    fwrite(jsonl.data, 1, jsonl.len, f);
    fclose(f);
    if ((fd = mkstemp(cpath)) < 0 || (f = fdopen(fd, "wb")) == NULL)
        return 1;
    fwrite(csv.data, 1, csv.len, f);
    fclose(f);

    printf("input parsing: %lld rows of (BIGINT, INT, DOUBLE, STRING, DECIMAL(18, 2), "
           "TIMESTAMP(3)), batches of 4096, one thread, medians of %d runs\n"
           "JSONL %.1f MB, CSV %.1f MB\n",
           (long long)n, runs, (double)jsonl.len / 1e6, (double)csv.len / 1e6);
    measure("jsonl, memory", PM_INPUT_JSONL, row, &jsonl, NULL, n, runs);
    measure("jsonl, file", PM_INPUT_JSONL, row, &jsonl, jpath, n, runs);
    measure_jansson(&jsonl, n, runs);
    measure("csv, memory", PM_INPUT_CSV, row, &csv, NULL, n, runs);
    measure("csv, file", PM_INPUT_CSV, row, &csv, cpath, n, runs);
    printf("peak RSS %ld kB (includes both texts held in memory)\n", bench_peak_rss_kb());
    printf("command: build/release/bench/bench_input %lld %d\n", (long long)n, runs);
    if (keep) {
        printf("kept %s and %s\n", jpath, cpath);
    } else {
        remove(jpath);
        remove(cpath);
    }
    pm_buf_free(&jsonl);
    pm_buf_free(&csv);
    pm_type_free(row);
    return 0;
}
