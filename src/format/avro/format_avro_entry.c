/*
 * Avro as a pm_file_format (format/file_writer.h) over the batch writer of avro_data.h.
 *
 * The codec follows AvroFileFormat.createCodecFactory: `avro.codec` wins when set (Avro's
 * CodecFactory names: null, deflate, snappy, zstandard -- zstandard at Avro's default
 * level 3); otherwise the codec chosen for this file (file.compression or its per-level /
 * changelog variant): zstd at file.compression.zstd-level (1), or snappy, deflate, none.
 * bzip2 and xz, which Avro Java also knows, are refused with PAIMON_EUNSUPPORTED.
 *
 * Rolling (AvroFileFormat's reachTargetSize): every 1,000 records, once the bytes handed
 * to the output reach the target.  Statistics are collected row by row
 * (table/write/col_stats.h, PM_STATS_FROM_ROWS), as RollingFileWriter and
 * KeyValueFileWriterFactory do for Avro.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "format/avro/avro_container.h"
#include "format/avro/avro_data.h"
#include "format/file_writer.h"
#include "util/error.h"
#include "util/units.h"

#define AVRO_DEFAULT_ZSTANDARD_LEVEL 3 /* CodecFactory.DEFAULT_ZSTANDARD_LEVEL */

PM_MUST_CHECK static int avro_open(void **impl, pm_output *out, const pm_type *row,
                                   const char *codec, const pm_options *opts, paimon_error *err)
{
    const char *avro_codec = pm_options_get(opts, "avro.codec"), *name;
    const char *zstd_level = pm_options_get(opts, "file.compression.zstd-level");
    int32_t level = 1; /* CoreOptions' default; the table layer validated any value given */
    *impl = NULL;
    if (avro_codec != NULL) {
        if (strcasecmp(avro_codec, "bzip2") == 0 || strcasecmp(avro_codec, "xz") == 0) {
            out->abort(out);
            return pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "option avro.codec: paimon-c cannot write '%s'", avro_codec);
        }
        codec = avro_codec;
        level = AVRO_DEFAULT_ZSTANDARD_LEVEL;
    } else if (zstd_level != NULL && pm_parse_int32(zstd_level, &level) != 0) {
        out->abort(out);
        return pm_err_set(err, PAIMON_EINVALID,
                          "option file.compression.zstd-level: '%s' is not an integer", zstd_level);
    }
    if (level < 1 || level > 22) {
        out->abort(out);
        return pm_err_set(err, PAIMON_EINVALID,
                          "option file.compression.zstd-level: %d is not in 1..22", (int)level);
    }
    /* deflate: Avro's DEFAULT_DEFLATE_LEVEL -1, zlib's default (level 0 here) */
    if (codec != NULL && (name = pm_avro_codec_for_option(codec)) != NULL &&
        strcmp(name, "deflate") == 0)
        level = 0;
    return pm_avro_data_writer_open((pm_avro_data_writer **)impl, out, row, codec, (int)level, err);
}

PM_MUST_CHECK static int avro_write(void *impl, const pm_batch *b, int64_t first, int64_t count,
                                    paimon_error *err)
{
    return pm_avro_data_writer_write_range(impl, b, first, count, err);
}

static int64_t avro_data_size(const void *impl)
{
    return (int64_t)pm_avro_data_writer_position(impl);
}

PM_MUST_CHECK static int avro_close(void *impl, uint64_t *size, paimon_error *err)
{
    return pm_avro_data_writer_close(impl, size, err);
}

static void avro_abort(void *impl)
{
    pm_avro_data_writer_abort(impl);
}

const pm_file_format pm_avro_file_format = {
    .name = "avro",
    .stats = PM_FILE_STATS_ROWS,
    .open = avro_open,
    .write = avro_write,
    .data_size = avro_data_size,
    .close = avro_close,
    .abort = avro_abort,
};
