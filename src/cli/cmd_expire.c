/*
 * paimon expire TABLE [--retain-min N] [--retain-max N] [--older-than DURATION]
 *                     [--max-deletes N] [--dry-run]
 *
 * Expires old snapshots now (Java's expire_snapshots procedure; behaviour.md §8.1) through
 * paimon_table_expire: the table's snapshot.num-retained.*, snapshot.time-retained and
 * snapshot.expire.limit, each replaceable for this run.  --older-than DURATION lets
 * snapshots committed before now - DURATION go (Java's procedure takes that instant as a
 * timestamp).  Prints what it removed, or with --dry-run what it would remove.
 */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "progress.h"
#include "paimon/expire.h"

static const char USAGE[] =
    "usage: paimon expire TABLE [--retain-min N] [--retain-max N] [--older-than DURATION]\n"
    "                     [--max-deletes N] [--dry-run]\n"
    "\n"
    "Expires old snapshots and removes the files only they use, as every commit does with\n"
    "the table's options; the values given replace the table's for this run.\n"
    "--retain-min   keep at least N snapshots (snapshot.num-retained.min)\n"
    "--retain-max   keep at most N snapshots (snapshot.num-retained.max)\n"
    "--older-than   snapshots committed before now - DURATION may go (\"1 h\", \"2 d\";\n"
    "               snapshot.time-retained)\n"
    "--max-deletes  expire at most N snapshots in this run (snapshot.expire.limit)\n"
    "--dry-run      print what would be removed, remove nothing\n"
    "Snapshots a consumer has not read, and the files of tags, always stay.\n";

static const cli_option OPTIONS[] = {
    {"retain-min", true, false},  {"retain-max", true, false}, {"older-than", true, false},
    {"max-deletes", true, false}, {"dry-run", false, false},   {NULL, false, false},
};

/* A count option: absent leaves *out at 0, else it must be an integer >= 1. */
static int positive(const cli_args *a, const char *name, int64_t *out)
{
    const char *text = cli_get(a, name);
    long long v = 0;
    int rc;
    if (text == NULL)
        return CLI_EXIT_OK;
    if ((rc = cli_parse_i64("expire", name, text, &v)) != CLI_EXIT_OK)
        return rc;
    if (v < 1)
        return cli_usage_error("expire", "--%s: %lld: must be at least 1", name, v);
    *out = v;
    return CLI_EXIT_OK;
}

int cli_cmd_expire(int argc, char **argv)
{
    cli_args a;
    paimon_table *table = NULL;
    paimon_expire_options o = PAIMON_EXPIRE_OPTIONS_INIT;
    paimon_expire_result r = PAIMON_EXPIRE_RESULT_INIT;
    paimon_error err = {0, {0}};
    int rc = cli_parse_table_command("expire", USAGE, argc, argv, OPTIONS, 1, &a);
    bool dry;

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if ((rc = positive(&a, "retain-min", &o.retain_min)) != CLI_EXIT_OK ||
        (rc = positive(&a, "retain-max", &o.retain_max)) != CLI_EXIT_OK ||
        (rc = positive(&a, "max-deletes", &o.max_deletes)) != CLI_EXIT_OK)
        return rc;
    if (o.retain_min > 0 && o.retain_max > 0 && o.retain_max < o.retain_min)
        return cli_usage_error("expire",
                               "--retain-max (%lld) must not be less than --retain-min "
                               "(%lld)",
                               (long long)o.retain_max, (long long)o.retain_min);
    o.older_than = cli_get(&a, "older-than");
    dry = cli_has(&a, "dry-run");
    o.dry_run = dry;
    if (paimon_table_open(&table, a.positional[0], &err) != 0)
        return cli_fail(&err, false);
    cli_progress_start("expire", CLI_PROGRESS_REMOVED);
    if (paimon_table_expire(table, &o, &r, &err) != 0) {
        /* PAIMON_EINVALID: a duration that does not parse, retain-max below the table's
         * retain-min: the user's arguments */
        rc = cli_fail(&err, true);
        paimon_table_free(table);
        return rc;
    }
    cli_progress_end();
    paimon_table_free(table);
    if (r.snapshots == 0 && r.changelogs == 0 && r.files == 0) {
        printf("nothing to expire%s\n", dry ? " (dry run)" : "");
    } else {
        printf("%s %lld snapshots", dry ? "would expire" : "expired", (long long)r.snapshots);
        if (r.snapshots > 0)
            printf(" (%lld to %lld)", (long long)r.first, (long long)r.end - 1);
        printf(" and %lld changelogs, %s %lld files%s\n", (long long)r.changelogs,
               dry ? "removing" : "removed", (long long)r.files,
               dry ? " (dry run: nothing removed)" : "");
    }
    return cli_flush_output("expire", CLI_EXIT_OK);
}
