/*
 * paimon compact TABLE [--full] [--partition k=v[,k=v..]] [--threads N]
 *
 * The dedicated compaction job (DESIGN.md): every bucket of the table (or of the partitions
 * named) is compacted as Java's universal strategy picks, or wholly into the highest level
 * with --full, and the result committed as one COMPACT snapshot.  Nothing to compact: no
 * snapshot, and the command says so.  --threads N compacts N buckets at once
 * (paimon_compact_options.threads); the snapshot is the same for any N.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "progress.h"
#include "paimon/write.h"

static const char USAGE[] =
    "usage: paimon compact TABLE [--full] [--partition k=v[,k=v..]] [--threads N]\n"
    "\n"
    "Compacts the buckets of a primary-key table and commits one COMPACT snapshot.\n"
    "--full       merges every bucket's files into the highest level (else: what universal\n"
    "             compaction picks, as Java's writers would)\n"
    "--partition  only the partitions matching every k=v (repeatable); v is written as in\n"
    "             rows (dt=2026-04-19), __DEFAULT_PARTITION__ for null\n"
    "--threads    buckets compacted at once (default: the processors online); the\n"
    "             snapshot holds the same files and rows for any N\n"
    "Nothing to compact: no snapshot is made.\n";

static const cli_option OPTIONS[] = {
    {"full", false, false},
    {"partition", true, true},
    {"threads", true, false},
    {NULL, false, false},
};

int cli_cmd_compact(int argc, char **argv)
{
    cli_args a;
    const char *values[CLI_MAX_VALUES], *items[256];
    char *copies[CLI_MAX_VALUES];
    size_t nvalues, nitems = 0, ncopies = 0;
    paimon_table *table = NULL;
    paimon_compact_options o = PAIMON_COMPACT_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    paimon_error maintain_err = {0, {0}};
    int64_t id = 0;
    int rc = cli_parse_table_command("compact", USAGE, argc, argv, OPTIONS, 1, &a),
        exit_code = CLI_EXIT_FAILED;

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    nvalues = cli_get_all(&a, "partition", values, CLI_MAX_VALUES);
    for (size_t v = 0; v < nvalues; v++) {
        char *copy = cli_strdup(values[v]);
        copies[ncopies++] = copy;
        for (char *p = copy; p != NULL && nitems < sizeof(items) / sizeof(items[0]);) {
            char *comma = strchr(p, ',');
            if (comma != NULL)
                *comma = '\0';
            if (strchr(p, '=') == NULL || p[0] == '=') {
                exit_code = cli_usage_error("compact", "--partition: '%s' is not k=v", p);
                goto done;
            }
            items[nitems++] = p;
            p = comma != NULL ? comma + 1 : NULL;
        }
    }
    if (cli_get(&a, "threads") != NULL &&
        (exit_code = cli_parse_threads("compact", cli_get(&a, "threads"), &o.threads)) !=
            CLI_EXIT_OK)
        goto done;
    exit_code = CLI_EXIT_FAILED;
    o.full = cli_has(&a, "full");
    o.partition = nitems > 0 ? items : NULL;
    o.partition_count = nitems;
    o.maintain_err = &maintain_err;
    if (paimon_table_open(&table, a.positional[0], &err) != 0) {
        exit_code = cli_fail(&err, false);
        goto done;
    }
    if (paimon_table_check_partition(table, o.partition, o.partition_count, &err) != 0) {
        exit_code = cli_fail(&err, true); /* a value that does not parse: bad usage */
        goto done;
    }
    cli_progress_start("compact", CLI_PROGRESS_WRITTEN);
    if (paimon_table_compact(table, &o, &id, &err) != 0) {
        exit_code = cli_fail(&err, false);
        goto done;
    }
    cli_progress_end();
    if (id == 0)
        printf("nothing to compact\n");
    else
        printf("committed snapshot %lld (COMPACT)\n", (long long)id);
    if (maintain_err.code != 0)
        fprintf(stderr, "paimon: %s (the compaction is committed, in snapshot %lld)\n",
                maintain_err.message, (long long)id);
    exit_code = CLI_EXIT_OK;
done:
    for (size_t i = 0; i < ncopies; i++)
        free(copies[i]);
    paimon_table_free(table);
    return exit_code;
}
