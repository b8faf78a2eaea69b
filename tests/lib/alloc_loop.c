/* Allocation-failure loops: see alloc_loop.h. */
#include "alloc_loop.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"

#include "table_state.h"

#include "paimon.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/strlist.h"

/* Runs op with allocation n failing (n == LONG_MAX: never); *seen receives how many
 * allocations it attempted. */
static int run_once(pm_test_alloc_op op, void *ctx, long n, long *seen, paimon_error *err)
{
    int rc;
    err->code = 0;
    snprintf(err->message, sizeof(err->message), "(no message set)");
    pm_alloc_fail_after(n);
    rc = op(ctx, err);
    *seen = pm_alloc_fail_after(0);
    return rc;
}

long pm_test_alloc_loop(const char *what, pm_test_alloc_op op, pm_test_alloc_check check, void *ctx,
                        const pm_test_alloc_loop_opts *opts)
{
    long every_first = opts != NULL && opts->every_first > 0 ? opts->every_first : 200;
    long stride = opts != NULL && opts->stride > 0 ? opts->stride : 1;
    /* PAIMON_ALLOC_LOOP_STRIDE=1 runs every allocation point (a thorough run, slow) */
    if (getenv("PAIMON_ALLOC_LOOP_STRIDE") != NULL)
        stride = strtol(getenv("PAIMON_ALLOC_LOOP_STRIDE"), NULL, 10) > 0
                     ? strtol(getenv("PAIMON_ALLOC_LOOP_STRIDE"), NULL, 10)
                     : 1;
    long max_runs = opts != NULL && opts->max_runs > 0 ? opts->max_runs : 100000;
    long runs = 0, failed = 0, tolerated = 0;
    /* PAIMON_ALLOC_LOOP_FROM=N starts at allocation N: to debug one failure quickly */
    long from = getenv("PAIMON_ALLOC_LOOP_FROM") != NULL
                    ? strtol(getenv("PAIMON_ALLOC_LOOP_FROM"), NULL, 10)
                    : 1;
    for (long n = from > 0 ? from : 1;; n = n < every_first ? n + 1 : n + stride) {
        paimon_error err;
        long seen;
        int rc = run_once(op, ctx, n, &seen, &err);
        runs++;
        if (seen < n) {
            /* nothing was injected: the operation completed */
            if (rc != 0)
                fail_msg("%s: fails without an injected failure: %d %s", what, rc, err.message);
            if (check != NULL)
                check(ctx, n, rc, 0);
            printf("%s: %ld allocations; %ld failing runs (every one up to %ld, then one in "
                   "%ld): %ld PAIMON_ENOMEM, %ld completed as the check allows\n",
                   what, seen, failed + tolerated, every_first, stride, failed, tolerated);
            return seen;
        }
        if (rc == 0) {
            if (check == NULL)
                fail_msg("%s: allocation %ld failed, yet the operation reports success", what, n);
            tolerated++;
        } else if (rc != PAIMON_ENOMEM || err.code != PAIMON_ENOMEM ||
                   strstr(err.message, "out of memory") == NULL) {
            fail_msg("%s: allocation %ld failed: returned %d, error %d \"%s\" (expected "
                     "PAIMON_ENOMEM, \"out of memory\")",
                     what, n, rc, err.code, err.message);
        } else {
            failed++;
        }
        if (check != NULL)
            check(ctx, n, rc, 1);
        if (runs >= max_runs)
            fail_msg("%s: still failing after %ld runs", what, runs);
    }
}

char *pm_test_list_files(const char *dir)
{
    pm_strlist files;
    pm_buf all;
    size_t skip = strlen(dir) + 1;
    pm_strlist_init(&files);
    pm_buf_init(&all, 0);
    pm_test_find_files(dir, "", &files);
    for (size_t i = 0; i < files.count; i++) {
        pm_buf_puts(&all, files.items[i] + skip);
        pm_buf_putc(&all, '\n');
    }
    pm_buf_putc(&all, '\0');
    pm_strlist_free(&files);
    return (char *)pm_buf_detach(&all, NULL);
}

/* Whether `line` (up to its newline) is one of the lines of `lines`. */
static int has_line(const char *lines, const char *line)
{
    size_t len = strcspn(line, "\n");
    for (const char *p = lines; *p != '\0';) {
        size_t n = strcspn(p, "\n");
        if (n == len && memcmp(p, line, len) == 0)
            return 1;
        p += n + (p[n] == '\n');
    }
    return 0;
}

/* "+added -removed" lines between two listings, cut to `cap`. */
static void diff_lines(const char *before, const char *now, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (int pass = 0; pass < 2; pass++) {
        const char *from = pass == 0 ? now : before, *other = pass == 0 ? before : now;
        for (const char *p = from; *p != '\0' && used + 1 < cap;) {
            size_t n = strcspn(p, "\n");
            if (!has_line(other, p)) {
                int w =
                    snprintf(out + used, cap - used, "%c%.*s ", pass == 0 ? '+' : '-', (int)n, p);
                used = w < 0 || (size_t)w >= cap - used ? cap - 1 : used + (size_t)w;
            }
            p += n + (p[n] == '\n');
        }
    }
}

void pm_test_table_image_take(const char *path, pm_test_table_image *out)
{
    pm_strlist full;
    size_t skip = strlen(path) + 1;
    out->snapshot = pm_test_latest_snapshot(path);
    out->rows = pm_test_table_rows(path);
    out->files = pm_test_list_files(path);
    pm_strlist_init(&out->names);
    pm_strlist_init(&full);
    pm_test_find_files(path, "", &full);
    out->data = pm_calloc(full.count + 1, sizeof(uint8_t *));
    out->lens = pm_calloc(full.count + 1, sizeof(size_t));
    assert_true(out->data != NULL && out->lens != NULL);
    for (size_t i = 0; i < full.count; i++) {
        assert_int_equal(pm_strlist_push(&out->names, full.items[i] + skip), 0);
        out->data[i] = pm_test_read_file(full.items[i], &out->lens[i]);
    }
    pm_strlist_free(&full);
}

void pm_test_table_image_restore(const char *path, const pm_test_table_image *before)
{
    pm_strlist now;
    size_t skip = strlen(path) + 1;
    pm_strlist_init(&now);
    pm_test_find_files(path, "", &now);
    for (size_t i = 0; i < now.count; i++)
        if (!has_line(before->files, now.items[i] + skip))
            assert_int_equal(unlink(now.items[i]), 0);
    pm_strlist_free(&now);
    for (size_t i = 0; i < before->names.count; i++) {
        char full[4096];
        size_t len = 0;
        uint8_t *data = NULL;
        snprintf(full, sizeof(full), "%s/%s", path, before->names.items[i]);
        if (access(full, F_OK) == 0)
            data = pm_test_read_file(full, &len);
        if (data == NULL || len != before->lens[i] || memcmp(data, before->data[i], len) != 0)
            pm_test_write_file(full, before->data[i], before->lens[i]);
        pm_free(data);
    }
}

void pm_test_table_image_check(const char *path, const pm_test_table_image *before,
                               const char *what, long n)
{
    char *rows = pm_test_table_rows(path);
    if (strcmp(rows, before->rows) != 0)
        fail_msg("%s: allocation %ld failed, yet the rows changed", what, n);
    pm_free(rows);
    pm_test_table_files_check(path, before, what, n);
}

void pm_test_table_files_check(const char *path, const pm_test_table_image *before,
                               const char *what, long n)
{
    int64_t snapshot = pm_test_latest_snapshot(path);
    char *files = pm_test_list_files(path);
    if (snapshot != before->snapshot)
        fail_msg("%s: allocation %ld failed, yet the latest snapshot is %lld (was %lld)", what, n,
                 (long long)snapshot, (long long)before->snapshot);
    if (strcmp(files, before->files) != 0) {
        char diff[2048];
        diff_lines(before->files, files, diff, sizeof(diff));
        fail_msg("%s: allocation %ld failed, yet the files changed: %s", what, n, diff);
    }
    pm_free(files);
}

void pm_test_table_image_free(pm_test_table_image *image)
{
    for (size_t i = 0; i < image->names.count; i++)
        pm_free(image->data[i]);
    pm_free(image->data);
    pm_free(image->lens);
    pm_strlist_free(&image->names);
    pm_free(image->rows);
    pm_free(image->files);
    memset(image, 0, sizeof(*image));
}

char *pm_test_alloc_table(const char *tag, int pk, const char *const *opts, size_t nopt)
{
    char *path = pm_test_table_path(tag);
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[2] = {"id", "p"}, *parts[1] = {"p"};
    const char *keys[8], *values[8];
    char kv[8][128];
    paimon_error err;
    assert_true(nopt <= 8);
    for (size_t i = 0; i < nopt; i++) {
        const char *eq = strchr(opts[i], '=');
        assert_non_null(eq);
        snprintf(kv[i], sizeof(kv[i]), "%.*s", (int)(eq - opts[i]), opts[i]);
        keys[i] = kv[i];
        values[i] = eq + 1;
    }
    co.columns = "id BIGINT, p INT, v STRING";
    co.primary_keys = pk ? pks : NULL;
    co.primary_key_count = pk ? 2 : 0;
    co.partition_keys = parts;
    co.partition_key_count = 1;
    co.option_keys = keys;
    co.option_values = values;
    co.option_count = nopt;
    if (paimon_table_create(path, &co, &err) != 0)
        fail_msg("%s", err.message);
    return path;
}

int pm_test_write_rows(paimon_table *t, int from, int to, paimon_writer **wp,
                       paimon_commit_messages *m, paimon_error *err)
{
    paimon_writer *w;
    int rc = 0;
    *wp = NULL;
    if ((rc = paimon_writer_open(wp, t, NULL, err)) != 0)
        return rc;
    w = *wp;
    for (int i = from; i < to; i++) {
        char v[32];
        paimon_value row[3];
        row[0].type = PAIMON_VALUE_INT;
        row[0].v.i = i % 70;
        row[1].type = PAIMON_VALUE_INT;
        row[1].v.i = i % 3;
        row[2].type = PAIMON_VALUE_TEXT;
        row[2].v.s.len = (size_t)snprintf(v, sizeof(v), "value-%d", i);
        row[2].v.s.ptr = v;
        if ((rc = paimon_writer_write_row(w, row, 3, PAIMON_ROW_INSERT, err)) != 0)
            return rc;
    }
    return paimon_writer_prepare_commit(w, m, err);
}
