/*
 * One run of `paimon cdc postgres` (include/paimon_cdc.h): its state, shared by pg_run.c
 * (start-up, initial copy, the stream loop) and pg_apply.c (changes into the writer,
 * commits).
 *
 * Positions (LSNs), and the invariants that make the run exactly-once:
 *   table_lsn    the end LSN of the last transaction the Paimon table holds: read back
 *                from the latest snapshot of the slot's commit user at start
 *                (properties cdc.postgres.lsn), then set by each commit.
 *   pending_lsn  the end LSN of the last complete transaction in the writer, not committed.
 *   flushed_lsn  what PostgreSQL was told is flushed: never more than table_lsn while
 *                anything is pending, so the slot keeps every change the table lacks.
 *   A transaction whose end LSN is <= table_lsn is skipped: it is in the table already.
 */
#ifndef PM_CDC_PG_RUN_H
#define PM_CDC_PG_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "cdc_util.h"
#include "paimon_cdc.h"
#include "pg_conn.h"
#include "pg_schema.h"
#include "pgoutput.h"

#define PM_CDC_PROP_LSN  "cdc.postgres.lsn"
#define PM_CDC_PROP_SLOT "cdc.postgres.slot"

#define PM_CDC_IGNORE(x) ((void)!(x))

typedef struct pm_cdc_run {
    const paimon_cdc_postgres_options *o;
    paimon_cdc_stats st;
    char slot[64];         /* the replication slot */
    char publication[64];  /* the publication */
    char user[96];         /* the commit user: "paimon-cdc-" + slot */
    PGconn *sql;           /* catalog and COPY */
    PGconn *repl;          /* replication=database */
    bool streaming;        /* START_REPLICATION is under way */
    uint32_t src_oid;      /* the source table */
    pm_cdc_schema schema;  /* the Paimon table's latest schema */
    pm_cdc_relmap map;     /* the source relation's columns in it */
    paimon_table *table;   /* opened on the latest schema */
    paimon_writer *writer; /* rows since the last commit */
    bool overwrite;        /* the writer's rows replace the table (after a TRUNCATE) */
    uint64_t table_lsn, pending_lsn, flushed_lsn;
    uint64_t received_lsn;  /* the end of the last XLogData received */
    uint64_t server_lsn;    /* the server's position in its last keepalive */
    int64_t pending_txns;   /* complete transactions in the writer */
    int64_t pending_rows;   /* their rows */
    int64_t last_commit_ms; /* pm_cdc_now_ms() of the last commit */
    int64_t last_status_ms; /* of the last standby status update */
    int64_t last_change_ms; /* of the last transaction with something to apply */
    pm_pgo_decoder dec;     /* storage of decoded messages */
    pm_cdc_buf txn;         /* the open transaction's messages: u32 length + bytes each */
    bool in_txn;            /* between Begin and Commit */
    paimon_value *vals;     /* one row, schema.count values */
    size_t vals_cap;
    pm_cdc_buf scratch; /* decoded bytea values of the row */
} pm_cdc_run;

/* (Re)opens the table and a writer on its latest schema: rows to append, or with
 * `overwrite` rows that replace the table.  Uncommitted rows of the old writer are dropped. */
PM_MUST_CHECK int pm_cdc_open_writer(pm_cdc_run *r, bool overwrite, paimon_error *err);

/* Commits the complete transactions in the writer (nothing to do when there are none) and
 * reports the new position to PostgreSQL. */
PM_MUST_CHECK int pm_cdc_commit(pm_cdc_run *r, paimon_error *err);

/* Applies the buffered transaction r->txn, which ended at `end_lsn`, to the writer.  With
 * `skip` (the table has it already) only its Relation messages are followed: they describe
 * the rows of the transactions after it. */
PM_MUST_CHECK int pm_cdc_apply_txn(pm_cdc_run *r, uint64_t end_lsn, bool skip, paimon_error *err);

/* The first Relation after the start, whose map came from the catalog (which may be newer
 * than the stream): a Paimon column `rel` lacks is one added later when the catalog has it,
 * and one dropped (an error, PAIMON_EUNSUPPORTED) when the catalog has it no more. */
PM_MUST_CHECK int pm_cdc_check_live(pm_cdc_run *r, const pm_pgo_msg *rel, paimon_error *err);

/* Sends the standby status update: received, and flushed = what the table holds. */
PM_MUST_CHECK int pm_cdc_send_status(pm_cdc_run *r, bool reply, paimon_error *err);

#endif /* PM_CDC_PG_RUN_H */
