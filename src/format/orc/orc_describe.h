/*
 * ORC file descriptions: the layout of a file as stable text (orc_describe.c lists the
 * lines), for `paimon file meta` and for tests that compare the structure of files
 * paimon-c writes with Java-written ones.
 */
#ifndef PM_FORMAT_ORC_DESCRIBE_H
#define PM_FORMAT_ORC_DESCRIBE_H

#include <stdbool.h>

#include "format/orc/orc_reader.h"
#include "util/error.h"

typedef struct pm_orc_describe_options {
    bool bytes;       /* sizes, offsets and bytesOnDisk (false: only what is independent of
                         the compressor's output) */
    bool row_indexes; /* every row index entry with its positions and statistics */
} pm_orc_describe_options;

/* Appends the description (options NULL: sizes on, row indexes off). */
PM_MUST_CHECK int pm_orc_describe(pm_orc_reader *r, const pm_orc_describe_options *o, pm_buf *out,
                                  paimon_error *err);

/* Appends one statistics entry as " values N has_null B int min X ..." */
int pm_orc_stats_text(pm_buf *out, const pm_orc_stats *s, bool with_bytes);

#endif /* PM_FORMAT_ORC_DESCRIBE_H */
