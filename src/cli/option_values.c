/*
 * `--option key=value` given several times: the table options of one run (DESIGN.md: every
 * command that reads or writes data takes them), split into keys and values for the
 * library's option structs.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

int cli_option_values_parse(const char *cmd, const cli_args *a, cli_option_values *out)
{
    const char *given[CLI_MAX_VALUES];
    size_t n = cli_get_all(a, "option", given, CLI_MAX_VALUES);
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < n; i++) {
        char *copy = cli_strdup(given[i]), *eq = strchr(copy, '=');
        out->copies[i] = copy;
        out->count = i + 1;
        if (eq == NULL || eq == copy) {
            cli_option_values_free(out);
            return cli_usage_error(cmd, "--option wants key=value, not '%s'", given[i]);
        }
        *eq = '\0';
        out->keys[i] = copy;
        out->values[i] = eq + 1;
    }
    return CLI_EXIT_OK;
}

void cli_option_values_free(cli_option_values *v)
{
    for (size_t i = 0; i < v->count; i++)
        free(v->copies[i]);
    v->count = 0;
}
