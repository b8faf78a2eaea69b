/*
 * paimon alter TABLE add-column 'NAME TYPE' [--after COL | --first]
 *                  | drop-column NAME | rename-column OLD NEW | alter-type NAME 'TYPE'
 *                  | set-option key=value | remove-option key
 *
 * Writes the next schema (DESIGN.md); Java's rules decide what may change.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char USAGE[] =
    "usage: paimon alter TABLE add-column 'NAME TYPE' [--after COL | --first]\n"
    "                        | drop-column NAME | rename-column OLD NEW\n"
    "                        | alter-type NAME 'TYPE'\n"
    "                        | set-option key=value | remove-option key\n"
    "\n"
    "Writes the next schema of the table.  Added columns must be nullable; partition and\n"
    "primary-key columns cannot be dropped or retyped; immutable options cannot change once\n"
    "the table has data.\n";

static const cli_option OPTIONS[] = {
    {"after", true, false},
    {"first", false, false},
    {NULL, false, false},
};

static const struct {
    const char *name;
    paimon_alter_kind kind;
    size_t args; /* positional arguments after the action */
} ACTIONS[] = {
    {"add-column", PAIMON_ALTER_ADD_COLUMN, 1},
    {"drop-column", PAIMON_ALTER_DROP_COLUMN, 1},
    {"rename-column", PAIMON_ALTER_RENAME_COLUMN, 2},
    {"alter-type", PAIMON_ALTER_ALTER_TYPE, 2},
    {"set-option", PAIMON_ALTER_SET_OPTION, 1},
    {"remove-option", PAIMON_ALTER_REMOVE_OPTION, 1},
};

int cli_cmd_alter(int argc, char **argv)
{
    cli_args a;
    paimon_alter change = PAIMON_ALTER_INIT;
    paimon_error err = {0, {0}};
    char *kv = NULL;
    int64_t id = 0;
    size_t act = sizeof(ACTIONS) / sizeof(ACTIONS[0]);
    int rc = cli_parse_table_command("alter", USAGE, argc, argv, OPTIONS, CLI_MAX_POSITIONAL, &a);

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (a.positional_count < 2)
        return cli_usage_error("alter", "missing the change to make");
    for (size_t i = 0; i < sizeof(ACTIONS) / sizeof(ACTIONS[0]); i++)
        if (strcmp(a.positional[1], ACTIONS[i].name) == 0)
            act = i;
    if (act == sizeof(ACTIONS) / sizeof(ACTIONS[0]))
        return cli_usage_error("alter", "unknown change '%s'", a.positional[1]);
    if (a.positional_count != 2 + ACTIONS[act].args)
        return cli_usage_error("alter", "%s takes %zu argument%s", ACTIONS[act].name,
                               ACTIONS[act].args, ACTIONS[act].args == 1 ? "" : "s");
    if ((cli_get(&a, "after") != NULL || cli_has(&a, "first")) &&
        ACTIONS[act].kind != PAIMON_ALTER_ADD_COLUMN)
        return cli_usage_error("alter", "--after and --first go with add-column");
    if (cli_get(&a, "after") != NULL && cli_has(&a, "first"))
        return cli_usage_error("alter", "give --after or --first, not both");
    change.kind = ACTIONS[act].kind;
    change.column = a.positional[2];
    change.value = ACTIONS[act].args == 2 ? a.positional[3] : NULL;
    change.after = cli_get(&a, "after");
    change.first = cli_has(&a, "first");
    /* A column or type that does not parse is bad usage (exit 2), as for create. */
    if ((change.kind == PAIMON_ALTER_ADD_COLUMN &&
         paimon_columns_check(change.column, &err) != 0) ||
        (change.kind == PAIMON_ALTER_ALTER_TYPE && paimon_type_check(change.value, &err) != 0)) {
        cli_error("alter: %s", err.message);
        return CLI_EXIT_USAGE;
    }
    if (change.kind == PAIMON_ALTER_SET_OPTION) {
        char *eq;
        kv = cli_strdup(a.positional[2]);
        eq = strchr(kv, '=');
        if (eq == NULL || eq == kv) {
            free(kv);
            return cli_usage_error("alter", "set-option '%s' is not key=value", a.positional[2]);
        }
        *eq = '\0';
        change.column = kv;
        change.value = eq + 1;
    }
    rc = paimon_table_alter(a.positional[0], &change, &id, &err);
    free(kv);
    if (rc != 0)
        return cli_fail(&err, false);
    printf("altered %s: schema %lld\n", a.positional[0], (long long)id);
    return CLI_EXIT_OK;
}
