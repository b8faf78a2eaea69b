/*
 * Shared pieces of the `paimon` command: option parsing, error reporting in the form of
 * DESIGN.md ("paimon: CONTEXT: MESSAGE" on stderr; exit 1 when the operation failed, 2 for
 * bad usage), and an aligned-table printer.  The command uses only include/paimon.h.
 */
#ifndef PM_CLI_CLI_H
#define PM_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "paimon.h"

#define CLI_EXIT_OK     0
#define CLI_EXIT_FAILED 1
#define CLI_EXIT_USAGE  2

/* Prints "paimon: MESSAGE" for a failed library call and returns CLI_EXIT_FAILED, or
 * CLI_EXIT_USAGE when the error is a parse error of the user's own argument
 * (usage_on_invalid and code PAIMON_EINVALID). */
int cli_fail(const paimon_error *err, bool usage_on_invalid);

/* Prints "paimon: MESSAGE" and the hint to use --help; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- options --------------------------------------------------------------------------- */

/* One declared option.  `takes_value` options accept "--name VALUE" and "--name=VALUE". */
typedef struct cli_option {
    const char *name; /* without the leading "--" */
    bool takes_value;
    bool repeatable; /* values accumulate (e.g. --option k=v) */
} cli_option;

#define CLI_MAX_VALUES     256
#define CLI_MAX_POSITIONAL 16

typedef struct cli_args {
    const char *positional[CLI_MAX_POSITIONAL];
    size_t positional_count;
    struct {
        const cli_option *opt;
        const char *value; /* NULL for flags */
    } given[CLI_MAX_VALUES];
    size_t given_count;
    bool help;
} cli_args;

/* Parses argv (after the subcommand name).  Unknown options and missing values are usage
 * errors: the message is printed and CLI_EXIT_USAGE returned. */
int cli_parse(const char *cmd, int argc, char **argv, const cli_option *opts, cli_args *out);

/* The last value of an option, or NULL; cli_has() for flags. */
const char *cli_get(const cli_args *a, const char *name);
bool cli_has(const cli_args *a, const char *name);
/* All values of a repeatable option, in order; returns the count. */
size_t cli_get_all(const cli_args *a, const char *name, const char **values, size_t cap);

/* Parses a decimal int64 option value; prints a usage error on failure. */
int cli_parse_i64(const char *cmd, const char *opt, const char *text, long long *out);

/* ---- output ---------------------------------------------------------------------------- */

/* An aligned text table: add a header row, then rows; print pads columns to their widest
 * cell (UTF-8 aware) and right-aligns cells that look numeric. */
typedef struct cli_table cli_table;
cli_table *cli_table_new(size_t columns);
void cli_table_add(cli_table *t, const char *const *cells);
void cli_table_print(cli_table *t, FILE *out);
void cli_table_free(cli_table *t);

/* ---- JSON output ----------------------------------------------------------------------- */

/* Writes `s` as a JSON string literal ("" escapes; NULL writes null). */
void cli_json_string(FILE *out, const char *s);

/* Formats epoch milliseconds as "YYYY-MM-DD HH:MM:SS.mmm" UTC into `buf` (>= 32 bytes). */
void cli_format_millis(char *buf, size_t len, int64_t millis);
#endif /* PM_CLI_CLI_H */
