/* Option parsing, error reporting and table output for the command: see cli.h. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress.h"

/* The length of the strict UTF-8 sequence at s (RFC 3629: shortest form, no surrogates,
 * nothing past U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n = c >= 0xc2 && c <= 0xdf   ? 2
               : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
    unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
    unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    if (n == 0 || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

void cli_error(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cli_progress_end(); /* the error on a line of its own */
    /* one printable line, as the library's messages are: what a user typed or a file held
     * may be anything (util/error.h has the same rule) */
    fputs("paimon: ", stderr);
    for (const unsigned char *p = (const unsigned char *)msg; *p != '\0';) {
        size_t n = *p < 0x80 ? 1 : utf8_len(p);
        if (*p >= 0x20 && *p != 0x7f && n > 0) {
            fwrite(p, 1, n, stderr);
            p += n;
            continue;
        }
        if (*p == '\n' || *p == '\t' || *p == '\r')
            fprintf(stderr, "\\%c", *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r');
        else
            fprintf(stderr, "\\x%02x", *p);
        p++;
    }
    fputc('\n', stderr);
}

int cli_fail(const paimon_error *err, bool usage_on_invalid)
{
    cli_error("%s", err->message[0] != '\0' ? err->message : paimon_strerror(err->code));
    if (usage_on_invalid && err->code == PAIMON_EINVALID)
        return CLI_EXIT_USAGE;
    return CLI_EXIT_FAILED;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char msg[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cli_error("%s: %s (see paimon %s --help)", cmd, msg, cmd);
    return CLI_EXIT_USAGE;
}

static const cli_option *find_option(const cli_option *opts, const char *name, size_t len)
{
    for (const cli_option *o = opts; o != NULL && o->name != NULL; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

const char CLI_STORAGE_USAGE[] =
    "\n"
    "TABLE (and FILE) may be a local path or s3://BUCKET/PATH.  Every command takes\n"
    "--option s3.KEY=VALUE for this run (s3.endpoint, s3.region, s3.access-key,\n"
    "s3.secret-key, s3.session.token, s3.path.style.access, ...), over the AWS environment\n"
    "and ~/.aws; such settings are never stored in a table (docs/OBJECT-STORAGE.md).\n";

/* `--option s3.KEY=VALUE`: a storage setting of this run, whichever the command
 * (paimon_storage_set), kept out of the command's own options so that `create` never records
 * it in a schema.  Only the key is ever printed: the value may be a credential. */
static int storage_option(const char *cmd, const char *text)
{
    paimon_error err;
    const char *eq = strchr(text, '=');
    char *key;
    int rc;
    if (eq == NULL || eq == text)
        return cli_usage_error(cmd, "--option wants key=value, not '%s'", text);
    key = cli_strdup(text);
    key[eq - text] = '\0';
    rc = paimon_storage_set(key, eq + 1, &err);
    if (rc != 0)
        cli_usage_error(cmd, "--option %s", err.message);
    free(key);
    return rc != 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

/* What `--option` is on a command that declares none: storage settings only. */
static const cli_option STORAGE_OPTION = {"option", true, true};

int cli_parse(const char *cmd, int argc, char **argv, const cli_option *opts, cli_args *out)
{
    memset(out, 0, sizeof(*out));
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            out->help = true;
            continue;
        }
        if (strncmp(arg, "--", 2) == 0 && arg[2] != '\0') {
            const char *name = arg + 2, *eq = strchr(name, '=');
            size_t len = eq != NULL ? (size_t)(eq - name) : strlen(name);
            const cli_option *o = find_option(opts, name, len);
            const char *value = NULL;
            bool storage_only = false; /* --option on a command that has none of its own */
            if (o == NULL && len == 6 && strncmp(name, "option", 6) == 0) {
                o = &STORAGE_OPTION;
                storage_only = true;
            }
            if (o == NULL && eq == NULL && strcmp(name, "quiet") == 0) {
                cli_progress_quiet = true; /* every command: no progress line */
                continue;
            }
            if (o == NULL)
                return cli_usage_error(cmd, "unknown option --%.*s", (int)len, name);
            if (o->takes_value) {
                if (eq != NULL)
                    value = eq + 1;
                else if (i + 1 < argc)
                    value = argv[++i];
                else
                    return cli_usage_error(cmd, "option --%s needs a value", o->name);
            } else if (eq != NULL) {
                return cli_usage_error(cmd, "option --%s takes no value", o->name);
            }
            if (strcmp(o->name, "option") == 0 && strncmp(value, "s3.", 3) == 0) {
                int rc = storage_option(cmd, value);
                if (rc != CLI_EXIT_OK)
                    return rc;
                continue;
            }
            if (storage_only)
                return cli_usage_error(cmd,
                                       "--option %.*s: this command takes only storage settings "
                                       "(s3.KEY=VALUE)",
                                       (int)strcspn(value, "="), value);
            if (out->given_count == CLI_MAX_VALUES)
                return cli_usage_error(cmd, "too many options");
            out->given[out->given_count].opt = o;
            out->given[out->given_count].value = value;
            out->given_count++;
            continue;
        }
        if (out->positional_count == CLI_MAX_POSITIONAL)
            return cli_usage_error(cmd, "too many arguments");
        out->positional[out->positional_count++] = arg;
    }
    return CLI_EXIT_OK;
}

int cli_parse_table_command(const char *cmd, const char *usage, int argc, char **argv,
                            const cli_option *opts, size_t max_positional, cli_args *out)
{
    int rc = cli_parse(cmd, argc, argv, opts, out);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (out->help) {
        fputs(usage, stdout);
        fputs(CLI_STORAGE_USAGE, stdout);
        return CLI_HELP_SHOWN;
    }
    if (out->positional_count == 0)
        return cli_usage_error(cmd, "missing TABLE");
    if (out->positional_count > max_positional)
        return cli_usage_error(cmd, "unexpected argument '%s'", out->positional[max_positional]);
    return CLI_EXIT_OK;
}

const char *cli_get(const cli_args *a, const char *name)
{
    const char *value = NULL;
    for (size_t i = 0; i < a->given_count; i++)
        if (strcmp(a->given[i].opt->name, name) == 0)
            value = a->given[i].value;
    return value;
}

bool cli_has(const cli_args *a, const char *name)
{
    for (size_t i = 0; i < a->given_count; i++)
        if (strcmp(a->given[i].opt->name, name) == 0)
            return true;
    return false;
}

size_t cli_get_all(const cli_args *a, const char *name, const char **values, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < a->given_count && n < cap; i++)
        if (strcmp(a->given[i].opt->name, name) == 0)
            values[n++] = a->given[i].value;
    return n;
}

int cli_parse_i64(const char *cmd, const char *opt, const char *text, long long *out)
{
    char *end = NULL;
    errno = 0;
    *out = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0')
        return cli_usage_error(cmd, "--%s: '%s' is not an integer", opt, text);
    return CLI_EXIT_OK;
}

int cli_parse_threads(const char *cmd, const char *text, unsigned int *out)
{
    long long n;
    int rc = cli_parse_i64(cmd, "threads", text, &n);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (n < 1 || n > CLI_MAX_THREADS)
        return cli_usage_error(cmd, "--threads must be 1 to %d", CLI_MAX_THREADS);
    *out = (unsigned int)n;
    return CLI_EXIT_OK;
}

/* ---- table output ---------------------------------------------------------------------- */

struct cli_table {
    size_t columns;
    size_t rows;
    size_t cap;
    char **cells;       /* rows * columns, owned */
    signed char *right; /* per column: 1 right, 0 left, -1 by the cells (none declared) */
};

cli_table *cli_table_new(size_t columns)
{
    cli_table *t = cli_calloc(1, sizeof(*t));
    t->columns = columns;
    t->right = cli_calloc(columns, 1);
    memset(t->right, -1, columns);
    return t;
}

void cli_table_set_right(cli_table *t, size_t column, bool right)
{
    if (column < t->columns)
        t->right[column] = right ? 1 : 0;
}

void cli_table_add(cli_table *t, const char *const *cells)
{
    if (t->rows == t->cap) {
        size_t cap = t->cap == 0 ? 16 : t->cap * 2;
        char **grown = realloc(t->cells, cap * (t->columns > 0 ? t->columns : 1) * sizeof(char *));
        if (grown == NULL)
            cli_oom();
        t->cells = grown;
        t->cap = cap;
    }
    for (size_t c = 0; c < t->columns; c++)
        t->cells[t->rows * t->columns + c] = cli_strdup(cells[c] != NULL ? cells[c] : "");
    t->rows++;
}

/* Display width: UTF-8 code points (continuation bytes do not count). */
static size_t display_width(const char *s)
{
    size_t w = 0;
    for (; *s != '\0'; s++)
        if (((unsigned char)*s & 0xc0) != 0x80)
            w++;
    return w;
}

static bool looks_numeric(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '\0')
        return false;
    for (; *s != '\0'; s++)
        if ((*s < '0' || *s > '9') && *s != '.')
            return false;
    return true;
}

void cli_table_print(cli_table *t, FILE *out)
{
    size_t *width = cli_calloc(t->columns, sizeof(size_t));
    for (size_t r = 0; r < t->rows; r++)
        for (size_t c = 0; c < t->columns; c++) {
            size_t w = display_width(t->cells[r * t->columns + c]);
            if (w > width[c])
                width[c] = w;
        }
    for (size_t r = 0; r < t->rows; r++) {
        for (size_t c = 0; c < t->columns; c++) {
            const char *cell = t->cells[r * t->columns + c];
            size_t pad = width[c] - display_width(cell);
            bool right = r > 0 && (t->right[c] < 0 ? looks_numeric(cell) : t->right[c] == 1);
            if (c > 0)
                fputs("  ", out);
            if (right)
                fprintf(out, "%*s", (int)pad, "");
            fputs(cell, out);
            if (!right && c + 1 < t->columns)
                fprintf(out, "%*s", (int)pad, "");
        }
        fputc('\n', out);
        if (r == 0) {
            for (size_t c = 0; c < t->columns; c++) {
                if (c > 0)
                    fputs("  ", out);
                for (size_t i = 0; i < width[c]; i++)
                    fputc('-', out);
            }
            fputc('\n', out);
        }
    }
    free(width);
}

void cli_table_free(cli_table *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->rows * t->columns; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->right);
    free(t);
}

/* ---- JSON output ----------------------------------------------------------------------- */

void cli_json_string(FILE *out, const char *s)
{
    if (s == NULL) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void cli_format_millis(char *buf, size_t len, int64_t millis)
{
    /* floor division without overflow: a snapshot's timeMillis may be any int64 (INT64_MIN
     * - 999 was signed overflow) */
    int ms = (int)(millis % 1000);
    time_t secs = (time_t)(millis / 1000);
    struct tm tm;
    if (ms < 0) {
        ms += 1000;
        secs--;
    }
    if (gmtime_r(&secs, &tm) == NULL) {
        snprintf(buf, len, "%lld", (long long)millis);
        return;
    }
    snprintf(buf, len, "%04d-%02d-%02d %02d:%02d:%02d.%03d", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
}

/* DESIGN.md: TABLE$NAME names system table NAME of TABLE when no file or directory of that
 * name exists.  Sets *table (caller frees) and *system (into it) when it does; else both
 * stay NULL.  Only the last path component is split.  Whether it exists is asked of the
 * file system the path names (a local directory or an S3 prefix); when that cannot be told
 * (a scheme paimon-c refuses, an unreachable store), the split is made and opening the
 * table reports the error. */
void cli_split_system_table(const char *arg, char **table, const char **system)
{
    paimon_error err;
    bool exists = false;
    const char *slash = strrchr(arg, '/'), *dollar = strrchr(arg, '$');
    *table = NULL;
    *system = NULL;
    if (dollar == NULL || (slash != NULL && dollar < slash) || dollar == arg || dollar[-1] == '/')
        return;
    if (paimon_path_exists(arg, &exists, &err) == 0 && exists)
        return;
    *table = cli_strdup(arg);
    (*table)[dollar - arg] = '\0';
    *system = *table + (dollar - arg) + 1;
}
