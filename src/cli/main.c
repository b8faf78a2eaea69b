/*
 * `paimon`: the command-line tool.  Dispatches to one file per subcommand (commands.h);
 * the command-line contract is DESIGN.md's.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

/* Adding a subcommand: a cmd_<name>.c file, its declaration in commands.h, a line here. */
static const command COMMANDS[] = {
    {"create", cli_cmd_create, "create a table"},
    {"alter", cli_cmd_alter, "change a table's columns or options"},
    {"write", cli_cmd_write, "write rows (JSONL, CSV, Debezium JSON) into a table and commit"},
    {"compact", cli_cmd_compact,
     "compact the buckets of a table that need it, or all with --full (COMPACT snapshot)"},
    {"cat", cli_cmd_cat, "print the rows of a table (a snapshot, filtered, projected)"},
    {"inspect", cli_cmd_inspect, "list a table's snapshots, schemas, manifests, files, options"},
    {"tail", cli_cmd_tail, "print the changes (row kinds) of a range of snapshots"},
    {"expire", cli_cmd_expire, "expire old snapshots and remove the files only they use"},
    {"demo", cli_cmd_demo, "create a demo warehouse and show what the tool does"},
    {"file", cli_cmd_file, "print the rows or the layout of one data file"},
    {"tag", cli_cmd_tag, "create, delete, rename or list the tags of a table"},
    {"rollback", cli_cmd_rollback, "roll a table back to a snapshot or a tag"},
    {"remove-orphans", cli_cmd_remove_orphans,
     "delete files no snapshot or tag references (killed writers' leftovers, rollbacks)"},
    {"consumer", cli_cmd_consumer, "list, reset or delete a table's consumers"},
    {"expire-partitions", cli_cmd_expire_partitions,
     "drop partitions older than the expiration time"},
    {"sql", cli_cmd_sql, "run SQL over the tables of a warehouse (SQLite; docs/SQL.md)"},
    {"cdc", cli_cmd_cdc, "keep a table in step with a PostgreSQL table (logical replication)"},
    {NULL, NULL, NULL},
};

static void usage(FILE *out)
{
    int width = 10; /* the longest command name sets the column */
    fprintf(out, "paimon %s: Apache Paimon tables from the shell (format %s)\n\n", paimon_version(),
            paimon_format_version());
    fprintf(out, "usage: paimon COMMAND [ARGS...]   (paimon COMMAND --help for details)\n\n");
    for (size_t i = 0; COMMANDS[i].name != NULL; i++)
        if ((int)strlen(COMMANDS[i].name) > width)
            width = (int)strlen(COMMANDS[i].name);
    for (size_t i = 0; COMMANDS[i].name != NULL; i++)
        fprintf(out, "  %-*s %s\n", width, COMMANDS[i].name, COMMANDS[i].summary);
}

int main(int argc, char **argv)
{
    /* the heap settings of paimon/heap.h: a scan or compaction faults its buffers in 2 MiB
     * pages rather than 4 KiB ones (docs/PERFORMANCE.md, "Huge pages for the paimon
     * command") */
    (void)paimon_tune_process_heap();
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("paimon %s (Paimon format %s)\n", paimon_version(), paimon_format_version());
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; COMMANDS[i].name != NULL; i++)
        if (strcmp(argv[1], COMMANDS[i].name) == 0)
            return COMMANDS[i].run(argc - 2, argv + 2);
    cli_error("unknown command '%s' (see paimon --help)", argv[1]);
    return CLI_EXIT_USAGE;
}
