/* The rows of the write benchmarks: see write_rows.h. */
#include "write_rows.h"

#include <stdio.h>

#include "bench_util.h"
#include "util/alloc.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

pm_batch **bench_write_pool(const pm_type *row, int64_t keys)
{
    pm_batch **pool = pm_calloc(BENCH_WRITE_POOL, sizeof(*pool));
    paimon_error err;
    if (pool == NULL)
        bench_die("batch pool", NULL);
    for (int p = 0; p < BENCH_WRITE_POOL; p++) {
        pm_batch *b;
        if (pm_batch_new(&b, row, &err))
            bench_die("batch", &err);
        for (int i = 0; i < BENCH_WRITE_BATCH; i++) {
            char s[16];
            int n = snprintf(s, sizeof(s), "name-%llu",
                             (unsigned long long)(bench_xorshift(&rng) % 100000000));
            pm_datum ts;
            ts.is_null = false;
            ts.v.ts.millis = 1700000000000ll + (int64_t)(bench_xorshift(&rng) % 100000000);
            ts.v.ts.nanos = 0;
            pm_column_append_i64(b->columns[0], (int64_t)(bench_xorshift(&rng) % (uint64_t)keys));
            pm_column_append_i64(b->columns[1], (int64_t)(bench_xorshift(&rng) % 1000000000));
            pm_column_append_f64(b->columns[2], (double)(bench_xorshift(&rng) % 1000000) / 100.0);
            pm_column_append_i64(b->columns[3], (int32_t)(bench_xorshift(&rng) % 100000));
            pm_column_append_bytes(b->columns[4], s, (size_t)n);
            pm_column_append_datum(b->columns[5], &ts);
        }
        if (pm_batch_set_rows(b, BENCH_WRITE_BATCH, &err) != 0)
            bench_die("batch", &err);
        pool[p] = b;
    }
    return pool;
}

void bench_write_shift(pm_batch *b, int64_t shift, int64_t keys)
{
    int64_t *k = (int64_t *)(void *)b->columns[0]->values.data;
    int64_t *v1 = (int64_t *)(void *)b->columns[1]->values.data;
    double *v2 = (double *)(void *)b->columns[2]->values.data;
    int64_t *v5 = (int64_t *)(void *)b->columns[5]->values.data;
    for (int64_t i = 0; i < b->row_count; i++) {
        k[i] = (k[i] + shift) % keys;
        v1[i] += 1000000007;
        v2[i] += 0.5;
        v5[i] += 1;
    }
}
