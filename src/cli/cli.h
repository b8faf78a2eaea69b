/*
 * Shared pieces of the `paimon` command: option parsing, error reporting in the form of
 * DESIGN.md ("paimon: CONTEXT: MESSAGE" on stderr; exit 1 when the operation failed, 2 for
 * bad usage), an aligned-table printer, and the printing of rows (output.c).  The command
 * uses only include/paimon.h.
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

/* Prints "paimon: MESSAGE" on one line of stderr, control characters and bytes that are
 * not strict UTF-8 escaped (\n, \t, \r, \xNN): user text (names, paths, values) may be
 * anything. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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
 * errors: the message is printed and CLI_EXIT_USAGE returned.  `--option s3.KEY=VALUE`, on
 * every command whether or not it declares "option", is a storage setting of the run: it is
 * handed to paimon_storage_set() (an unknown key is a usage error) and not recorded in
 * `out`; other `--option` values are recorded when the command declares "option". */
int cli_parse(const char *cmd, int argc, char **argv, const cli_option *opts, cli_args *out);

/* The paragraph every command's --help ends with: TABLE may be s3://, and --option s3.*. */
extern const char CLI_STORAGE_USAGE[];

/* The start of every command on a table: cli_parse(), then `usage` printed for --help, then
 * the positional arguments checked: TABLE first (missing: a usage error), at most
 * `max_positional` in all (one more: a usage error naming it).  CLI_EXIT_OK to go on;
 * CLI_HELP_SHOWN when --help was answered (the command returns CLI_EXIT_OK); else the exit
 * code of the usage error, already printed. */
#define CLI_HELP_SHOWN (-1)
int cli_parse_table_command(const char *cmd, const char *usage, int argc, char **argv,
                            const cli_option *opts, size_t max_positional, cli_args *out);

/* The last value of an option, or NULL; cli_has() for flags. */
const char *cli_get(const cli_args *a, const char *name);
bool cli_has(const cli_args *a, const char *name);
/* All values of a repeatable option, in order; returns the count. */
size_t cli_get_all(const cli_args *a, const char *name, const char **values, size_t cap);

/* Parses a decimal int64 option value; prints a usage error on failure. */
int cli_parse_i64(const char *cmd, const char *opt, const char *text, long long *out);

/* Parses --threads N: 1 to CLI_MAX_THREADS (the library's pool cap); prints a usage error
 * on failure.  Without --threads a command leaves the count 0: the processors online. */
#define CLI_MAX_THREADS 256
int cli_parse_threads(const char *cmd, const char *text, unsigned int *out);

/* DESIGN.md: TABLE$NAME names system table NAME of TABLE when no file or directory of that
 * name exists.  Sets *table (caller frees) and *system (into it) when it does; else both
 * stay NULL.  Only the last path component is split (cat, tail). */
void cli_split_system_table(const char *arg, char **table, const char **system);

/* ---- output ---------------------------------------------------------------------------- */

/* Prints "paimon: out of memory" and exits with CLI_EXIT_FAILED: what every allocation
 * failure of the command does.  cli_calloc() and cli_strdup() call it for you. */
void cli_oom(void) __attribute__((noreturn));
void *cli_calloc(size_t count, size_t size);
char *cli_strdup(const char *s);

/* An aligned text table: add a header row, then rows; print pads columns to their widest
 * cell (UTF-8 aware).  A column declared with cli_table_set_right() is aligned as declared
 * (right: numbers); in a table that declares none, cells that look numeric are
 * right-aligned (the metadata tables of `inspect`, whose columns are all known). */
typedef struct cli_table cli_table;
cli_table *cli_table_new(size_t columns);
void cli_table_set_right(cli_table *t, size_t column, bool right);
void cli_table_add(cli_table *t, const char *const *cells);
void cli_table_print(cli_table *t, FILE *out);
void cli_table_free(cli_table *t);

/* ---- rows (output.c): the one way `cat`, `tail` and `file cat` print rows --------------- */

/* The --format values; cli_format_parse() takes a mask of the allowed ones. */
typedef enum cli_format {
    CLI_FORMAT_JSONL = 0, /* canonical JSON objects, one per line */
    CLI_FORMAT_CSV = 1,   /* RFC 4180 with a header; a null is an empty unquoted field */
    CLI_FORMAT_TABLE = 2, /* aligned; a null is NULL, strings that could pass for it quoted */
    CLI_FORMAT_NONE = 3   /* decode everything, print the row count */
} cli_format;
#define CLI_FORMATS(f) (1u << (f))

/* Parses a --format value: CLI_EXIT_OK, or a usage error naming the allowed values. */
int cli_format_parse(const char *cmd, const char *text, unsigned allowed, cli_format *out);

/* A --select list "a, b,c": names trimmed of spaces and tabs.  An empty name anywhere
 * ("a,,b", "a,", "") is a usage error.  Release with cli_select_free(). */
typedef struct cli_select {
    char *copy;         /* the names point into it */
    const char **names; /* in the order given */
    size_t count;
} cli_select;
int cli_select_parse(const char *cmd, const char *text, cli_select *out);
void cli_select_free(cli_select *s);

/* Writes one CSV field (RFC 4180, the quoting `paimon write --format csv` reads back). */
void cli_csv_field(FILE *out, const char *text, size_t len);

/* A printer of rows in one format, over columns with these names and type strings (read
 * during the call only).  CSV prints its header at once; a table prints at cli_output_end().
 * cli_output_of() takes the columns of a cursor. */
typedef struct cli_output cli_output;
cli_output *cli_output_new(cli_format format, FILE *out, size_t columns, const char *const *names,
                           const char *const *types);
cli_output *cli_output_of(cli_format format, FILE *out, const paimon_cursor *cursor);
/* Prints (or gathers) the cursor's current row: 0 or the cursor's error code. */
int cli_output_row(cli_output *o, paimon_cursor *cursor, paimon_error *err);
/* Finishes: the table and "(N rows)", or the count for CLI_FORMAT_NONE. */
void cli_output_end(cli_output *o);
/* The command's exit code once stdout is flushed: `rc`, or CLI_EXIT_FAILED with "paimon:
 * CMD: cannot write the output" when it was CLI_EXIT_OK and the output could not be written
 * (a full disk, a closed pipe): rows that did not arrive are never a success. */
int cli_flush_output(const char *cmd, int rc);
void cli_output_free(cli_output *o);

/* ---- JSON output ----------------------------------------------------------------------- */

/* Writes `s` as a JSON string literal ("" escapes; NULL writes null). */
void cli_json_string(FILE *out, const char *s);

/* Formats epoch milliseconds as "YYYY-MM-DD HH:MM:SS.mmm" UTC into `buf` (>= 32 bytes). */
void cli_format_millis(char *buf, size_t len, int64_t millis);
#endif /* PM_CLI_CLI_H */
