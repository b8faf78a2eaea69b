/*
 * paimon remove-orphans TABLE [--older-than DURATION] [--dry-run]
 *
 * Deletes the files no snapshot, tag or long-lived changelog references, last modified
 * more than DURATION ago (default 1 d), as Java's remove_orphan_files does
 * (include/paimon/maintenance.h).  Each file deleted (or, with --dry-run, that would be) is
 * printed with its size, then the count.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "progress.h"

static const char USAGE[] =
    "usage: paimon remove-orphans TABLE [--older-than DURATION] [--dry-run]\n"
    "\n"
    "Deletes the table's files that no snapshot, tag or long-lived changelog references:\n"
    "what killed writers, failed commits, rollbacks and expirations left behind.\n"
    "--older-than  only files last modified longer ago than this (default 1 d: a commit in\n"
    "              progress writes its files before its snapshot)\n"
    "--dry-run     print what would be deleted, delete nothing\n"
    "It aborts, deleting nothing, when a snapshot, tag or manifest cannot be read.\n";

static const cli_option OPTIONS[] = {
    {"older-than", true, false},
    {"dry-run", false, false},
    {NULL, false, false},
};

static void print_file(void *ctx, const char *path, uint64_t size)
{
    printf("%s%s (%" PRIu64 " bytes)\n", (const char *)ctx, path, size);
    cli_progress_add(0, 1, (int64_t)size);
}

int cli_cmd_remove_orphans(int argc, char **argv)
{
    cli_args a;
    paimon_table *t = NULL;
    paimon_error err = {0, {0}};
    paimon_orphan_options o = PAIMON_ORPHAN_OPTIONS_INIT;
    uint64_t count = 0, bytes = 0;
    int rc = cli_parse_table_command("remove-orphans", USAGE, argc, argv, OPTIONS, 1, &a);

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    o.older_than = cli_get(&a, "older-than");
    o.dry_run = cli_has(&a, "dry-run");
    o.on_file = print_file;
    o.ctx = o.dry_run ? "would delete " : "deleted ";
    if (paimon_table_open(&t, a.positional[0], &err) != 0)
        return cli_fail(&err, false);
    cli_progress_start("remove-orphans", CLI_PROGRESS_OUTPUT);
    rc = paimon_table_remove_orphans(t, &o, &count, &bytes, &err);
    cli_progress_end();
    if (rc == 0 || count > 0)
        printf("%s %" PRIu64 " orphan file%s (%" PRIu64 " bytes)\n",
               o.dry_run ? "found" : "deleted", count, count == 1 ? "" : "s", bytes);
    if (rc != 0)
        rc = cli_fail(&err, true); /* a duration that does not parse: bad usage */
    paimon_table_free(t);
    return cli_flush_output("remove-orphans", rc);
}
