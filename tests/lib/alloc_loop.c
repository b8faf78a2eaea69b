/* Allocation-failure loops: see alloc_loop.h. */
#include "alloc_loop.h"

#include <stdlib.h>
#include <string.h>

#include "testlib.h"

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
    long runs = 0, failed = 0;
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
                check(ctx, n, rc);
            printf("%s: %ld allocations; %ld failing runs (every one up to %ld, then one in "
                   "%ld), all PAIMON_ENOMEM\n",
                   what, seen, failed, every_first, stride);
            return seen;
        }
        if (rc == 0)
            fail_msg("%s: allocation %ld failed, yet the operation reports success", what, n);
        if (rc != PAIMON_ENOMEM || err.code != PAIMON_ENOMEM ||
            strstr(err.message, "out of memory") == NULL)
            fail_msg("%s: allocation %ld failed: returned %d, error %d \"%s\" (expected "
                     "PAIMON_ENOMEM, \"out of memory\")",
                     what, n, rc, err.code, err.message);
        failed++;
        if (check != NULL)
            check(ctx, n, rc);
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
