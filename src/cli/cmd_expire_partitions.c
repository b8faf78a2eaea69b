/*
 * paimon expire-partitions TABLE [--older-than DURATION] [--dry-run] [--option k=v]...
 *
 * Drops the partitions older than the expiration time (behaviour.md §8.6) through
 * include/paimon/partition_expire.h, as Java's `expire_partitions` procedure: the table's
 * partition.expiration-time unless --older-than gives one, the table's strategy, formatter
 * and pattern unless --option overrides them for this run.  Prints each partition dropped
 * (with --dry-run: that would be dropped) as "k=v, k2=v2", one a line, in the order dropped.
 */
#include <stdio.h>

#include "cli.h"
#include "commands.h"

static const char USAGE[] =
    "usage: paimon expire-partitions TABLE [--older-than DURATION] [--dry-run]\n"
    "                                [--option key=value]...\n"
    "\n"
    "Drops every partition older than DURATION (default: the table's\n"
    "partition.expiration-time), each batch as one OVERWRITE snapshot that deletes all the\n"
    "partition's files.  A partition's age comes from partition.expiration-strategy:\n"
    "values-time (default; the time its values name, read with partition.timestamp-pattern\n"
    "and partition.timestamp-formatter) or update-time (its newest file).  At most\n"
    "partition.expiration-max-num (100) partitions go per run.\n"
    "DURATION: a number and a unit (ms, s, min, h, d), e.g. '7 d' or 12h.\n"
    "--dry-run  print what would be dropped, drop nothing\n"
    "--option   a table option for this run only (e.g. "
    "partition.expiration-strategy=update-time)\n";

static const cli_option OPTIONS[] = {
    {"older-than", true, false},
    {"dry-run", false, false},
    {"option", true, true},
    {NULL, false, false},
};

int cli_cmd_expire_partitions(int argc, char **argv)
{
    cli_args a;
    paimon_table *t = NULL;
    paimon_error err = {0, {0}};
    paimon_expire_partitions_options o = PAIMON_EXPIRE_PARTITIONS_OPTIONS_INIT;
    paimon_expired_partitions *r = NULL;
    cli_option_values kv;
    int rc = cli_parse_table_command("expire-partitions", USAGE, argc, argv, OPTIONS, 1, &a);

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if ((rc = cli_option_values_parse("expire-partitions", &a, &kv)) != CLI_EXIT_OK)
        return rc;
    o.older_than = cli_get(&a, "older-than");
    o.dry_run = cli_has(&a, "dry-run");
    o.option_keys = kv.keys;
    o.option_values = kv.values;
    o.option_count = kv.count;
    if ((rc = paimon_table_open(&t, a.positional[0], &err)) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    /* A duration or option value that does not parse is the user's bad argument. */
    if ((rc = paimon_table_expire_partitions(t, &o, &r, &err)) != 0) {
        rc = cli_fail(&err, true);
        goto done;
    }
    for (size_t i = 0; i < r->count; i++)
        printf("%s\n", r->partitions[i]);
    rc = CLI_EXIT_OK;
done:
    rc = cli_flush_output("expire-partitions", rc);
    paimon_expired_partitions_free(r);
    paimon_table_free(t);
    cli_option_values_free(&kv);
    return rc;
}
