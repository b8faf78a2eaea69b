/*
 * Type strings and the COLUMNS syntax: a tokenizer and a recursive-descent parser that
 * accept what Java's DataTypeJsonParser accepts for atomic types, plus the nested
 * ARRAY<T>, MAP<K, V>, MULTISET<T> and ROW<name T, …> forms of `paimon create`.
 * See types.h for the contract.
 *
 * The text is user input (a COLUMNS argument, an alter-type) or a schema file's string, so
 * the recursion is bounded: a type nested deeper than PM_MAX_NESTING is refused where the
 * constructor that crosses the bound starts, before the parser descends into it (the
 * suffix forms `INT ARRAY ARRAY` nest without recursion and are counted as well).  What
 * no table can store is refused too: a ROW without fields and a name that is only white
 * space (Java's RowType.validateFields).  Messages echo at most ECHO_MAX bytes of the text,
 * so the position still fits in the message of a 90 KB argument.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/types.h"
#include "util/alloc.h"
#include "util/error.h"

typedef enum tok_kind {
    TOK_END,
    TOK_WORD,   /* identifier or keyword */
    TOK_QUOTED, /* `back-quoted identifier` */
    TOK_STRING, /* 'string literal' (COMMENT) */
    TOK_INT,
    TOK_PUNCT /* one of ( ) < > , */
} tok_kind;

#define ECHO_MAX  100 /* bytes of the input quoted in a message */
#define TOKEN_MAX 40  /* bytes of the offending token quoted in a message */

typedef struct parser {
    const char *text; /* whole input, for messages */
    const char *p;    /* cursor */
    tok_kind kind;    /* current token */
    const char *start;
    size_t len;
    paimon_error *err;
} parser;

static int syntax(parser *ps, const char *what)
{
    size_t pos = (size_t)(ps->start - ps->text), text_len = strlen(ps->text);
    int shown = text_len > ECHO_MAX ? ECHO_MAX : (int)text_len;
    const char *more = text_len > ECHO_MAX ? "..." : "";
    if (ps->kind == TOK_END)
        return pm_err_set(ps->err, PAIMON_EINVALID, "type '%.*s%s': %s at end of input", shown,
                          ps->text, more, what);
    return pm_err_set(ps->err, PAIMON_EINVALID, "type '%.*s%s': %s at position %zu ('%.*s%s')",
                      shown, ps->text, more, what, pos + 1,
                      ps->len > TOKEN_MAX ? TOKEN_MAX : (int)ps->len, ps->start,
                      ps->len > TOKEN_MAX ? "..." : "");
}

/* A constructor at `depth` enclosing constructors (the current token) would nest deeper
 * than a table can hold. */
static int too_deep(parser *ps)
{
    char what[64];
    snprintf(what, sizeof(what), "type nested deeper than %d levels", PM_MAX_NESTING);
    return syntax(ps, what);
}

/* Advances to the next token. */
static int next(parser *ps)
{
    const char *p = ps->p;
    while (*p != '\0' && isspace((unsigned char)*p))
        p++;
    ps->start = p;
    if (*p == '\0') {
        ps->kind = TOK_END;
        ps->len = 0;
    } else if (isalpha((unsigned char)*p) || *p == '_') {
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        ps->kind = TOK_WORD;
    } else if (isdigit((unsigned char)*p)) {
        while (isdigit((unsigned char)*p))
            p++;
        ps->kind = TOK_INT;
    } else if (*p == '`' || *p == '\'') {
        char q = *p++;
        for (;;) {
            if (*p == '\0') {
                ps->p = p;
                ps->len = (size_t)(p - ps->start);
                return syntax(ps, q == '`' ? "unterminated quoted name" : "unterminated string");
            }
            if (*p == q) {
                if (p[1] == q) { /* doubled quote escapes itself */
                    p += 2;
                    continue;
                }
                p++;
                break;
            }
            p++;
        }
        ps->kind = q == '`' ? TOK_QUOTED : TOK_STRING;
    } else if (strchr("()<>,", *p) != NULL) {
        p++;
        ps->kind = TOK_PUNCT;
    } else {
        ps->len = 1;
        ps->p = p + 1;
        ps->kind = TOK_PUNCT;
        return syntax(ps, "unexpected character");
    }
    ps->len = (size_t)(p - ps->start);
    ps->p = p;
    return 0;
}

static bool is_word(const parser *ps, const char *kw)
{
    return ps->kind == TOK_WORD && strlen(kw) == ps->len &&
           strncasecmp(ps->start, kw, ps->len) == 0;
}

static bool is_punct(const parser *ps, char c)
{
    return ps->kind == TOK_PUNCT && ps->start[0] == c;
}

static int expect_punct(parser *ps, char c)
{
    char what[32];
    if (!is_punct(ps, c)) {
        snprintf(what, sizeof(what), "'%c' expected", c);
        return syntax(ps, what);
    }
    return next(ps);
}

static int expect_word(parser *ps, const char *kw)
{
    char what[64];
    if (!is_word(ps, kw)) {
        snprintf(what, sizeof(what), "'%s' expected", kw);
        return syntax(ps, what);
    }
    return next(ps);
}

static int read_int(parser *ps, int64_t min, int64_t max, int32_t *out, const char *what)
{
    char buf[24], msg[96];
    long long v;
    if (ps->kind != TOK_INT || ps->len >= sizeof(buf))
        return syntax(ps, "integer expected");
    memcpy(buf, ps->start, ps->len);
    buf[ps->len] = '\0';
    errno = 0;
    v = strtoll(buf, NULL, 10);
    if (errno != 0 || v < min || v > max) {
        snprintf(msg, sizeof(msg), "%s must be between %lld and %lld", what, (long long)min,
                 (long long)max);
        return syntax(ps, msg);
    }
    *out = (int32_t)v;
    return next(ps);
}

/* "(n)" when present; *out unchanged otherwise. */
static int optional_param(parser *ps, int64_t min, int64_t max, int32_t *out, const char *what)
{
    int rc;
    if (!is_punct(ps, '('))
        return 0;
    if ((rc = next(ps)) != 0 || (rc = read_int(ps, min, max, out, what)) != 0)
        return rc;
    return expect_punct(ps, ')');
}

/* Each parse function takes `depth`, the number of ARRAY/MAP/MULTISET/ROW constructors
 * around the type it parses, and reports the `height` (pm_type_nesting) of what it parsed;
 * depth + height never exceeds PM_MAX_NESTING. */
static int parse_type(parser *ps, int depth, pm_type **out, int *height);

/* name in a ROW or COLUMNS list: a word or a `quoted` name, unquoted into a new string. */
static int parse_name(parser *ps, char **out)
{
    char *name;
    size_t n = 0;
    int rc;
    if (ps->kind == TOK_WORD) {
        name = pm_strndup(ps->start, ps->len);
    } else if (ps->kind == TOK_QUOTED) {
        name = pm_malloc(ps->len);
        if (name != NULL) {
            bool blank = true;
            for (size_t i = 1; i + 1 < ps->len; i++) {
                blank &= isspace((unsigned char)ps->start[i]) != 0;
                name[n++] = ps->start[i];
                if (ps->start[i] == '`')
                    i++; /* skip the doubled quote */
            }
            name[n] = '\0';
            if (n == 0) {
                pm_free(name);
                return syntax(ps, "empty column name");
            }
            if (blank) {
                pm_free(name);
                return syntax(ps, "a column name needs a character that is not white space");
            }
        }
    } else {
        return syntax(ps, "column name expected");
    }
    if (name == NULL)
        return pm_nomem(ps->err);
    if ((rc = next(ps)) != 0) {
        pm_free(name);
        return rc;
    }
    *out = name;
    return 0;
}

static char *unquote_string(const parser *ps)
{
    char *s = pm_malloc(ps->len);
    size_t n = 0;
    if (s == NULL)
        return NULL;
    for (size_t i = 1; i + 1 < ps->len; i++) {
        s[n++] = ps->start[i];
        if (ps->start[i] == '\'')
            i++;
    }
    s[n] = '\0';
    return s;
}

/* field [, field]* up to (not including) `close`.  Ids are assigned later.  The fields'
 * types are at `depth`; *height is the highest of them. */
static int parse_field_list(parser *ps, pm_type *row, char close, int depth, int *height)
{
    int rc;
    *height = 0;
    for (;;) {
        char *name = NULL;
        pm_type *ft = NULL;
        int h = 0;
        if ((rc = parse_name(ps, &name)) != 0)
            return rc;
        if (pm_type_field_by_name(row, name, NULL) != NULL) {
            pm_err_set(ps->err, PAIMON_EINVALID, "type '%s': duplicate column name '%s'", ps->text,
                       name);
            pm_free(name);
            return PAIMON_EINVALID;
        }
        rc = parse_type(ps, depth, &ft, &h);
        if (rc == 0)
            rc = pm_type_row_add(row, -1, name, ft);
        if (h > *height)
            *height = h;
        pm_free(name);
        if (rc != 0)
            return rc == PAIMON_ENOMEM ? pm_nomem(ps->err) : rc;
        if (is_word(ps, "COMMENT")) {
            pm_field *f = &row->fields[row->field_count - 1];
            if ((rc = next(ps)) != 0)
                return rc;
            if (ps->kind != TOK_STRING)
                return syntax(ps, "comment string expected");
            if ((f->description = unquote_string(ps)) == NULL)
                return pm_nomem(ps->err);
            if ((rc = next(ps)) != 0)
                return rc;
        }
        if (is_punct(ps, ','))
            rc = next(ps);
        else if (is_punct(ps, close) || (close == '\0' && ps->kind == TOK_END))
            return 0;
        else
            return syntax(ps, close == '\0' ? "',' expected" : "',' or end of row expected");
        if (rc != 0)
            return rc;
    }
}

static int parse_base(parser *ps, int depth, pm_type **out, int *height)
{
    pm_type *t = NULL;
    int rc = 0, h = 0, h2 = 0;

    *height = 0;
    if ((is_word(ps, "ARRAY") || is_word(ps, "MULTISET") || is_word(ps, "MAP") ||
         is_word(ps, "ROW")) &&
        depth + 1 > PM_MAX_NESTING)
        return too_deep(ps);

#define SIMPLE(kw, tid)                                                                            \
    if (is_word(ps, kw)) {                                                                         \
        t = pm_type_new(tid);                                                                      \
        if (t == NULL)                                                                             \
            return pm_nomem(ps->err);                                                              \
        rc = next(ps);                                                                             \
        goto done;                                                                                 \
    }
    SIMPLE("BOOLEAN", PM_TYPE_BOOLEAN)
    SIMPLE("TINYINT", PM_TYPE_TINYINT)
    SIMPLE("SMALLINT", PM_TYPE_SMALLINT)
    SIMPLE("INT", PM_TYPE_INT)
    SIMPLE("INTEGER", PM_TYPE_INT)
    SIMPLE("BIGINT", PM_TYPE_BIGINT)
    SIMPLE("FLOAT", PM_TYPE_FLOAT)
    SIMPLE("DATE", PM_TYPE_DATE)
    SIMPLE("VARIANT", PM_TYPE_VARIANT)
    SIMPLE("BLOB", PM_TYPE_BLOB)
#undef SIMPLE

    if (is_word(ps, "DOUBLE")) {
        if ((t = pm_type_new(PM_TYPE_DOUBLE)) == NULL)
            return pm_nomem(ps->err);
        if ((rc = next(ps)) == 0 && is_word(ps, "PRECISION"))
            rc = next(ps);
        goto done;
    }
    if (is_word(ps, "STRING") || is_word(ps, "BYTES")) {
        if ((t = pm_type_new(is_word(ps, "STRING") ? PM_TYPE_VARCHAR : PM_TYPE_VARBINARY)) == NULL)
            return pm_nomem(ps->err);
        t->length = PM_MAX_LENGTH;
        rc = next(ps);
        goto done;
    }
    {
        static const struct {
            const char *kw;
            pm_type_id id;
        } sized[] = {{"CHAR", PM_TYPE_CHAR},
                     {"VARCHAR", PM_TYPE_VARCHAR},
                     {"BINARY", PM_TYPE_BINARY},
                     {"VARBINARY", PM_TYPE_VARBINARY}};
        for (size_t i = 0; i < sizeof(sized) / sizeof(sized[0]); i++) {
            if (is_word(ps, sized[i].kw)) {
                if ((t = pm_type_new(sized[i].id)) == NULL)
                    return pm_nomem(ps->err);
                if ((rc = next(ps)) == 0)
                    rc = optional_param(ps, 1, PM_MAX_LENGTH, &t->length, "length");
                goto done;
            }
        }
    }
    if (is_word(ps, "DECIMAL") || is_word(ps, "NUMERIC") || is_word(ps, "DEC")) {
        if ((t = pm_type_new(PM_TYPE_DECIMAL)) == NULL)
            return pm_nomem(ps->err);
        if ((rc = next(ps)) != 0)
            goto done;
        if (is_punct(ps, '(')) {
            if ((rc = next(ps)) != 0 ||
                (rc = read_int(ps, 1, PM_DECIMAL_MAX_PRECISION, &t->precision, "precision")) != 0)
                goto done;
            t->scale = 0;
            if (is_punct(ps, ',')) {
                if ((rc = next(ps)) != 0 ||
                    (rc = read_int(ps, 0, t->precision, &t->scale, "scale")) != 0)
                    goto done;
            }
            rc = expect_punct(ps, ')');
        }
        goto done;
    }
    if (is_word(ps, "TIME")) {
        if ((t = pm_type_new(PM_TYPE_TIME)) == NULL)
            return pm_nomem(ps->err);
        if ((rc = next(ps)) != 0 || (rc = optional_param(ps, 0, 9, &t->precision, "precision")))
            goto done;
        if (is_word(ps, "WITHOUT")) {
            if ((rc = next(ps)) == 0 && (rc = expect_word(ps, "TIME")) == 0)
                rc = expect_word(ps, "ZONE");
        }
        goto done;
    }
    if (is_word(ps, "TIMESTAMP")) {
        if ((t = pm_type_new(PM_TYPE_TIMESTAMP)) == NULL)
            return pm_nomem(ps->err);
        if ((rc = next(ps)) != 0 || (rc = optional_param(ps, 0, 9, &t->precision, "precision")))
            goto done;
        if (is_word(ps, "WITHOUT")) {
            if ((rc = next(ps)) == 0 && (rc = expect_word(ps, "TIME")) == 0)
                rc = expect_word(ps, "ZONE");
        } else if (is_word(ps, "WITH")) {
            if ((rc = next(ps)) == 0 && (rc = expect_word(ps, "LOCAL")) == 0 &&
                (rc = expect_word(ps, "TIME")) == 0 && (rc = expect_word(ps, "ZONE")) == 0)
                t->id = PM_TYPE_TIMESTAMP_LTZ;
        }
        goto done;
    }
    if (is_word(ps, "TIMESTAMP_LTZ")) {
        if ((t = pm_type_new(PM_TYPE_TIMESTAMP_LTZ)) == NULL)
            return pm_nomem(ps->err);
        if ((rc = next(ps)) == 0)
            rc = optional_param(ps, 0, 9, &t->precision, "precision");
        goto done;
    }
    if (is_word(ps, "ARRAY") || is_word(ps, "MULTISET")) {
        if ((t = pm_type_new(is_word(ps, "ARRAY") ? PM_TYPE_ARRAY : PM_TYPE_MULTISET)) == NULL)
            return pm_nomem(ps->err);
        if ((rc = next(ps)) != 0 || (rc = expect_punct(ps, '<')) != 0 ||
            (rc = parse_type(ps, depth + 1, &t->element, &h)) != 0)
            goto done;
        *height = h + 1;
        rc = expect_punct(ps, '>');
        goto done;
    }
    if (is_word(ps, "MAP")) {
        if ((t = pm_type_new(PM_TYPE_MAP)) == NULL)
            return pm_nomem(ps->err);
        if ((rc = next(ps)) != 0 || (rc = expect_punct(ps, '<')) != 0 ||
            (rc = parse_type(ps, depth + 1, &t->element, &h)) != 0 ||
            (rc = expect_punct(ps, ',')) != 0 ||
            (rc = parse_type(ps, depth + 1, &t->value, &h2)) != 0)
            goto done;
        *height = (h > h2 ? h : h2) + 1;
        rc = expect_punct(ps, '>');
        goto done;
    }
    if (is_word(ps, "ROW")) {
        char close;
        if ((t = pm_type_new(PM_TYPE_ROW)) == NULL)
            return pm_nomem(ps->err);
        if ((rc = next(ps)) != 0)
            goto done;
        if (!is_punct(ps, '<') && !is_punct(ps, '(')) {
            rc = syntax(ps, "'<' expected");
            goto done;
        }
        close = is_punct(ps, '<') ? '>' : ')';
        if ((rc = next(ps)) != 0)
            goto done;
        /* Java's RowType takes an empty field list, but Parquet cannot store an empty group
         * and no engine can write a value of it: refused, as at create. */
        if (is_punct(ps, close)) {
            rc = syntax(ps, "a ROW needs at least one field");
            goto done;
        }
        if ((rc = parse_field_list(ps, t, close, depth + 1, &h)) != 0)
            goto done;
        *height = h + 1;
        rc = expect_punct(ps, close);
        goto done;
    }
    return syntax(ps, ps->kind == TOK_END ? "type expected" : "unknown type");
done:
    if (rc != 0) {
        pm_type_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

/* "NOT NULL" | "NULL" | nothing. */
static int parse_nullability(parser *ps, bool *nullable)
{
    int rc;
    if (is_word(ps, "NOT")) {
        if ((rc = next(ps)) != 0)
            return rc;
        *nullable = false;
        return expect_word(ps, "NULL");
    }
    if (is_word(ps, "NULL")) {
        *nullable = true;
        return next(ps);
    }
    return 0;
}

static int parse_type(parser *ps, int depth, pm_type **out, int *height)
{
    pm_type *t = NULL;
    int rc = parse_base(ps, depth, &t, height);
    if (rc != 0)
        return rc;
    if ((rc = parse_nullability(ps, &t->nullable)) != 0)
        goto done;
    /* Suffix notation: "INT ARRAY", "STRING MULTISET".  Each wraps what came before, so the
     * whole type grows one level deeper. */
    while (is_word(ps, "ARRAY") || is_word(ps, "MULTISET")) {
        pm_type *wrap;
        if (depth + *height + 1 > PM_MAX_NESTING) {
            rc = too_deep(ps);
            goto done;
        }
        (*height)++;
        wrap = pm_type_new(is_word(ps, "ARRAY") ? PM_TYPE_ARRAY : PM_TYPE_MULTISET);
        if (wrap == NULL) {
            rc = pm_nomem(ps->err);
            goto done;
        }
        wrap->element = t;
        t = wrap;
        if ((rc = next(ps)) != 0 || (rc = parse_nullability(ps, &t->nullable)) != 0)
            goto done;
    }
    *out = t;
    return 0;
done:
    pm_type_free(t);
    return rc;
}

/* Java's ReassignFieldId order: inside a row, a field's nested type is numbered before the
 * field itself takes the next id. */
static void assign_nested_ids(pm_type *t, int32_t *counter)
{
    if (t == NULL)
        return;
    assign_nested_ids(t->element, counter);
    assign_nested_ids(t->value, counter);
    for (size_t i = 0; i < t->field_count; i++) {
        assign_nested_ids(t->fields[i].type, counter);
        t->fields[i].id = ++*counter;
    }
}

int pm_type_parse(const char *text, pm_type **out, paimon_error *err)
{
    parser ps = {text, text, TOK_END, text, 0, err};
    pm_type *t = NULL;
    int32_t counter = -1;
    int rc, height;

    *out = NULL;
    if ((rc = next(&ps)) != 0 || (rc = parse_type(&ps, 0, &t, &height)) != 0)
        return rc;
    if (ps.kind != TOK_END) {
        pm_type_free(t);
        return syntax(&ps, "unexpected token");
    }
    assign_nested_ids(t, &counter);
    *out = t;
    return 0;
}

int pm_columns_parse(const char *text, pm_type **out, paimon_error *err)
{
    parser ps = {text, text, TOK_END, text, 0, err};
    pm_type *row = pm_type_new(PM_TYPE_ROW);
    int32_t counter = -1;
    int rc, height;

    *out = NULL;
    if (row == NULL)
        return pm_nomem(err);
    row->nullable = false;
    if ((rc = next(&ps)) != 0)
        goto done;
    if (ps.kind == TOK_END) {
        rc = pm_err_set(err, PAIMON_EINVALID, "columns '%s': no column given", text);
        goto done;
    }
    if ((rc = parse_field_list(&ps, row, '\0', 0, &height)) != 0)
        goto done;
    if (ps.kind != TOK_END) {
        rc = syntax(&ps, "unexpected token");
        goto done;
    }
    /* Schema.Builder.column: the column takes the next id, then its type is renumbered. */
    for (size_t i = 0; i < row->field_count; i++) {
        row->fields[i].id = ++counter;
        assign_nested_ids(row->fields[i].type, &counter);
    }
    *out = row;
    return 0;
done:
    pm_type_free(row);
    return rc;
}

/* ---- formatting ------------------------------------------------------------------------ */

static int format_name(const char *name, pm_buf *out)
{
    bool plain = name[0] != '\0' && (isalpha((unsigned char)name[0]) || name[0] == '_');
    int rc;
    for (const char *p = name; plain && *p != '\0'; p++)
        plain = isalnum((unsigned char)*p) || *p == '_';
    if (plain)
        return pm_buf_puts(out, name);
    if ((rc = pm_buf_putc(out, '`')) != 0)
        return rc;
    for (const char *p = name; *p != '\0'; p++) {
        if (*p == '`' && (rc = pm_buf_putc(out, '`')) != 0)
            return rc;
        if ((rc = pm_buf_putc(out, (uint8_t)*p)) != 0)
            return rc;
    }
    return pm_buf_putc(out, '`');
}

int pm_type_format(const pm_type *t, pm_buf *out)
{
    int rc = 0;
    switch (t->id) {
    case PM_TYPE_BOOLEAN: rc = pm_buf_puts(out, "BOOLEAN"); break;
    case PM_TYPE_TINYINT: rc = pm_buf_puts(out, "TINYINT"); break;
    case PM_TYPE_SMALLINT: rc = pm_buf_puts(out, "SMALLINT"); break;
    case PM_TYPE_INT: rc = pm_buf_puts(out, "INT"); break;
    case PM_TYPE_BIGINT: rc = pm_buf_puts(out, "BIGINT"); break;
    case PM_TYPE_FLOAT: rc = pm_buf_puts(out, "FLOAT"); break;
    case PM_TYPE_DOUBLE: rc = pm_buf_puts(out, "DOUBLE"); break;
    case PM_TYPE_DATE: rc = pm_buf_puts(out, "DATE"); break;
    case PM_TYPE_VARIANT: rc = pm_buf_puts(out, "VARIANT"); break;
    case PM_TYPE_BLOB: rc = pm_buf_puts(out, "BLOB"); break;
    case PM_TYPE_DECIMAL: rc = pm_buf_printf(out, "DECIMAL(%d, %d)", t->precision, t->scale); break;
    case PM_TYPE_CHAR: rc = pm_buf_printf(out, "CHAR(%d)", t->length); break;
    case PM_TYPE_VARCHAR:
        rc = t->length == PM_MAX_LENGTH ? pm_buf_puts(out, "STRING")
                                        : pm_buf_printf(out, "VARCHAR(%d)", t->length);
        break;
    case PM_TYPE_BINARY: rc = pm_buf_printf(out, "BINARY(%d)", t->length); break;
    case PM_TYPE_VARBINARY:
        rc = t->length == PM_MAX_LENGTH ? pm_buf_puts(out, "BYTES")
                                        : pm_buf_printf(out, "VARBINARY(%d)", t->length);
        break;
    case PM_TYPE_TIME: rc = pm_buf_printf(out, "TIME(%d)", t->precision); break;
    case PM_TYPE_TIMESTAMP: rc = pm_buf_printf(out, "TIMESTAMP(%d)", t->precision); break;
    case PM_TYPE_TIMESTAMP_LTZ:
        rc = pm_buf_printf(out, "TIMESTAMP(%d) WITH LOCAL TIME ZONE", t->precision);
        break;
    case PM_TYPE_ARRAY:
    case PM_TYPE_MULTISET:
        if ((rc = pm_buf_puts(out, t->id == PM_TYPE_ARRAY ? "ARRAY<" : "MULTISET<")) == 0 &&
            (rc = pm_type_format(t->element, out)) == 0)
            rc = pm_buf_putc(out, '>');
        break;
    case PM_TYPE_MAP:
        if ((rc = pm_buf_puts(out, "MAP<")) == 0 && (rc = pm_type_format(t->element, out)) == 0 &&
            (rc = pm_buf_puts(out, ", ")) == 0 && (rc = pm_type_format(t->value, out)) == 0)
            rc = pm_buf_putc(out, '>');
        break;
    case PM_TYPE_ROW:
        rc = pm_buf_puts(out, "ROW<");
        for (size_t i = 0; rc == 0 && i < t->field_count; i++) {
            if (i > 0 && (rc = pm_buf_puts(out, ", ")) != 0)
                break;
            if ((rc = format_name(t->fields[i].name, out)) == 0 &&
                (rc = pm_buf_putc(out, ' ')) == 0)
                rc = pm_type_format(t->fields[i].type, out);
        }
        if (rc == 0)
            rc = pm_buf_putc(out, '>');
        break;
    }
    if (rc == 0 && !t->nullable)
        rc = pm_buf_puts(out, " NOT NULL");
    return rc;
}
