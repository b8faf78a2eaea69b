/*
 * paimon tag TABLE create NAME [--snapshot N] [--time-retained DURATION]
 *                | delete NAME | rename OLD NEW | list [--format table|jsonl]
 *
 * Tags as Java 1.4.2 keeps them (include/paimon/maintenance.h).  `list` prints what the
 * $tags system table holds; `paimon inspect TABLE tags` prints the same (cli_print_tags).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char USAGE[] =
    "usage: paimon tag TABLE create NAME [--snapshot N] [--time-retained DURATION]\n"
    "                      | delete NAME | rename OLD NEW | list [--format table|jsonl]\n"
    "\n"
    "Creates, deletes, renames and lists the tags of a table.  A tag pins a snapshot: it\n"
    "stays readable (paimon cat --tag NAME) after the snapshot expires.\n"
    "create           tags the latest snapshot, or --snapshot N; an existing name fails\n"
    "--time-retained  how long the tag lives (\"7 d\"); default tag.default-time-retained\n"
    "delete           removes the tag and the files only it kept\n"
    "rename           gives a tag a new, unused name\n"
    "list             name, snapshot, schema, commit time, rows, creation time, retention\n";

static const cli_option OPTIONS[] = {
    {"snapshot", true, false},
    {"time-retained", true, false},
    {"format", true, false},
    {NULL, false, false},
};

/* Java's LocalDateTime text of a local epoch-style millisecond value. */
static void local_time(char *buf, size_t len, int64_t local_ms)
{
    cli_format_millis(buf, len, local_ms);
}

int cli_print_tags(paimon_table *t, bool jsonl, paimon_error *err)
{
    paimon_list *l = NULL;
    cli_table *tab;
    int rc = paimon_table_tags(t, &l, err);
    if (rc != 0)
        return rc;
    if (jsonl) {
        for (size_t i = 0; i < paimon_list_count(l); i++) {
            const paimon_tag_info *x = paimon_list_tag(l, i);
            fputs("{\"tag_name\":", stdout);
            cli_json_string(stdout, x->name);
            printf(",\"snapshot_id\":%" PRId64 ",\"schema_id\":%" PRId64 ",\"commit_time\":%" PRId64
                   ",\"record_count\":",
                   x->snapshot_id, x->schema_id, x->commit_time);
            if (x->record_count == PAIMON_ABSENT_COUNT)
                fputs("null", stdout);
            else
                printf("%" PRId64, x->record_count);
            fputs(",\"create_time\":", stdout);
            if (x->has_create_time) {
                char when[40];
                local_time(when, sizeof(when), x->create_time);
                cli_json_string(stdout, when);
            } else {
                fputs("null", stdout);
            }
            fputs(",\"time_retained\":", stdout);
            cli_json_string(stdout, x->time_retained);
            fputs("}\n", stdout);
        }
        paimon_list_free(l);
        return 0;
    }
    tab = cli_table_new(7);
    cli_table_add(tab, (const char *[]){"tag", "snapshot", "schema", "committed (UTC)", "rows",
                                        "created (local)", "retained"});
    for (size_t i = 0; i < paimon_list_count(l); i++) {
        const paimon_tag_info *x = paimon_list_tag(l, i);
        char id[24], schema[24], when[40], rows[24], created[40];
        snprintf(id, sizeof(id), "%" PRId64, x->snapshot_id);
        snprintf(schema, sizeof(schema), "%" PRId64, x->schema_id);
        cli_format_millis(when, sizeof(when), x->commit_time);
        if (x->record_count == PAIMON_ABSENT_COUNT)
            snprintf(rows, sizeof(rows), "-");
        else
            snprintf(rows, sizeof(rows), "%" PRId64, x->record_count);
        if (x->has_create_time)
            local_time(created, sizeof(created), x->create_time);
        else
            snprintf(created, sizeof(created), "-");
        cli_table_add(tab, (const char *[]){x->name, id, schema, when, rows, created,
                                            x->time_retained != NULL ? x->time_retained : "-"});
    }
    cli_table_print(tab, stdout);
    cli_table_free(tab);
    paimon_list_free(l);
    return 0;
}

/* The positional arguments an action takes (after TABLE and the action). */
static int action_args(const char *action)
{
    if (strcmp(action, "create") == 0 || strcmp(action, "delete") == 0)
        return 1;
    if (strcmp(action, "rename") == 0)
        return 2;
    if (strcmp(action, "list") == 0)
        return 0;
    return -1;
}

int cli_cmd_tag(int argc, char **argv)
{
    cli_args a;
    paimon_table *t = NULL;
    paimon_error err = {0, {0}}, cleanup = {0, {0}};
    const char *action, *format;
    bool jsonl = false;
    int want, rc = cli_parse_table_command("tag", USAGE, argc, argv, OPTIONS, 4, &a);

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (a.positional_count < 2)
        return cli_usage_error("tag", "an action is required: create, delete, rename or list");
    action = a.positional[1];
    if ((want = action_args(action)) < 0)
        return cli_usage_error("tag", "unknown action '%s' (create, delete, rename, list)", action);
    if (a.positional_count != (size_t)want + 2)
        return cli_usage_error("tag", "%s takes %d name%s", action, want, want == 1 ? "" : "s");
    if ((cli_get(&a, "snapshot") != NULL || cli_get(&a, "time-retained") != NULL) &&
        strcmp(action, "create") != 0)
        return cli_usage_error("tag", "--snapshot and --time-retained are options of create");
    format = cli_get(&a, "format");
    if (format != NULL) {
        if (strcmp(action, "list") != 0)
            return cli_usage_error("tag", "--format is an option of list");
        if (strcmp(format, "jsonl") == 0)
            jsonl = true;
        else if (strcmp(format, "table") != 0)
            return cli_usage_error("tag", "--format must be table or jsonl, not '%s'", format);
    }

    if (strcmp(action, "create") == 0) {
        paimon_tag_options o = PAIMON_TAG_OPTIONS_INIT;
        long long snapshot;
        if (cli_get(&a, "snapshot") != NULL) {
            if (cli_parse_i64("tag", "snapshot", cli_get(&a, "snapshot"), &snapshot) != 0)
                return CLI_EXIT_USAGE;
            if (snapshot < 1)
                return cli_usage_error("tag", "--snapshot must be a positive id");
            o.snapshot = snapshot;
        }
        o.time_retained = cli_get(&a, "time-retained");
        if (paimon_table_open(&t, a.positional[0], &err) != 0)
            return cli_fail(&err, false);
        rc = paimon_tag_create(t, a.positional[2], &o, &err);
        if (rc == 0)
            printf("created tag %s\n", a.positional[2]);
        else
            rc = cli_fail(&err, true); /* a blank name, a duration that does not parse */
    } else {
        if (paimon_table_open(&t, a.positional[0], &err) != 0)
            return cli_fail(&err, false);
        if (strcmp(action, "delete") == 0) {
            rc = paimon_tag_delete(t, a.positional[2], &cleanup, &err);
            if (rc == 0) {
                printf("deleted tag %s\n", a.positional[2]);
                if (cleanup.code != 0)
                    cli_error("%s (the tag is deleted; paimon remove-orphans removes the files "
                              "it left)",
                              cleanup.message);
            }
        } else if (strcmp(action, "rename") == 0) {
            rc = paimon_tag_rename(t, a.positional[2], a.positional[3], &err);
            if (rc == 0)
                printf("renamed tag %s to %s\n", a.positional[2], a.positional[3]);
        } else {
            rc = cli_print_tags(t, jsonl, &err);
        }
        if (rc != 0)
            rc = cli_fail(&err, false);
    }
    paimon_table_free(t);
    return cli_flush_output("tag", rc);
}
