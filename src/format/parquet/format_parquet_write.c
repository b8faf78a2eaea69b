/* Parquet as a pm_file_format (format/file_writer.h) over the writer of writer.h. */
#include "format/file_writer.h"
#include "format/parquet/writer.h"

PM_MUST_CHECK static int pq_open(void **impl, pm_output *out, const pm_type *row, const char *codec,
                                 const pm_options *opts, paimon_error *err)
{
    pm_pq_writer_options o = PM_PQ_WRITER_OPTIONS_INIT;
    const char *key = "file.compression";
    int rc;
    *impl = NULL;
    /* table options first; then the codec chosen for this file (per level, changelog),
     * unless parquet.compression names one (it wins, as in RowDataParquetBuilder) */
    rc = pm_pq_writer_options_parse(&o, (const char *const *)opts->keys,
                                    (const char *const *)opts->values, opts->count, err);
    if (rc == 0 && codec != NULL && pm_options_get(opts, "parquet.compression") == NULL)
        rc = pm_pq_writer_options_parse(&o, &key, &codec, 1, err);
    if (rc != 0) {
        out->abort(out);
        return rc;
    }
    return pm_pq_writer_open((pm_pq_writer **)impl, out, row, &o, err);
}

PM_MUST_CHECK static int pq_write(void *impl, const pm_batch *b, int64_t first, int64_t count,
                                  paimon_error *err)
{
    return pm_pq_writer_write_range(impl, b, first, count, err);
}

static int64_t pq_data_size(const void *impl)
{
    return pm_pq_writer_data_size(impl);
}

/* Java's rule (suggested && data size >= target), on the exact size. */
static bool pq_reach_target(void *impl, bool suggested, int64_t target)
{
    return suggested && pm_pq_writer_reach_target(impl, target);
}

PM_MUST_CHECK static int pq_set_pool(void *impl, pm_pool *pool, paimon_error *err)
{
    return pm_pq_writer_set_pool(impl, pool, err);
}

PM_MUST_CHECK static int pq_close(void *impl, uint64_t *size, paimon_error *err)
{
    return pm_pq_writer_close(impl, size, err);
}

static void pq_abort(void *impl)
{
    pm_pq_writer_abort(impl);
}

const pm_file_format pm_parquet_file_format = {
    .name = "parquet",
    .stats = PM_FILE_STATS_FOOTER_PARQUET,
    .open = pq_open,
    .write = pq_write,
    .data_size = pq_data_size,
    .reach_target = pq_reach_target,
    .set_pool = pq_set_pool,
    .close = pq_close,
    .abort = pq_abort,
};
