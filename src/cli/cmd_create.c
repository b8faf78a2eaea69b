/*
 * paimon create TABLE --schema 'COLUMNS' [--primary-key c[,c..]] [--partition-by c[,c..]]
 *                     [--option key=value]... [--comment TEXT]
 *
 * Writes schema-0 with the options given recorded verbatim (DESIGN.md).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char USAGE[] =
    "usage: paimon create TABLE --schema 'COLUMNS' [--primary-key c[,c..]]\n"
    "                     [--partition-by c[,c..]] [--option key=value]... [--comment TEXT]\n"
    "\n"
    "COLUMNS is a comma-separated list of `NAME TYPE [NOT NULL]`, e.g.\n"
    "  'id BIGINT, name STRING, price DECIMAL(18, 2), ts TIMESTAMP(3), tags ARRAY<STRING>'\n"
    "Types are written as in Paimon schema files (BIGINT, VARCHAR(20), TIMESTAMP(6),\n"
    "TIMESTAMP(3) WITH LOCAL TIME ZONE, ...) plus ARRAY<T>, MAP<K, V>, MULTISET<T> and\n"
    "ROW<name T, ...>.  Primary-key columns become NOT NULL.  Options are recorded as given.\n";

static const cli_option OPTIONS[] = {
    {"schema", true, false}, {"primary-key", true, false}, {"partition-by", true, false},
    {"option", true, true},  {"comment", true, false},     {NULL, false, false},
};

#define MAX_KEYS 64

/* Splits "a,b" in place into trimmed names. */
static size_t split_names(char *text, const char **out, size_t cap)
{
    size_t n = 0;
    for (char *tok = text; tok != NULL && n < cap;) {
        char *comma = strchr(tok, ',');
        char *end;
        if (comma != NULL)
            *comma = '\0';
        while (*tok == ' ')
            tok++;
        end = tok + strlen(tok);
        while (end > tok && end[-1] == ' ')
            *--end = '\0';
        out[n++] = tok;
        tok = comma != NULL ? comma + 1 : NULL;
    }
    return n;
}

int cli_cmd_create(int argc, char **argv)
{
    cli_args a;
    paimon_create_options o = PAIMON_CREATE_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    const char *pk[MAX_KEYS], *parts[MAX_KEYS], *opt_values[CLI_MAX_VALUES];
    const char *keys[CLI_MAX_VALUES], *values[CLI_MAX_VALUES];
    char *pk_text = NULL, *part_text = NULL, *opt_copies[CLI_MAX_VALUES];
    size_t nopt;
    int rc = cli_parse_table_command("create", USAGE, argc, argv, OPTIONS, 1, &a);

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (cli_get(&a, "schema") == NULL)
        return cli_usage_error("create", "missing --schema 'COLUMNS'");
    /* A schema that does not parse is bad usage (exit 2), as DESIGN.md says. */
    if (paimon_columns_check(cli_get(&a, "schema"), &err) != 0) {
        cli_error("create: %s", err.message);
        return CLI_EXIT_USAGE;
    }
    o.columns = cli_get(&a, "schema");
    o.comment = cli_get(&a, "comment");
    if (cli_get(&a, "primary-key") != NULL) {
        pk_text = cli_strdup(cli_get(&a, "primary-key"));
        o.primary_keys = pk;
        o.primary_key_count = split_names(pk_text, pk, MAX_KEYS);
    }
    if (cli_get(&a, "partition-by") != NULL) {
        part_text = cli_strdup(cli_get(&a, "partition-by"));
        o.partition_keys = parts;
        o.partition_key_count = split_names(part_text, parts, MAX_KEYS);
    }
    nopt = cli_get_all(&a, "option", opt_values, CLI_MAX_VALUES);
    for (size_t i = 0; i < nopt; i++) {
        char *eq;
        opt_copies[i] = cli_strdup(opt_values[i]);
        eq = strchr(opt_copies[i], '=');
        if (eq == NULL || eq == opt_copies[i]) {
            for (size_t j = 0; j <= i; j++)
                free(opt_copies[j]);
            free(pk_text);
            free(part_text);
            return cli_usage_error("create", "--option '%s' is not key=value", opt_values[i]);
        }
        *eq = '\0';
        keys[i] = opt_copies[i];
        values[i] = eq + 1;
    }
    o.option_keys = keys;
    o.option_values = values;
    o.option_count = nopt;

    rc = paimon_table_create(a.positional[0], &o, &err);
    for (size_t i = 0; i < nopt; i++)
        free(opt_copies[i]);
    free(pk_text);
    free(part_text);
    if (rc != 0)
        return cli_fail(&err, false);
    printf("created %s\n", a.positional[0]);
    return CLI_EXIT_OK;
}
