/*
 * paimon rollback TABLE --to N | --to-tag NAME
 *
 * Rolls the table back as Java 1.4.2's rollback_to does (include/paimon/maintenance.h):
 * later snapshots, long-lived changelogs and tags go; data files stay (remove-orphans).
 */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

static const char USAGE[] =
    "usage: paimon rollback TABLE --to N | --to-tag NAME\n"
    "\n"
    "Makes snapshot N (or the snapshot of tag NAME) the latest again: later snapshots,\n"
    "long-lived changelogs and tags of later snapshots are deleted.  A tag whose snapshot\n"
    "has expired becomes the earliest snapshot again.  Data files of the removed snapshots\n"
    "are left for paimon remove-orphans.\n";

static const cli_option OPTIONS[] = {
    {"to", true, false},
    {"to-tag", true, false},
    {NULL, false, false},
};

int cli_cmd_rollback(int argc, char **argv)
{
    cli_args a;
    paimon_table *t = NULL;
    paimon_error err = {0, {0}};
    const char *to = NULL, *tag = NULL;
    long long id = 0;
    int rc = cli_parse_table_command("rollback", USAGE, argc, argv, OPTIONS, 1, &a);

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    to = cli_get(&a, "to");
    tag = cli_get(&a, "to-tag");
    if ((to == NULL) == (tag == NULL))
        return cli_usage_error("rollback", "give one of --to N and --to-tag NAME");
    if (to != NULL) {
        if (cli_parse_i64("rollback", "to", to, &id) != 0)
            return CLI_EXIT_USAGE;
        if (id < 1)
            return cli_usage_error("rollback", "--to must be a positive snapshot id");
    }
    if (paimon_table_open(&t, a.positional[0], &err) != 0)
        return cli_fail(&err, false);
    rc = paimon_table_rollback(t, id, tag, &err);
    if (rc == 0) {
        if (tag != NULL)
            printf("rolled back to tag %s\n", tag);
        else
            printf("rolled back to snapshot %lld\n", id);
    } else {
        rc = cli_fail(&err, false);
    }
    paimon_table_free(t);
    return cli_flush_output("rollback", rc);
}
