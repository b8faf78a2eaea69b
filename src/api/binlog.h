/*
 * The shape of Java Paimon 1.4.2's `TABLE$binlog` (BinlogTable) over a change stream: the
 * kind as a `rowkind` STRING NOT NULL value, then every column as an ARRAY of its (nullable)
 * type, `[v]` for a row on its own; in the follow-up of a streaming read (Java's
 * PackChangelogReader, for splits that are streaming) an UPDATE_BEFORE is packed with the
 * UPDATE_AFTER that follows it into one `+U` row of `[before, after]` arrays.  The full read
 * of a stream's start is not packed (its rows are all +I).
 *
 * A converter takes the batches of one snapshot in order (column 0 the kind "+I", "-U", "+U",
 * "-D", then the data columns) and returns batches of the binlog type; a -U at the end of a
 * batch waits for the next one, and pm_binlog_finish() gives it alone if none follows.
 */
#ifndef PM_API_BINLOG_H
#define PM_API_BINLOG_H

#include <stdbool.h>

#include "data/batch.h"
#include "util/error.h"

typedef struct pm_binlog pm_binlog;

/* The binlog ROW type of a change type (kind first, then the data columns): column 0 renamed
 * `rowkind`, every other column an ARRAY of its type made nullable, except `_SEQUENCE_NUMBER`
 * (table-read.sequence-number.enabled), which stays a value: a packed row carries the -U's.
 * Caller owns `*out`. */
PM_MUST_CHECK int pm_binlog_type(const pm_type *changes, pm_type **out, paimon_error *err);

/* A converter to `type` (a pm_binlog_type; borrowed, it must outlive the converter) that
 * packs -U/+U pairs when `pack`.  Caller owns `*out`; release with pm_binlog_free(). */
PM_MUST_CHECK int pm_binlog_new(pm_binlog **out, const pm_type *type, bool pack, paimon_error *err);
void pm_binlog_free(pm_binlog *b);

/* Converts the next batch `in` of a snapshot; *out is NULL when every row of `in` waits (a
 * lone -U).  Caller owns `*out`. */
PM_MUST_CHECK int pm_binlog_convert(pm_binlog *b, const pm_batch *in, pm_batch **out,
                                    paimon_error *err);

/* The waiting -U on its own (a -U without its +U), or NULL. */
PM_MUST_CHECK int pm_binlog_finish(pm_binlog *b, pm_batch **out, paimon_error *err);

#endif /* PM_API_BINLOG_H */
