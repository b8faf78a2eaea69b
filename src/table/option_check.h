/*
 * The options check of `create` and `alter`: everything a table's options must satisfy
 * before a schema is written, so that no option a write or read takes fails there first.
 *
 * It is Java's check (meta/option_catalog.h: known keys, values of the right type, the
 * rules of SchemaValidation, file formats and compressions Java accepts and paimon-c
 * writes, values paimon-c can never use) plus what paimon-c's table-layer readers parse
 * themselves (statistics modes, table/write/col_stats.h; file indexes,
 * table/write/file_index_writer.h; the options that steer paths, data-file.path-directory
 * and data-file.external-paths, meta/file_path.h).  Tables already
 * on disk are not checked here: their readers refuse a bad value with the same message.
 */
#ifndef PM_TABLE_OPTION_CHECK_H
#define PM_TABLE_OPTION_CHECK_H

#include "meta/schema.h"
#include "util/error.h"

/* 0, or PAIMON_EINVALID / PAIMON_EUNSUPPORTED naming the option ("option KEY: ..."). */
PM_MUST_CHECK int pm_table_options_check(const pm_schema *s, paimon_error *err);

#endif /* PM_TABLE_OPTION_CHECK_H */
