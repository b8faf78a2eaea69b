/*
 * Planning a scan and reading its rows with each allocation failing in turn, through the
 * public API (open the table, plan, a cursor over every split, each row as JSON), on
 * fixture tables with several partitions and buckets: primary-key tables merged on read
 * (Parquet), with deletion vectors (ORC), an append table and Avro data files.  Each failing
 * run is PAIMON_ENOMEM and leaks nothing (LeakSanitizer checks at exit); the run that
 * completes reads the same rows as a read without failures.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "alloc_loop.h"

#include "paimon.h"
#include "paimon/scan.h"

typedef struct scan_ctx {
    char path[4096];
    char *rows; /* the rows read, one JSON object a line (libc memory: not counted) */
    size_t len, cap;
    const char *filter; /* or NULL */
} scan_ctx;

static int add_row(scan_ctx *c, const char *json, size_t len)
{
    if (c->len + len + 2 > c->cap) {
        size_t cap = (c->len + len + 2) * 2;
        char *p = realloc(c->rows, cap);
        if (p == NULL)
            return -1;
        c->rows = p;
        c->cap = cap;
    }
    memcpy(c->rows + c->len, json, len);
    c->len += len;
    c->rows[c->len++] = '\n';
    c->rows[c->len] = '\0';
    return 0;
}

static int read_table(void *ctx, paimon_error *err)
{
    scan_ctx *c = ctx;
    paimon_table *t = NULL;
    paimon_scan *scan = NULL;
    paimon_cursor *cur = NULL;
    paimon_scan_options so = PAIMON_SCAN_OPTIONS_INIT;
    int rc = 0;
    c->len = 0;
    so.filter = c->filter;
    if ((rc = paimon_table_open(&t, c->path, err)) != 0 ||
        (rc = paimon_table_scan(&scan, t, &so, err)) != 0 ||
        (rc = paimon_scan_cursor(&cur, scan, err)) != 0)
        goto done;
    while ((rc = paimon_cursor_next(cur, err)) == 0) {
        const char *json;
        size_t len;
        if ((rc = paimon_cursor_row_json(cur, &json, &len, err)) != 0)
            goto done;
        if (add_row(c, json, len) != 0)
            abort();
    }
    if (rc == PAIMON_ITEROVER)
        rc = 0;
done:
    paimon_cursor_free(cur);
    paimon_scan_free(scan);
    paimon_table_free(t);
    return rc;
}

typedef struct check_ctx {
    scan_ctx scan;
    char *expected;
    size_t rows;
} check_ctx;

static int check_op(void *ctx, paimon_error *err)
{
    return read_table(&((check_ctx *)ctx)->scan, err);
}

static void check_rows(void *ctx, long n, int rc, int injected)
{
    check_ctx *c = ctx;
    if (rc == 0 && injected)
        fail_msg("allocation %ld failed, yet the read reports success", n);
    if (rc == 0 && strcmp(c->scan.rows != NULL ? c->scan.rows : "", c->expected) != 0)
        fail_msg("%s: allocation %ld: the rows differ from a read without failures", c->scan.path,
                 n);
}

static void scan_loop(const char *name, const char *filter)
{
    check_ctx c;
    paimon_error err;
    /* Every allocation up to 200, then one in 5: reading the data files takes a few
     * thousand allocations, mostly alike per batch and column. */
    pm_test_alloc_loop_opts opts = {200, 5, 0};
    memset(&c, 0, sizeof(c));
    snprintf(c.scan.path, sizeof(c.scan.path), "%s/%s", pm_test_fixtures(), name);
    c.scan.filter = filter;
    if (read_table(&c.scan, &err) != 0)
        fail_msg("%s: %s", name, err.message);
    assert_true(c.scan.len > 0);
    c.expected = strdup(c.scan.rows);
    pm_test_alloc_loop(name, check_op, check_rows, &c, &opts);
    free(c.expected);
    free(c.scan.rows);
}

static void test_pk_merge_parquet(void **state)
{
    (void)state;
    if (pm_test_require_fixtures())
        scan_loop("cpp-parquet-pk-09", NULL);
}

static void test_pk_dv_orc(void **state)
{
    (void)state;
    if (pm_test_require_fixtures())
        scan_loop("cpp-orc-pk-dv", NULL);
}

static void test_append_parquet_filter(void **state)
{
    (void)state;
    if (pm_test_require_fixtures())
        scan_loop("cpp-parquet-append-09", "f1 = 10 OR f0 <> 'x'");
}

static void test_pk_avro(void **state)
{
    (void)state;
    if (pm_test_require_fixtures())
        scan_loop("cpp-avro-pk-multiple-type", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pk_merge_parquet),
        cmocka_unit_test(test_pk_dv_orc),
        cmocka_unit_test(test_append_parquet_filter),
        cmocka_unit_test(test_pk_avro),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
