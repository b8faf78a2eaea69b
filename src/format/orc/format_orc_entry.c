/*
 * ORC as a pm_file_format (format/file_writer.h) over the batch writer of orc_format.h.
 *
 * Options as OrcFileFormat / OrcWriterFactory take them: the table's orc.* keys and
 * file.block-size, then the codec chosen for this file (file.compression, or its
 * per-level / changelog variant) unless orc.compress is set, which wins.
 *
 * Rolling (OrcBulkWriter.reachTargetSize): a file may roll only when Paimon's row batch
 * has just been handed to ORC (rows a multiple of write-batch-size), whatever the
 * 1,000-record suggestion says, once bytes written + 20% of the bytes buffered for the
 * open stripe (rounded up) reach the target.  Statistics are read back from the finished
 * file's footer (orc_file_stats.c), as Java does.
 */
#include <math.h>

#include "format/file_writer.h"
#include "format/orc/orc_format.h"

PM_MUST_CHECK static int orc_open(void **impl, pm_output *out, const pm_type *row,
                                  const char *codec, const pm_options *opts, paimon_error *err)
{
    pm_orc_writer_options o = {0};
    const char *key = "file.compression";
    int rc;
    *impl = NULL;
    rc = pm_orc_writer_options_parse(&o, (const char *const *)opts->keys,
                                     (const char *const *)opts->values, opts->count, err);
    if (rc == 0 && codec != NULL && pm_options_get(opts, "orc.compress") == NULL)
        rc = pm_orc_writer_options_parse(&o, &key, &codec, 1, err);
    if (rc != 0) {
        out->abort(out);
        return rc;
    }
    return pm_orc_file_writer_open((pm_orc_file_writer **)impl, out, row, &o, err);
}

PM_MUST_CHECK static int orc_write(void *impl, const pm_batch *b, int64_t first, int64_t count,
                                   paimon_error *err)
{
    return pm_orc_file_writer_write_range(impl, b, first, count, err);
}

/* OrcBulkWriter.length(): the file so far plus a fifth of what the stripe buffers. */
static int64_t orc_data_size(const void *impl)
{
    const pm_orc_file_writer *w = impl;
    return (int64_t)pm_orc_file_writer_position(w) +
           (int64_t)ceil((double)pm_orc_file_writer_buffered(w) * 0.2);
}

static bool orc_reach_target(void *impl, bool suggested, int64_t target)
{
    const pm_orc_file_writer *w = impl;
    (void)suggested; /* OrcBulkWriter ignores it */
    return pm_orc_file_writer_rows(w) % pm_orc_file_writer_batch_rows(w) == 0 &&
           orc_data_size(impl) >= target;
}

static int64_t orc_rows_until_check(const void *impl)
{
    const pm_orc_file_writer *w = impl;
    int64_t batch = pm_orc_file_writer_batch_rows(w);
    return batch - pm_orc_file_writer_rows(w) % batch;
}

PM_MUST_CHECK static int orc_close(void *impl, uint64_t *size, paimon_error *err)
{
    return pm_orc_file_writer_close(impl, size, err);
}

static void orc_abort(void *impl)
{
    pm_orc_file_writer_abort(impl);
}

const pm_file_format pm_orc_file_format = {
    .name = "orc",
    .stats = PM_FILE_STATS_FOOTER_ORC,
    .open = orc_open,
    .write = orc_write,
    .data_size = orc_data_size,
    .reach_target = orc_reach_target,
    .rows_until_check = orc_rows_until_check,
    .close = orc_close,
    .abort = orc_abort,
    .file_stats = pm_orc_file_col_stats,
};
