/*
 * paimon cdc postgres --dsn DSN --table SCHEMA.NAME --into TABLE [--create] [--slot NAME]
 *                     [--publication NAME] [--commit-interval DURATION] [--commit-rows N]
 *                     [--option k=v]... [--idle-exit DURATION]
 *
 * Keeps a Paimon table in step with a PostgreSQL table through logical replication:
 * argument checks here, the work in libpaimon_cdc (include/paimon_cdc.h, docs/CDC.md).
 * SIGINT and SIGTERM commit what is complete and stop (exit 0).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "paimon_cdc.h"

static const char USAGE[] =
    "usage: paimon cdc postgres --dsn DSN --table SCHEMA.NAME --into TABLE [--create]\n"
    "                           [--slot NAME] [--publication NAME]\n"
    "                           [--commit-interval DURATION] [--commit-rows N]\n"
    "                           [--option key=value]... [--idle-exit DURATION]\n"
    "\n"
    "Copies a PostgreSQL table into a Paimon table under the snapshot of a new logical\n"
    "replication slot (pgoutput), then applies the slot's changes as they come: inserts as\n"
    "+I, updates as -U/+U (a changed primary key as -D and +I), deletes as -D, a TRUNCATE\n"
    "as an overwrite.  Commits are made at transaction boundaries every --commit-interval\n"
    "(default 1s) or --commit-rows rows; each records the last LSN in the snapshot's\n"
    "properties, so a restarted run goes on exactly where the table stopped.\n"
    "  --dsn          libpq connection string or URI (host=... dbname=... user=...)\n"
    "  --table        the source table (no schema: public)\n"
    "  --into         the Paimon table root\n"
    "  --create       create the Paimon table from the source's columns and primary key\n"
    "                 when it does not exist (--option sets its options: bucket, ...)\n"
    "  --slot         the replication slot (default paimon_<schema>_<table>)\n"
    "  --publication  the publication (default: the slot's name; created when missing)\n"
    "  --idle-exit    stop after this long with nothing to apply (e.g. 5s)\n"
    "The server needs wal_level = logical; the user needs the REPLICATION attribute.\n"
    "docs/CDC.md has the type mapping and the details.\n";

static const cli_option OPTIONS[] = {
    {"dsn", true, false},
    {"table", true, false},
    {"into", true, false},
    {"create", false, false},
    {"slot", true, false},
    {"publication", true, false},
    {"commit-interval", true, false},
    {"commit-rows", true, false},
    {"option", true, true},
    {"idle-exit", true, false},
    {NULL, false, false},
};

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

int cli_cmd_cdc(int argc, char **argv)
{
    paimon_cdc_postgres_options o = PAIMON_CDC_POSTGRES_OPTIONS_INIT;
    paimon_cdc_stats st;
    paimon_error err;
    cli_args a;
    cli_option_values opts;
    struct sigaction sa;
    const char *v;
    int rc;
    if ((rc = cli_parse("cdc", argc, argv, OPTIONS, &a)) != 0)
        return rc;
    if (a.help) {
        fputs(USAGE, stdout);
        return CLI_EXIT_OK;
    }
    if (a.positional_count != 1 || strcmp(a.positional[0], "postgres") != 0)
        return cli_usage_error("cdc", "the source must be 'postgres' (paimon cdc postgres ...)");
    o.dsn = cli_get(&a, "dsn");
    o.table = cli_get(&a, "table");
    o.into = cli_get(&a, "into");
    if (o.dsn == NULL || o.table == NULL || o.into == NULL)
        return cli_usage_error("cdc", "--dsn, --table and --into are required");
    o.create = cli_has(&a, "create");
    o.slot = cli_get(&a, "slot");
    o.publication = cli_get(&a, "publication");
    if ((v = cli_get(&a, "commit-interval")) != NULL &&
        (o.commit_interval_ms = cli_duration_ms(v)) < 0)
        return cli_usage_error("cdc", "--commit-interval must be a duration such as 1s, not '%s'",
                               v);
    if ((v = cli_get(&a, "idle-exit")) != NULL && (o.idle_exit_ms = cli_duration_ms(v)) < 0)
        return cli_usage_error("cdc", "--idle-exit must be a duration such as 5s, not '%s'", v);
    if ((v = cli_get(&a, "commit-rows")) != NULL) {
        char *end;
        errno = 0;
        o.commit_rows = strtoll(v, &end, 10);
        if (errno != 0 || *end != '\0' || o.commit_rows <= 0)
            return cli_usage_error("cdc", "--commit-rows must be a positive integer, not '%s'", v);
    }
    if ((rc = cli_option_values_parse("cdc", &a, &opts)) != 0)
        return rc;
    if (opts.count > 0 && !o.create) {
        cli_option_values_free(&opts);
        return cli_usage_error("cdc", "--option sets the options of a table --create makes");
    }
    o.option_keys = opts.keys;
    o.option_values = opts.values;
    o.option_count = opts.count;
    o.stop = &stop_requested;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop_signal; /* no SA_RESTART: a wait on the server ends at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    memset(&st, 0, sizeof(st));
    rc = paimon_cdc_postgres_run(&o, &st, &err);
    cli_option_values_free(&opts);
    if (rc != 0)
        return cli_fail(&err, false);
    if (isatty(STDERR_FILENO))
        fprintf(stderr,
                "paimon: cdc: %lld rows copied, %lld transactions (%lld rows) applied in %lld "
                "commits\n",
                (long long)st.copied_rows, (long long)st.transactions, (long long)st.changes,
                (long long)st.commits);
    return CLI_EXIT_OK;
}
