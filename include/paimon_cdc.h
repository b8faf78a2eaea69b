/*
 * paimon-c CDC sources (libpaimon_cdc): keep a Paimon table in step with a database.
 *
 * paimon_cdc_postgres_run() is `paimon cdc postgres` (docs/CDC.md): it copies a PostgreSQL
 * table into a Paimon table under the exported snapshot of a new logical replication slot
 * (pgoutput), then applies the slot's stream, committing at transaction boundaries every
 * commit interval or so many rows.  Each commit records the last applied LSN and the slot
 * in the snapshot's properties, under a commit user fixed per slot, and only then reports
 * that LSN to PostgreSQL as flushed: after a crash the run reads the LSN back from the table
 * and skips what is committed, so every change is applied exactly once.
 *
 * The library is a client of the public API (include/paimon.h) and of libpq; it is a
 * separate library so that libpaimon does not depend on libpq.
 *
 * Thread safety: one run per options struct; runs of different slots may go on at once.
 */
#ifndef PAIMON_CDC_H
#define PAIMON_CDC_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to replicate and how.  Version the struct with PAIMON_CDC_POSTGRES_OPTIONS_INIT. */
typedef struct paimon_cdc_postgres_options {
    unsigned int version;           /* PAIMON_CDC_POSTGRES_OPTIONS_VERSION */
    const char *dsn;                /* libpq connection string or URI (required) */
    const char *table;              /* SCHEMA.NAME of the source table (required) */
    const char *into;               /* the Paimon table root (required) */
    int create;                     /* create the Paimon table from the source's when missing */
    const char *slot;               /* NULL: paimon_<schema>_<name> */
    const char *publication;        /* NULL: the slot's name; created FOR TABLE when missing */
    int64_t commit_interval_ms;     /* commit complete transactions this often (1000) */
    int64_t commit_rows;            /* ... or after this many rows (0: no limit) */
    const char *const *option_keys; /* table options for --create (bucket, ...) */
    const char *const *option_values;
    size_t option_count;
    int64_t idle_exit_ms;        /* < 0: run until stopped; else stop after this long
                                          with nothing to apply */
    volatile sig_atomic_t *stop; /* may be NULL: set nonzero (a signal handler) to
                                          commit what is complete and return 0 */
} paimon_cdc_postgres_options;

#define PAIMON_CDC_POSTGRES_OPTIONS_VERSION 1
#define PAIMON_CDC_POSTGRES_OPTIONS_INIT                                                           \
    {                                                                                              \
        PAIMON_CDC_POSTGRES_OPTIONS_VERSION, NULL, NULL, NULL, 0, NULL, NULL, 1000, 0, NULL, NULL, \
            0, -1, NULL                                                                            \
    }

/* What a run did. */
typedef struct paimon_cdc_stats {
    int64_t copied_rows;  /* rows of the initial copy */
    int64_t changes;      /* rows written from the stream (an update counts its -U and +U) */
    int64_t transactions; /* source transactions applied */
    int64_t commits;      /* Paimon commits made */
    uint64_t lsn;         /* the last LSN the table holds */
} paimon_cdc_stats;

/* Runs the replication until *options->stop, the idle time-out or an error.  0 after a
 * clean stop (everything complete committed); else a PAIMON_E* code, the message one line
 * naming the cause and the remedy, and nothing of the failed run's uncommitted
 * transactions in the table (they are streamed again by the next run).  `stats` may be
 * NULL. */
int paimon_cdc_postgres_run(const paimon_cdc_postgres_options *options, paimon_cdc_stats *stats,
                            paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_CDC_H */
