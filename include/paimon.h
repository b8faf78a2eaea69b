/*
 * paimon-c: Apache Paimon tables from C.
 *
 * This is the umbrella header; include it and link with -lpaimon.  The API is grouped by
 * topic in the headers under include/paimon/: table.h (open, create), storage.h (where
 * tables live: local paths, s3://, and the storage settings), inspect.h (metadata
 * lists), scan.h (batch reads), changes.h (change reads), stream.h (following a table),
 * file.h (single data files), cursor.h (the rows of all of them), write.h (writers,
 * commits, compaction, schema changes), maintenance.h (tags, rollback, orphan files),
 * arrow.h (the Arrow C Data Interface), heap.h (the paimon command's heap settings),
 * error.h and version.h.  Every fallible function
 * returns 0 or a negative PAIMON_E* code and reports details through an optional
 * caller-owned paimon_error (paimon/error.h).
 *
 * Options.  Every options struct (paimon_scan_options, paimon_file_read_options,
 * paimon_changes_options, paimon_create_options, paimon_commit_options,
 * paimon_compact_options, paimon_writer_options, paimon_stream_options,
 * paimon_tag_options, paimon_orphan_options, and the paimon_alter change) starts with
 * `unsigned int version` and is filled by its INIT macro or, for callers that cannot use
 * macros (ctypes, Rust, Go), by its paimon_*_options_init(ptr, version) function.  One rule
 * holds for all of them:
 *   - a NULL options pointer means every default (where the defaults name nothing to do,
 *     as paimon_table_create()'s name no columns, the call fails with PAIMON_EINVALID);
 *   - a struct of any version from 1 to the library's current one is accepted, and fields
 *     its version does not have take their defaults, so code built against older headers
 *     keeps working with a newer library;
 *   - version 0, or one newer than the library's, is PAIMON_EINVALID naming the function
 *     and both versions.
 * Structs only ever grow at their end.
 *
 * paimon-c reads tables written by Apache Paimon 0.8 to 2.0 (Java) and paimon-cpp, and
 * writes exactly what Java Paimon 1.4.2 writes (paimon_format_version()).
 */
#ifndef PAIMON_H
#define PAIMON_H

#include "paimon/error.h"
#include "paimon/version.h"
#include "paimon/table.h"
#include "paimon/storage.h"
#include "paimon/inspect.h"
#include "paimon/arrow.h"
#include "paimon/cursor.h"
#include "paimon/scan.h"
#include "paimon/file.h"
#include "paimon/write.h"
#include "paimon/changes.h"
#include "paimon/maintenance.h"
#include "paimon/stream.h"
#include "paimon/consumer.h"
#include "paimon/partition_expire.h"
#include "paimon/expire.h"
#include "paimon/progress.h"
#include "paimon/heap.h"

#endif /* PAIMON_H */
