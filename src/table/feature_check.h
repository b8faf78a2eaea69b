/*
 * What paimon-c refuses to read or write (DESIGN.md invariant 7: a table is read right or
 * not at all).  Java 1.4.2 tables can carry options and features that change what a read
 * returns or what a write must produce; where paimon-c does not implement one, the table is
 * refused with PAIMON_EUNSUPPORTED naming the option, never read or written as if it were
 * absent.  The list (README.md, "What paimon-c refuses"):
 *
 *   read and write   data-evolution.enabled = true (files that rewrite some columns of the
 *                    same row ids, merged at read time); blob-field and vector-field
 *                    (columns kept in separate blob/vector files); branch other than main
 *                    (Java reads and writes that branch); chain-table.enabled = true; a table
 *                    type other than table (format, object tables)
 *   read             scan.fallback-branch and scan.primary-branch (reads that join another
 *                    branch; writes go to main as in Java); key-value.sequence_number.enabled =
 *                    true (an extra sequence-number column in the rows read).
 *                    table-read.sequence-number.enabled is read by $audit_log and $binlog,
 *                    batch (api/scan.c) and streaming (api/stream.c), and refused by
 *                    diff-mode incremental reads; the scan modes and incremental reads
 *                    are table/scan_mode.h and table/incremental.h
 *   change reads     postpone buckets (bucket = -2) without a changelog producer: Java's
 *                    streaming read returns the rows waiting in bucket-postpone
 *   write            record-level.expire-time (compaction drops expired records), besides
 *                    what the writer refuses itself (table/write/write_ctx.h)
 *
 * One call at each choke point: the scan plan (table/scan.h), the change plan
 * (table/changes.h) and the writer's context (table/write/write_ctx.h).
 */
#ifndef PM_TABLE_FEATURE_CHECK_H
#define PM_TABLE_FEATURE_CHECK_H

#include "meta/schema.h"

/* 0, or PAIMON_EUNSUPPORTED "TABLE: option KEY = VALUE: WHY, not supported by paimon-c". */
PM_MUST_CHECK int pm_table_check_read(const char *table, const pm_schema *s, paimon_error *err);
PM_MUST_CHECK int pm_table_check_changes(const char *table, const pm_schema *s, paimon_error *err);
PM_MUST_CHECK int pm_table_check_write(const char *table, const pm_schema *s, paimon_error *err);

#endif /* PM_TABLE_FEATURE_CHECK_H */
