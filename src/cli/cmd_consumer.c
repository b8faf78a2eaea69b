/*
 * paimon consumer TABLE list | reset ID --to N | delete ID
 *
 * A table's consumers (behaviour.md §7.5) through include/paimon/consumer.h: `list` prints
 * each consumer's id and the snapshot it reads next (also `paimon inspect TABLE consumers`,
 * cli_consumers_print), `reset` moves one to snapshot N (which must exist), `delete` removes
 * one.  An unknown consumer or snapshot is an error naming it (exit 1); a malformed command
 * is bad usage (exit 2).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char USAGE[] =
    "usage: paimon consumer TABLE list [--format table|jsonl]\n"
    "       paimon consumer TABLE reset ID --to N\n"
    "       paimon consumer TABLE delete ID\n"
    "\n"
    "A consumer is the position a streaming reader (`paimon tail --consumer ID`) keeps in\n"
    "consumer/consumer-ID: the snapshot it reads next.  Snapshot expiration keeps every\n"
    "snapshot from the smallest position on.\n"
    "  list    every consumer and the snapshot it reads next\n"
    "  reset   make consumer ID read snapshot N next (N must exist)\n"
    "  delete  remove consumer ID (its snapshots are then no longer kept for it)\n";

static const cli_option OPTIONS[] = {
    {"to", true, false},
    {"format", true, false},
    {NULL, false, false},
};

int cli_consumers_print(paimon_table *t, bool jsonl, paimon_error *err)
{
    paimon_consumer_info *cs = NULL;
    size_t n = 0;
    int rc = paimon_table_consumers(t, &cs, &n, err);
    if (rc != 0)
        return rc;
    if (jsonl) {
        for (size_t i = 0; i < n; i++) {
            fputs("{\"consumer_id\":", stdout);
            cli_json_string(stdout, cs[i].id);
            printf(",\"next_snapshot_id\":%" PRId64 "}\n", cs[i].next_snapshot);
        }
    } else {
        cli_table *tab = cli_table_new(2);
        cli_table_add(tab, (const char *[]){"consumer_id", "next_snapshot_id"});
        for (size_t i = 0; i < n; i++) {
            char next[32];
            snprintf(next, sizeof(next), "%" PRId64, cs[i].next_snapshot);
            cli_table_add(tab, (const char *[]){cs[i].id, next});
        }
        cli_table_print(tab, stdout);
        cli_table_free(tab);
    }
    paimon_consumers_free(cs, n);
    return 0;
}

int cli_cmd_consumer(int argc, char **argv)
{
    cli_args a;
    paimon_table *t = NULL;
    paimon_error err = {0, {0}};
    const char *action, *format;
    long long to = 0;
    bool jsonl = false;
    int rc = cli_parse_table_command("consumer", USAGE, argc, argv, OPTIONS, 3, &a);

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (a.positional_count < 2)
        return cli_usage_error("consumer", "missing action: list, reset or delete");
    action = a.positional[1];
    format = cli_get(&a, "format");
    if (strcmp(action, "list") == 0) {
        if (a.positional_count != 2 || cli_get(&a, "to") != NULL)
            return cli_usage_error("consumer", "list takes no consumer id and no --to");
        if (format != NULL && strcmp(format, "jsonl") == 0)
            jsonl = true;
        else if (format != NULL && strcmp(format, "table") != 0)
            return cli_usage_error("consumer", "--format must be table or jsonl, not '%s'", format);
    } else if (strcmp(action, "reset") == 0) {
        if (a.positional_count != 3)
            return cli_usage_error("consumer", "reset needs a consumer id: reset ID --to N");
        if (cli_get(&a, "to") == NULL)
            return cli_usage_error("consumer", "reset needs --to N");
        if (cli_parse_i64("consumer", "to", cli_get(&a, "to"), &to) != 0)
            return CLI_EXIT_USAGE;
        if (to < 1)
            return cli_usage_error("consumer", "--to must be a positive snapshot id");
    } else if (strcmp(action, "delete") == 0) {
        if (a.positional_count != 3)
            return cli_usage_error("consumer", "delete needs a consumer id: delete ID");
        if (cli_get(&a, "to") != NULL)
            return cli_usage_error("consumer", "delete takes no --to");
    } else
        return cli_usage_error("consumer", "unknown action '%s' (list, reset or delete)", action);
    if (strcmp(action, "list") != 0 && format != NULL)
        return cli_usage_error("consumer", "--format applies to list only");

    if ((rc = paimon_table_open(&t, a.positional[0], &err)) != 0)
        return cli_fail(&err, false);
    if (strcmp(action, "list") == 0)
        rc = cli_consumers_print(t, jsonl, &err);
    else if (strcmp(action, "reset") == 0)
        rc = paimon_consumer_reset(t, a.positional[2], to, &err);
    else
        rc = paimon_consumer_delete(t, a.positional[2], &err);
    paimon_table_free(t);
    /* A consumer id that is not a plain name is the user's bad argument. */
    return cli_flush_output("consumer", rc != 0 ? cli_fail(&err, true) : CLI_EXIT_OK);
}
