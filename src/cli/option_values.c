/*
 * `--option key=value` given several times: the table options of one run (DESIGN.md: every
 * command that reads or writes data takes them), split into keys and values for the
 * library's option structs.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* A duration as Java's options write it: an integer and a unit (ms, s, min, h, d; their long
 * names too), no unit meaning milliseconds.  -1 when it does not parse. */
int64_t cli_duration_ms(const char *text)
{
    static const struct {
        const char *unit;
        int64_t ms;
    } UNITS[] = {{"", 1},          {"ms", 1},          {"milli", 1},
                 {"millis", 1},    {"millisecond", 1}, {"milliseconds", 1},
                 {"s", 1000},      {"sec", 1000},      {"secs", 1000},
                 {"second", 1000}, {"seconds", 1000},  {"min", 60000},
                 {"m", 60000},     {"minute", 60000},  {"minutes", 60000},
                 {"h", 3600000},   {"hour", 3600000},  {"hours", 3600000},
                 {"d", 86400000},  {"day", 86400000},  {"days", 86400000}};
    char *end;
    long long v;
    if (text[0] < '0' || text[0] > '9')
        return -1;
    errno = 0;
    v = strtoll(text, &end, 10);
    if (errno != 0 || v < 0)
        return -1;
    while (*end == ' ')
        end++;
    for (size_t i = 0; i < sizeof(UNITS) / sizeof(UNITS[0]); i++)
        if (strcasecmp(end, UNITS[i].unit) == 0)
            return v > INT64_MAX / UNITS[i].ms ? -1 : (int64_t)v * UNITS[i].ms;
    return -1;
}
