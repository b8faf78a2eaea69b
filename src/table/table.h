/*
 * The table handle behind the public paimon_table: a root path, the file system it lives
 * on and the latest schema at open time.  Everything else (snapshots, manifests) is read
 * on demand so that a handle sees later commits.
 *
 * Thread safety: one thread per handle at a time (the public contract).
 */
#ifndef PM_TABLE_TABLE_H
#define PM_TABLE_TABLE_H

#include <stdatomic.h>

#include "io/fs.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "paimon/table.h"
#include "util/error.h"

/* What a credential among a table's options (s3.access-key, s3.secret-key,
 * s3.session.token: pm_s3_config_is_secret) shows as in `inspect`, `$options` and
 * `$schemas`: its value is never printed (issue 14). */
#define PM_TABLE_SECRET_MASK "******"

/* `value`, or PM_TABLE_SECRET_MASK when `key` names a credential.  Borrowed. */
const char *pm_table_shown_value(const char *key, const char *value);

struct paimon_table {
    char *path;        /* table root, without a trailing slash */
    pm_fs *fs;         /* owned */
    pm_schema *schema; /* latest schema when opened */
    atomic_bool begun; /* an operation began on the handle (pm_table_begin); atomic: writers
                        * of one handle are opened on several threads (paimon/write.h) */
};

/* An operation (a writer, a scan, a stream, a compaction, an expiration, a tag change, a
 * rollback, an orphan sweep) begins on `t`: it works with the table's latest schema at
 * this point.  The modules of one operation (a writer, its commit and the upkeep after it)
 * find that schema once, remembered on the handle's file system (meta/schema_memo.c); the
 * first operation after the open takes the schema the open found, and each later one finds
 * it again, so a long-lived handle sees schema changes as before (issue 14: a CLI command is
 * one open and one operation, and reads the schema once).  Thread-safe, as the handle's
 * writers may be opened on several threads at once. */
void pm_table_begin(paimon_table *t);

/* Opens the table at `path` on `fs` (takes ownership of `fs`, also on failure). */
PM_MUST_CHECK int pm_table_open(paimon_table **out, const char *path, pm_fs *fs, paimon_error *err);
void pm_table_close(paimon_table *t);

/* Reads snapshot `id`, or the latest for PAIMON_LATEST_SNAPSHOT (-1).  A table without
 * snapshots, or an unknown id, is PAIMON_ENOTFOUND naming the table. */
PM_MUST_CHECK int pm_table_snapshot(paimon_table *t, int64_t id, pm_snapshot **out,
                                    paimon_error *err);

/* The schema with `id` (the cached latest one is returned as a copy-free borrow when it
 * matches; otherwise read).  Caller releases with pm_table_schema_release(). */
PM_MUST_CHECK int pm_table_schema(paimon_table *t, int64_t id, pm_schema **out, paimon_error *err);
void pm_table_schema_release(paimon_table *t, pm_schema *s);

/* Creates a table: validates the schema (columns, keys) and writes schema-0. */
PM_MUST_CHECK int pm_table_create(pm_fs *fs, const char *path, pm_schema *schema,
                                  paimon_error *err);

#endif /* PM_TABLE_TABLE_H */
