/*
 * Schemas on both sides of `paimon cdc postgres`: the source table in PostgreSQL's catalog
 * (its columns, types and primary key), the Paimon table's latest schema (read through the
 * public inspection API), creating the Paimon table from the source's (--create), and
 * matching a pgoutput Relation message against the Paimon schema: a new column is added
 * (nullable, at the end: Paimon's schema evolution), a dropped or retyped column is an
 * error that stops the run before the transaction that carries it is committed.
 */
#ifndef PM_CDC_PG_SCHEMA_H
#define PM_CDC_PG_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "pgoutput.h"
#include "paimon.h"

typedef struct pm_cdc_col {
    char *name; /* owned */
    char *type; /* owned: the Paimon type, without NOT NULL */
    bool pk;    /* a primary-key column */
} pm_cdc_col;

/* The Paimon table's latest schema. */
typedef struct pm_cdc_schema {
    pm_cdc_col *cols; /* owned */
    size_t count;
    size_t pk_count; /* 0: an append table */
} pm_cdc_schema;

PM_MUST_CHECK int pm_cdc_schema_read(const char *path, pm_cdc_schema *out, paimon_error *err);
void pm_cdc_schema_free(pm_cdc_schema *s);
/* The column's index, or -1. */
int pm_cdc_schema_find(const pm_cdc_schema *s, const char *name);

/* Finds the source table SCHEMA.NAME (`qualified`): its oid, or PAIMON_ENOTFOUND naming it. */
PM_MUST_CHECK int pm_cdc_source_find(PGconn *sql, const char *qualified, uint32_t *oid,
                                     paimon_error *err);

/* Creates the Paimon table at `path` from the source table `oid`: its columns in order with
 * the types of pg_types.h, its primary key (NOT NULL); the other columns nullable (a delete
 * carries only the key), and `option_count` table options.  No primary key: an append
 * table. */
PM_MUST_CHECK int pm_cdc_create_table(PGconn *sql, uint32_t oid, const char *qualified,
                                      const char *path, const char *const *option_keys,
                                      const char *const *option_values, size_t option_count,
                                      paimon_error *err);

/* How a Relation's columns map to the Paimon schema. */
typedef struct pm_cdc_relmap {
    uint32_t rel;        /* the relation oid; 0: none yet */
    size_t count;        /* the relation's columns */
    int *to_paimon;      /* owned: the Paimon column of each */
    uint32_t *type_oids; /* owned */
    bool *key;           /* owned: maps to a primary-key column of the Paimon table (not
                            the replica identity, which is every column when FULL) */
    char **names;        /* owned: the relation's column names */
    bool from_catalog;   /* made from the catalog at start (which may be newer than the
                            stream), not from a Relation message */
} pm_cdc_relmap;

void pm_cdc_relmap_free(pm_cdc_relmap *m);

/* Checks Relation `r` against `schema` of the table at `path`.  *alter_count receives the
 * number of columns missing from the Paimon table; with `apply`, they are added (ALTER
 * ADD COLUMN, nullable) and *schema re-read.  Then fills `map`.  A dropped column is an
 * error: with `check_dropped`, a Paimon column the relation lacks (for the catalog at start,
 * which is the source as it is now); with `prev` (a map made from an earlier Relation
 * message of this stream, not from the catalog), a column `prev` has and `r` lacks.  Paimon
 * columns a Relation lacks otherwise were added later than the stream's position, and read
 * NULL.  So is a type that differs (retyped) or has no mapping
 * is PAIMON_EUNSUPPORTED naming the column and what to do. */
PM_MUST_CHECK int pm_cdc_relation_match(const pm_pgo_msg *r, const char *qualified,
                                        const char *path, pm_cdc_schema *schema, bool apply,
                                        bool check_dropped, const pm_cdc_relmap *prev,
                                        size_t *alter_count, pm_cdc_relmap *map, paimon_error *err);

#endif /* PM_CDC_PG_SCHEMA_H */
