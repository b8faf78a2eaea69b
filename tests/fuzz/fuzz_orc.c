/*
 * Fuzz target: ORC files (tail, footer, metadata, stripe footers, row indexes, compression
 * chunks, every RLE and column encoding) read three ways: described in full, decoded as a
 * data file with row ranges and a pruning filter that makes the reader seek by row index,
 * and decoded as each manifest kind.  Any result but a crash or a sanitizer report is
 * fine; the byte-flip sweep (tests/compat) checks the error codes.  Each read is made
 * twice, in place and with each stripe's streams decompressed at once on a thread pool
 * (orc_stream_jobs.h), and must end the same way: the same rows, or the same error after
 * the same rows.  Memory and time are
 * bounded by a small stream limit, a small vector limit and a cap on rows read.
 *
 * Corpus (tests/fuzz/corpus/orc/): ten files paimon-c writes (every type through every
 * codec, manifests), 207 inputs under 700 bytes the campaigns found, kept by
 * `fuzz_orc -merge=1` because each adds coverage to the ten, and three hand-made type
 * trees (types-*.orc: a list that is its own element, the deepest tree accepted, one level
 * deeper) that seed the type-tree checks.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "format/orc/orc_describe.h"
#include "format/orc/orc_reader.h"
#include "format/orc/orc_stream.h"
#include "meta/manifest.h"
#include "util/pool.h"

#define MAX_ROWS 200000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keeps every other stripe and row group: the reader skips and seeks. */
static bool alternate(void *ctx, const pm_orc_stats *const *stats, size_t count, int64_t rows)
{
    int *n = ctx;
    (void)stats;
    (void)count;
    (void)rows;
    return (*n)++ % 2 == 0;
}

/* Reads to the end (or MAX_ROWS): the rows, the end's code and message. */
static int read_some(pm_orc_reader *r, const pm_orc_read_options *o, int64_t *rows,
                     paimon_error *err)
{
    const pm_orc_vec *v;
    int rc = pm_orc_reader_start(r, o, err);
    *rows = 0;
    while (rc == 0 && *rows < MAX_ROWS && (rc = pm_orc_reader_next(r, &v, err)) == 0)
        *rows += v->length;
    return rc;
}

/* In place, then on the pool: the same end. */
static void read_all(pm_orc_reader *r, pm_orc_read_options *o, pm_pool *pool)
{
    paimon_error e1 = {0, {0}}, e2 = {0, {0}};
    int64_t n1, n2;
    int rc1, rc2;
    int *filter_count = o->filter_ctx;
    int saved = filter_count != NULL ? *filter_count : 0;
    o->pool = NULL;
    rc1 = read_some(r, o, &n1, &e1);
    if (filter_count != NULL)
        *filter_count = saved; /* the same stripes and groups kept */
    o->pool = pool;
    rc2 = read_some(r, o, &n2, &e2);
    if (rc1 != rc2 || n1 != n2 || strcmp(e1.message, e2.message) != 0) {
        fprintf(stderr,
                "fuzz_orc: in place %d after %lld rows (%s), on the pool %d after %lld rows (%s)\n",
                rc1, (long long)n1, e1.message, rc2, (long long)n2, e2.message);
        __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct {
        const pm_avro_rdesc *rd;
        int32_t version;
    } kinds[] = {{&PM_MANIFEST_FILE_META_DESC, PM_MANIFEST_LIST_VERSION},
                 {&PM_MANIFEST_ENTRY_DESC, PM_MANIFEST_VERSION},
                 {&PM_INDEX_MANIFEST_ENTRY_DESC, PM_INDEX_MANIFEST_VERSION}};
    pm_orc_reader *r = NULL;
    paimon_error err;
    static pm_pool *pool; /* made once, for every input */
    pm_orc_stream_limit((size_t)64 << 20);
    if (pool == NULL && pm_pool_new(&pool, 2, &err) != 0)
        __builtin_trap();
    if (pm_orc_reader_open_memory(&r, data, size, "fuzz", &err) == 0) {
        pm_orc_describe_options d = {true, true};
        pm_orc_read_options o = {0};
        int64_t ranges[] = {1, 3, 5, 20000, 20001, 1LL << 40};
        int n = 0;
        pm_buf text;
        pm_buf_init(&text, (size_t)16 << 20);
        PM_IGNORE(pm_orc_describe(r, &d, &text, &err));
        pm_buf_free(&text);
        o.max_values = 1 << 16;
        o.batch_rows = 1000;
        read_all(r, &o, pool);
        o.ranges = ranges;
        o.range_count = 3;
        o.filter = alternate;
        o.filter_ctx = &n;
        o.ltz_utc = true;
        read_all(r, &o, pool);
    }
    pm_orc_reader_free(r);
    for (size_t k = 0; k < 3; k++) {
        pm_arena arena;
        void *records = NULL;
        size_t count = 0;
        pm_arena_init(&arena, 4096);
        PM_IGNORE(pm_manifest_decode(data, size, "fuzz", kinds[k].rd, kinds[k].version, &arena,
                                     &records, &count, &err));
        pm_arena_free(&arena);
    }
    return 0;
}
