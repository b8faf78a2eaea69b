/*
 * How the command prints rows: one `--format` parser, one `--select` parser, one CSV writer,
 * one table printer and one NULL spelling, shared by `cat`, `tail` and `file cat` (cli.h).
 *
 *   jsonl  the cursor's canonical JSON object per line (shared/spec/canonical-rows.md).
 *   csv    RFC 4180 with a header of the column names: a null is an empty unquoted field,
 *          the empty string is "", and a field is quoted when it is empty, starts or ends
 *          with a space, or holds a comma, a quote or a line break (quotes doubled).  These
 *          are the rules `paimon write --format csv` reads back (data/input_csv.c), so what
 *          `cat` prints can be written into another table unchanged.
 *   table  an aligned table under a header of the column names, then "(N rows)".  A null is
 *          NULL.  A string value that could be mistaken for it or for another value -- NULL
 *          in any case, the empty string, one starting or ending with a space, one starting
 *          with a double quote -- is printed in double quotes, with its quotes doubled.
 *          Control characters and backslashes in strings are escaped as in C (\n, \t, \r,
 *          \\, \xNN): a row stays on one line.
 *          Columns of numeric types (TINYINT .. BIGINT, FLOAT, DOUBLE, DECIMAL) are
 *          right-aligned, all others left-aligned: the column's type decides, never how a
 *          value looks.
 *
 * Allocation failures end the process with "paimon: out of memory" and exit 1 (cli_oom()):
 * a row is never silently dropped.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

void cli_oom(void)
{
    fflush(stdout);
    fputs("paimon: out of memory\n", stderr);
    exit(CLI_EXIT_FAILED);
}

void *cli_calloc(size_t count, size_t size)
{
    void *p = calloc(count > 0 ? count : 1, size > 0 ? size : 1);
    if (p == NULL)
        cli_oom();
    return p;
}

char *cli_strdup(const char *s)
{
    char *p = strdup(s);
    if (p == NULL)
        cli_oom();
    return p;
}

/* ---- --format ------------------------------------------------------------------------------ */

static const char *const FORMAT_NAMES[] = {"jsonl", "csv", "table", "none"};

int cli_format_parse(const char *cmd, const char *text, unsigned allowed, cli_format *out)
{
    char list[64];
    size_t n = 0, seen = 0, len = 0;
    for (size_t f = 0; f < 4; f++)
        if (allowed & (1u << f)) {
            if (strcmp(text, FORMAT_NAMES[f]) == 0) {
                *out = (cli_format)f;
                return CLI_EXIT_OK;
            }
            n++;
        }
    list[0] = '\0';
    for (size_t f = 0; f < 4 && len < sizeof(list); f++)
        if (allowed & (1u << f)) {
            seen++;
            len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
                                    seen == 1   ? ""
                                    : seen == n ? " or "
                                                : ", ",
                                    FORMAT_NAMES[f]);
        }
    return cli_usage_error(cmd, "--format must be %s, not '%s'", list, text);
}

/* ---- --select ------------------------------------------------------------------------------ */

int cli_select_parse(const char *cmd, const char *text, cli_select *out)
{
    size_t cap = 1;
    char *p;
    memset(out, 0, sizeof(*out));
    for (const char *c = text; *c != '\0'; c++)
        cap += *c == ',';
    out->copy = cli_strdup(text);
    out->names = cli_calloc(cap, sizeof(char *));
    for (p = out->copy;;) {
        char *comma = strchr(p, ','), *end;
        if (comma != NULL)
            *comma = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        end = p + strlen(p);
        while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (*p == '\0') {
            cli_select_free(out);
            return cli_usage_error(cmd, "--select: an empty column name in '%s'", text);
        }
        out->names[out->count++] = p;
        if (comma == NULL)
            return CLI_EXIT_OK;
        p = comma + 1;
    }
}

void cli_select_free(cli_select *s)
{
    free(s->copy);
    free(s->names);
    memset(s, 0, sizeof(*s));
}

/* ---- CSV ----------------------------------------------------------------------------------- */

void cli_csv_field(FILE *out, const char *text, size_t len)
{
    /* The whole length is looked at: a value may hold NUL bytes. */
    bool quote = len == 0 || text[0] == ' ' || text[len - 1] == ' ';
    for (size_t i = 0; !quote && i < len; i++)
        quote = text[i] == ',' || text[i] == '"' || text[i] == '\r' || text[i] == '\n';
    if (!quote) {
        fwrite(text, 1, len, out);
        return;
    }
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '"')
            fputc('"', out);
        fputc(text[i], out);
    }
    fputc('"', out);
}

/* ---- types --------------------------------------------------------------------------------- */

/* Does a type string ("DECIMAL(10, 2) NOT NULL") name a numeric type? */
static bool numeric_type(const char *type)
{
    static const char *const NUMERIC[] = {"TINYINT", "SMALLINT", "INT",    "INTEGER",
                                          "BIGINT",  "FLOAT",    "DOUBLE", "DECIMAL",
                                          "NUMERIC", "DEC",      "REAL"};
    size_t n = strcspn(type, " (");
    for (size_t i = 0; i < sizeof(NUMERIC) / sizeof(NUMERIC[0]); i++)
        if (strlen(NUMERIC[i]) == n && strncasecmp(type, NUMERIC[i], n) == 0)
            return true;
    return false;
}

/* Does a type string name a character string type, whose values table output may quote? */
static bool string_type(const char *type)
{
    size_t n = strcspn(type, " (");
    return (n == 4 && strncasecmp(type, "CHAR", 4) == 0) ||
           (n == 7 && strncasecmp(type, "VARCHAR", 7) == 0) ||
           (n == 6 && strncasecmp(type, "STRING", 6) == 0);
}

/* ---- rows ---------------------------------------------------------------------------------- */

struct cli_output {
    cli_format format;
    FILE *out;
    size_t columns;
    bool *is_string; /* per column: a character string type */
    cli_table *table;
    char **cells; /* one row of the table, before it is added */
    int64_t rows;
};

cli_output *cli_output_new(cli_format format, FILE *out, size_t columns, const char *const *names,
                           const char *const *types)
{
    cli_output *o = cli_calloc(1, sizeof(*o));
    o->format = format;
    o->out = out;
    o->columns = columns;
    o->is_string = cli_calloc(columns, sizeof(bool));
    for (size_t c = 0; c < columns; c++)
        o->is_string[c] = string_type(types[c]);
    if (format == CLI_FORMAT_CSV) {
        for (size_t c = 0; c < columns; c++) {
            if (c > 0)
                fputc(',', out);
            cli_csv_field(out, names[c], strlen(names[c]));
        }
        fputc('\n', out);
    } else if (format == CLI_FORMAT_TABLE) {
        o->table = cli_table_new(columns);
        o->cells = cli_calloc(columns, sizeof(char *));
        for (size_t c = 0; c < columns; c++)
            cli_table_set_right(o->table, c, numeric_type(types[c]));
        cli_table_add(o->table, names);
    }
    return o;
}

cli_output *cli_output_of(cli_format format, FILE *out, const paimon_cursor *cursor)
{
    size_t n = paimon_cursor_column_count(cursor);
    const char **names = cli_calloc(n, sizeof(char *)), **types = cli_calloc(n, sizeof(char *));
    cli_output *o;
    for (size_t i = 0; i < n; i++) {
        names[i] = paimon_cursor_column_name(cursor, i);
        types[i] = paimon_cursor_column_type(cursor, i);
    }
    o = cli_output_new(format, out, n, names, types);
    free(names);
    free(types);
    return o;
}

/* A string value as the table shows it: on one line, control characters and backslashes
 * escaped as in C (\n, \t, \r, \\, \xNN), so a row never breaks the alignment; then quoted
 * when it could pass for NULL or another value. */
static char *table_string(const char *text, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    bool quote = len == 0 || text[0] == ' ' || text[len - 1] == ' ' || text[0] == '"' ||
                 (len == 4 && strncasecmp(text, "NULL", 4) == 0);
    char *cell = cli_calloc(4 * len + 3, 1), *p = cell;
    if (quote)
        *p++ = '"';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '"' && quote) {
            *p++ = '"';
            *p++ = '"';
        } else if (c == '\\' || c == '\n' || c == '\t' || c == '\r') {
            *p++ = '\\';
            *p++ = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : '\\';
        } else if (c < 0x20 || c == 0x7f) {
            *p++ = '\\';
            *p++ = 'x';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        } else {
            *p++ = (char)c;
        }
    }
    if (quote)
        *p = '"';
    return cell;
}

int cli_output_row(cli_output *o, paimon_cursor *cur, paimon_error *err)
{
    int rc;
    o->rows++;
    if (o->format == CLI_FORMAT_NONE)
        return 0;
    if (o->format == CLI_FORMAT_JSONL) {
        const char *json;
        size_t len;
        if ((rc = paimon_cursor_row_json(cur, &json, &len, err)) != 0)
            return rc;
        fwrite(json, 1, len, o->out);
        fputc('\n', o->out);
        return 0;
    }
    for (size_t c = 0; c < o->columns; c++) {
        const char *text;
        size_t len;
        if ((rc = paimon_cursor_value_text(cur, c, &text, &len, err)) != 0) {
            for (size_t k = 0; o->cells != NULL && k < c; k++) {
                free(o->cells[k]);
                o->cells[k] = NULL;
            }
            return rc;
        }
        if (o->format == CLI_FORMAT_CSV) {
            if (c > 0)
                fputc(',', o->out);
            if (text != NULL) /* a null is an empty unquoted field */
                cli_csv_field(o->out, text, len);
        } else if (text == NULL) {
            o->cells[c] = cli_strdup("NULL");
        } else {
            o->cells[c] = o->is_string[c] ? table_string(text, len) : cli_strdup(text);
        }
    }
    if (o->format == CLI_FORMAT_CSV) {
        fputc('\n', o->out);
        return 0;
    }
    cli_table_add(o->table, (const char *const *)o->cells);
    for (size_t c = 0; c < o->columns; c++) {
        free(o->cells[c]);
        o->cells[c] = NULL;
    }
    return 0;
}

int cli_flush_output(const char *cmd, int rc)
{
    if (fflush(stdout) != 0 && rc == CLI_EXIT_OK) {
        cli_error("%s: cannot write the output", cmd);
        return CLI_EXIT_FAILED;
    }
    return rc;
}

void cli_output_end(cli_output *o)
{
    if (o->format == CLI_FORMAT_TABLE) {
        cli_table_print(o->table, o->out);
        fprintf(o->out, "(%lld row%s)\n", (long long)o->rows, o->rows == 1 ? "" : "s");
    } else if (o->format == CLI_FORMAT_NONE) {
        fprintf(o->out, "%lld\n", (long long)o->rows);
    }
}

void cli_output_free(cli_output *o)
{
    if (o == NULL)
        return;
    cli_table_free(o->table);
    free(o->cells);
    free(o->is_string);
    free(o);
}
