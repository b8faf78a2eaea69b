/*
 * Fuzz target: ORC files (tail, footer, metadata, stripe footers, row indexes, compression
 * chunks, every RLE and column encoding) read three ways: described in full, decoded as a
 * data file with row ranges and a pruning filter that makes the reader seek by row index,
 * and decoded as each manifest kind.  Any result but a crash or a sanitizer report is
 * fine; the byte-flip sweep (tests/compat) checks the error codes.  Memory and time are
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

#include "format/orc/orc_describe.h"
#include "format/orc/orc_reader.h"
#include "format/orc/orc_stream.h"
#include "meta/manifest.h"

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

static void read_all(pm_orc_reader *r, const pm_orc_read_options *o)
{
    const pm_orc_vec *v;
    paimon_error err;
    int64_t rows = 0;
    if (pm_orc_reader_start(r, o, &err) != 0)
        return;
    while (rows < MAX_ROWS && pm_orc_reader_next(r, &v, &err) == 0)
        rows += v->length;
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
    pm_orc_stream_limit((size_t)64 << 20);
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
        read_all(r, &o);
        o.ranges = ranges;
        o.range_count = 3;
        o.filter = alternate;
        o.filter_ctx = &n;
        o.ltz_utc = true;
        read_all(r, &o);
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
