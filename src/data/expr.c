/* Filter expressions: see expr.h. */
#include "data/expr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/cast.h"
#include "util/alloc.h"
#include "util/error.h"

#define ECHO_MAX  100 /* bytes of the expression quoted in a message */
#define TOKEN_MAX 40  /* bytes of the offending token quoted in a message */

typedef enum tok {
    T_END,
    T_WORD,   /* identifier or keyword */
    T_QUOTED, /* `name` */
    T_STRING, /* 'text' */
    T_NUMBER,
    T_OP, /* = != <> < <= > >= */
    T_LPAREN,
    T_RPAREN,
    T_COMMA
} tok;

typedef struct lexer {
    const char *text;
    const char *p;
    tok kind;
    const char *start;
    size_t len;
    const pm_type *row;
    paimon_error *err;
    pm_buf scratch;     /* unquoted strings */
    const char *column; /* the column a literal is for, named in errors; or NULL */
    int depth;          /* parentheses and NOTs open at the cursor */
} lexer;

/* The expression for a message: at most ECHO_MAX bytes of it. */
#define ECHO(lx)                                                                                   \
    (strlen((lx)->text) > ECHO_MAX ? ECHO_MAX : (int)strlen((lx)->text)), (lx)->text,              \
        (strlen((lx)->text) > ECHO_MAX ? "..." : "")

static int fail(lexer *lx, const char *what)
{
    const char *sep = lx->column != NULL ? ": " : "";
    const char *col = lx->column != NULL ? lx->column : "";
    if (lx->kind == T_END)
        return pm_err_set(lx->err, PAIMON_EINVALID, "expression '%.*s%s': %s%s%s at the end",
                          ECHO(lx), col, sep, what);
    return pm_err_set(lx->err, PAIMON_EINVALID,
                      "expression '%.*s%s': %s%s%s at position %zu ('%.*s%s')", ECHO(lx), col, sep,
                      what, (size_t)(lx->start - lx->text) + 1,
                      lx->len > TOKEN_MAX ? TOKEN_MAX : (int)lx->len, lx->start,
                      lx->len > TOKEN_MAX ? "..." : "");
}

static int next(lexer *lx)
{
    const char *p = lx->p;
    while (isspace((unsigned char)*p))
        p++;
    lx->start = p;
    if (*p == '\0') {
        lx->kind = T_END;
    } else if (isalpha((unsigned char)*p) || *p == '_') {
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        lx->kind = T_WORD;
    } else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1])) ||
               ((*p == '-' || *p == '+') &&
                (isdigit((unsigned char)p[1]) || (p[1] == '.' && isdigit((unsigned char)p[2]))))) {
        p++;
        while (isalnum((unsigned char)*p) || *p == '.' ||
               ((*p == '-' || *p == '+') && (p[-1] == 'e' || p[-1] == 'E')))
            p++;
        lx->kind = T_NUMBER;
    } else if (*p == '\'' || *p == '`') {
        char q = *p++;
        for (;;) {
            if (*p == '\0') {
                lx->p = p;
                lx->len = (size_t)(p - lx->start);
                lx->kind = T_STRING;
                return fail(lx, q == '`' ? "unterminated quoted name" : "unterminated string");
            }
            if (*p == q) {
                if (p[1] == q) {
                    p += 2;
                    continue;
                }
                p++;
                break;
            }
            p++;
        }
        lx->kind = q == '`' ? T_QUOTED : T_STRING;
    } else if (*p == '(' || *p == ')' || *p == ',') {
        lx->kind = *p == '(' ? T_LPAREN : *p == ')' ? T_RPAREN : T_COMMA;
        p++;
    } else if (*p == '=' || *p == '<' || *p == '>' || *p == '!') {
        if ((p[0] == '<' && (p[1] == '=' || p[1] == '>')) || (p[0] == '>' && p[1] == '=') ||
            (p[0] == '!' && p[1] == '='))
            p += 2;
        else if (*p == '!') {
            lx->len = 1;
            lx->p = p + 1;
            lx->kind = T_OP;
            return fail(lx, "'!' must be '!='");
        } else
            p++;
        lx->kind = T_OP;
    } else {
        lx->len = 1;
        lx->p = p + 1;
        lx->kind = T_OP;
        return fail(lx, "unexpected character");
    }
    lx->len = (size_t)(p - lx->start);
    lx->p = p;
    return 0;
}

static bool word(const lexer *lx, const char *kw)
{
    return lx->kind == T_WORD && strlen(kw) == lx->len && strncasecmp(lx->start, kw, lx->len) == 0;
}

/* Words of the grammar that can never name a column unless back-quoted. */
static bool keyword(const lexer *lx)
{
    static const char *const KEYWORDS[] = {"AND", "OR", "NOT", "IN", "IS", "BETWEEN", "LIKE"};
    for (size_t i = 0; i < sizeof(KEYWORDS) / sizeof(KEYWORDS[0]); i++)
        if (word(lx, KEYWORDS[i]))
            return true;
    return false;
}

/* The text of a quoted token without quotes, undoubled, in lx->scratch. */
static int unquote(lexer *lx)
{
    char q = lx->start[0];
    pm_buf_reset(&lx->scratch);
    for (size_t i = 1; i + 1 < lx->len; i++) {
        if (pm_buf_putc(&lx->scratch, (uint8_t)lx->start[i]) != 0)
            return pm_nomem(lx->err);
        if (lx->start[i] == q)
            i++;
    }
    pm_buf_cstr(&lx->scratch);
    return 0;
}

/* ---- columns and literals ---------------------------------------------------------------- */

static int column(lexer *lx, int *col)
{
    char name[256];
    size_t idx;
    int rc;
    if (keyword(lx))
        return fail(lx, "a column expected, not a keyword (back-quote a column of that name)");
    if (lx->kind == T_WORD) {
        if (lx->len >= sizeof(name))
            return fail(lx, "column name too long");
        memcpy(name, lx->start, lx->len);
        name[lx->len] = '\0';
    } else if (lx->kind == T_QUOTED) {
        if ((rc = unquote(lx)) != 0)
            return rc;
        snprintf(name, sizeof(name), "%s", pm_buf_cstr(&lx->scratch));
    } else {
        return fail(lx, "column name expected");
    }
    if (pm_type_field_by_name(lx->row, name, &idx) == NULL) {
        bool found = false;
        for (size_t i = 0; i < lx->row->field_count && !found; i++)
            if (strcasecmp(lx->row->fields[i].name, name) == 0) {
                idx = i;
                found = true;
            }
        if (!found)
            return pm_err_set(lx->err, PAIMON_ENOTFOUND,
                              "%s: unknown column in expression '%.*s%s'", name, ECHO(lx));
    }
    if (pm_type_is_nested(lx->row->fields[idx].type))
        return pm_err_set(lx->err, PAIMON_EINVALID,
                          "%s: filters on nested columns are not "
                          "supported",
                          name);
    *col = (int)idx;
    return next(lx);
}

static bool is_column_token(const lexer *lx)
{
    if (lx->kind == T_QUOTED)
        return true;
    return lx->kind == T_WORD && !keyword(lx) && !word(lx, "TRUE") && !word(lx, "FALSE") &&
           !word(lx, "NULL") && !word(lx, "DATE") && !word(lx, "TIME") && !word(lx, "TIMESTAMP") &&
           !(lx->len == 1 && (lx->start[0] == 'X' || lx->start[0] == 'x') && lx->p[0] == '\'');
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Parses one literal and converts it to `t`; text goes to `store` (kept alive by the
 * caller until the predicate has copied it). */
static int literal(lexer *lx, const pm_type *t, pm_buf *store, pm_datum *out)
{
    pm_type text_type, *from = NULL;
    pm_datum in;
    char num[128]; /* a number's text: `in` points here until the cast below */
    int rc;
    memset(&text_type, 0, sizeof(text_type));
    text_type.id = PM_TYPE_VARCHAR;
    text_type.length = PM_MAX_LENGTH;
    in.is_null = false;

    if (word(lx, "NULL")) {
        *out = pm_datum_null();
        return next(lx);
    }
    if (word(lx, "TRUE") || word(lx, "FALSE")) {
        if (t->id != PM_TYPE_BOOLEAN)
            return fail(lx, "a boolean literal for a column that is not BOOLEAN");
        out->is_null = false;
        out->v.b = word(lx, "TRUE");
        return next(lx);
    }
    if (word(lx, "DATE") || word(lx, "TIME") || word(lx, "TIMESTAMP")) {
        const char *kw = word(lx, "DATE") ? "DATE" : word(lx, "TIME") ? "TIME" : "TIMESTAMP";
        if ((rc = next(lx)) != 0)
            return rc;
        if (lx->kind != T_STRING)
            return fail(lx, "a quoted value expected after the type");
        if ((kw[1] == 'A' && t->id != PM_TYPE_DATE && t->id != PM_TYPE_TIMESTAMP &&
             t->id != PM_TYPE_TIMESTAMP_LTZ) ||
            (strcmp(kw, "TIME") == 0 && t->id != PM_TYPE_TIME) ||
            (strcmp(kw, "TIMESTAMP") == 0 && t->id != PM_TYPE_TIMESTAMP &&
             t->id != PM_TYPE_TIMESTAMP_LTZ))
            return fail(lx, "the literal's type does not match the column");
    }
    if (lx->kind == T_WORD && lx->len == 1 && (lx->start[0] == 'X' || lx->start[0] == 'x')) {
        size_t start;
        if ((rc = next(lx)) != 0)
            return rc;
        if (lx->kind != T_STRING || (rc = unquote(lx)) != 0)
            return rc != 0 ? rc : fail(lx, "hex digits in quotes expected");
        if (!pm_type_is_binary(t))
            return fail(lx, "a binary literal for a column that is not BINARY/VARBINARY");
        if (lx->scratch.len % 2 != 0)
            return fail(lx, "an odd number of hex digits");
        start = store->len;
        for (size_t i = 0; i < lx->scratch.len; i += 2) {
            int hi = hexval((char)lx->scratch.data[i]), lo = hexval((char)lx->scratch.data[i + 1]);
            if (hi < 0 || lo < 0)
                return fail(lx, "not a hex digit");
            if (pm_buf_putc(store, (uint8_t)(hi << 4 | lo)) != 0)
                return pm_nomem(lx->err);
        }
        *out = pm_datum_bytes((const void *)(uintptr_t)start, lx->scratch.len / 2);
        out->v.s.ptr = NULL; /* fixed up by the caller: store may move */
        out->v.s.len = lx->scratch.len / 2;
        out->v.i = (int64_t)start; /* offset into store, see finish_literal */
        return next(lx);
    }
    if (lx->kind == T_STRING) {
        if ((rc = unquote(lx)) != 0)
            return rc;
        in = pm_datum_bytes(lx->scratch.data, lx->scratch.len);
        from = &text_type;
    } else if (lx->kind == T_NUMBER) {
        if (lx->len >= sizeof(num))
            return fail(lx, "number too long");
        memcpy(num, lx->start, lx->len);
        num[lx->len] = '\0';
        if (pm_type_is_string(t) || pm_type_is_binary(t) || t->id == PM_TYPE_BOOLEAN ||
            t->id == PM_TYPE_DATE || t->id == PM_TYPE_TIME || t->id == PM_TYPE_TIMESTAMP ||
            t->id == PM_TYPE_TIMESTAMP_LTZ)
            return fail(lx, "a number for a column that is not numeric");
        in = pm_datum_bytes(num, lx->len);
        from = &text_type;
        if (t->id != PM_TYPE_FLOAT && t->id != PM_TYPE_DOUBLE && t->id != PM_TYPE_DECIMAL &&
            strpbrk(num, ".eE") != NULL)
            return fail(lx, "not an integer (the column is an integer type)");
        if (t->id == PM_TYPE_DECIMAL) {
            /* no digit may be lost */
            const char *dot = strchr(num, '.');
            size_t frac = 0;
            if (strpbrk(num, "eE") != NULL)
                return fail(lx, "write DECIMAL literals without an exponent");
            if (dot != NULL) {
                frac = strlen(dot + 1);
                while (frac > 0 && dot[frac] == '0')
                    frac--;
            }
            if (frac > (size_t)t->scale)
                return fail(lx, "the literal has more fraction digits than the column's scale");
        }
    } else {
        return fail(lx, "literal expected");
    }
    {
        paimon_error cast_err;
        pm_buf tmp;
        pm_buf_init(&tmp, 0);
        /* A text result points into `tmp`: copy it to `store` before `tmp` goes. */
        rc = pm_cast_datum(from, &in, t, &tmp, out, lx->text, &cast_err);
        if (rc == 0 && !out->is_null && (pm_type_is_string(t) || pm_type_is_binary(t))) {
            size_t start = store->len;
            if (pm_buf_append(store, out->v.s.ptr, out->v.s.len) != 0)
                rc = pm_nomem(lx->err);
            out->v.i = (int64_t)start;
            out->v.s.len = store->len - start;
        }
        pm_buf_free(&tmp);
        if (rc == PAIMON_ENOMEM)
            return pm_nomem(lx->err); /* the cast's message went to cast_err */
        if (rc != 0 || out->is_null) {
            char what[160];
            pm_buf tn;
            pm_buf_init(&tn, 0);
            if (pm_type_format(t, &tn) != 0) {
                pm_buf_free(&tn);
                return pm_nomem(lx->err);
            }
            snprintf(what, sizeof(what), "the literal %s %s",
                     rc != 0 ? "does not convert to" : "does not fit", pm_buf_cstr(&tn));
            pm_buf_free(&tn);
            return fail(lx, what);
        }
    }
    return next(lx);
}

/* String and binary literals hold offsets into `store` while it may grow: point them now. */
static void finish_literal(const pm_type *t, pm_datum *d, const pm_buf *store)
{
    if (!d->is_null && (pm_type_is_string(t) || pm_type_is_binary(t))) {
        size_t len = d->v.s.len;
        size_t off = (size_t)d->v.i;
        d->v.s.ptr = store->data + off;
        d->v.s.len = len;
    }
}

/* ---- grammar -------------------------------------------------------------------------------- */

static int parse_or(lexer *lx, pm_predicate **out);

static int comparison_op(const lexer *lx, pm_pred_op *op, bool flip)
{
    static const struct {
        const char *text;
        pm_pred_op op, flipped;
    } ops[] = {{"=", PM_PRED_EQ, PM_PRED_EQ},  {"!=", PM_PRED_NE, PM_PRED_NE},
               {"<>", PM_PRED_NE, PM_PRED_NE}, {"<", PM_PRED_LT, PM_PRED_GT},
               {"<=", PM_PRED_LE, PM_PRED_GE}, {">", PM_PRED_GT, PM_PRED_LT},
               {">=", PM_PRED_GE, PM_PRED_LE}};
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (lx->kind == T_OP && strlen(ops[i].text) == lx->len &&
            strncmp(lx->start, ops[i].text, lx->len) == 0) {
            *op = flip ? ops[i].flipped : ops[i].op;
            return 1;
        }
    return 0;
}

static int parse_test(lexer *lx, pm_predicate **out)
{
    int col, rc;
    pm_pred_op op;
    pm_buf store;
    const pm_type *t;

    if (keyword(lx))
        return fail(lx, "a column or a literal expected, not a keyword");
    if (!is_column_token(lx)) {
        /* literal op column: find the column first (its type converts the literal), then
         * parse the literal with a second lexer started at the literal's first token. */
        const char *lit_start = lx->start;
        lexer lit_lx;
        pm_datum lit;
        while (lx->kind != T_END && lx->kind != T_OP && lx->kind != T_LPAREN &&
               lx->kind != T_RPAREN)
            if ((rc = next(lx)) != 0)
                return rc;
        if (!comparison_op(lx, &op, true))
            return fail(lx, "a column or a comparison expected");
        if ((rc = next(lx)) != 0 || (rc = column(lx, &col)) != 0)
            return rc;
        t = lx->row->fields[col].type;
        memset(&lit_lx, 0, sizeof(lit_lx));
        lit_lx.text = lx->text;
        lit_lx.p = lit_start;
        lit_lx.row = lx->row;
        lit_lx.err = lx->err;
        pm_buf_init(&lit_lx.scratch, 0);
        pm_buf_init(&store, 0);
        rc = next(&lit_lx);
        if (rc == 0)
            rc = literal(&lit_lx, t, &store, &lit);
        if (rc == 0 && lit_lx.kind != T_OP)
            rc = fail(&lit_lx, "a comparison expected after the literal");
        if (rc == 0) {
            finish_literal(t, &lit, &store);
            rc = pm_predicate_compare(out, op, lx->row, col, &lit, lx->err);
        }
        pm_buf_free(&lit_lx.scratch);
        pm_buf_free(&store);
        return rc;
    }
    if ((rc = column(lx, &col)) != 0)
        return rc;
    t = lx->row->fields[col].type;
    if (word(lx, "IS")) {
        bool negated = false;
        if ((rc = next(lx)) != 0)
            return rc;
        if (word(lx, "NOT")) {
            negated = true;
            if ((rc = next(lx)) != 0)
                return rc;
        }
        if (!word(lx, "NULL"))
            return fail(lx, "NULL expected after IS");
        if ((rc = next(lx)) != 0)
            return rc;
        return pm_predicate_is_null(out, lx->row, col, negated, lx->err);
    }
    if (word(lx, "NOT") || word(lx, "IN")) {
        bool negated = word(lx, "NOT");
        pm_datum *lits = NULL;
        size_t n = 0, cap = 0;
        if (negated && ((rc = next(lx)) != 0 || !word(lx, "IN")))
            return rc != 0 ? rc : fail(lx, "IN expected after NOT");
        if ((rc = next(lx)) != 0)
            return rc;
        if (lx->kind != T_LPAREN)
            return fail(lx, "'(' expected after IN");
        pm_buf_init(&store, 0);
        do {
            if ((rc = next(lx)) != 0)
                break;
            if (n == cap) {
                size_t ncap = cap == 0 ? 8 : cap * 2;
                pm_datum *g = pm_realloc(lits, ncap * sizeof(*g));
                if (g == NULL) {
                    rc = pm_nomem(lx->err);
                    break;
                }
                lits = g;
                cap = ncap;
            }
            lx->column = lx->row->fields[col].name;
            rc = literal(lx, t, &store, &lits[n]);
            lx->column = NULL;
            if (rc != 0)
                break;
            n++;
        } while (lx->kind == T_COMMA);
        if (rc == 0 && lx->kind != T_RPAREN)
            rc = fail(lx, "',' or ')' expected in the IN list");
        if (rc == 0 && (rc = next(lx)) == 0) {
            pm_predicate *in = NULL;
            for (size_t i = 0; i < n; i++)
                finish_literal(t, &lits[i], &store);
            rc = pm_predicate_in(&in, lx->row, col, lits, n, lx->err);
            if (rc == 0)
                rc = negated ? pm_predicate_not(out, in, lx->err) : (*out = in, 0);
        }
        pm_free(lits);
        pm_buf_free(&store);
        return rc;
    }
    if (!comparison_op(lx, &op, false))
        return fail(lx, "a comparison, IN or IS expected after the column");
    if ((rc = next(lx)) != 0)
        return rc;
    {
        pm_datum lit;
        pm_buf_init(&store, 0);
        lx->column = lx->row->fields[col].name;
        rc = literal(lx, t, &store, &lit);
        lx->column = NULL;
        if (rc == 0) {
            finish_literal(t, &lit, &store);
            rc = pm_predicate_compare(out, op, lx->row, col, &lit, lx->err);
        }
        pm_buf_free(&store);
        return rc;
    }
}

/* Enters one more level of NOT or parentheses at the current token. */
static int enter(lexer *lx)
{
    char what[64];
    if (lx->depth < PM_EXPR_MAX_DEPTH) {
        lx->depth++;
        return 0;
    }
    snprintf(what, sizeof(what), "expression nested deeper than %d levels", PM_EXPR_MAX_DEPTH);
    return fail(lx, what);
}

static int parse_factor(lexer *lx, pm_predicate **out)
{
    int rc;
    if (word(lx, "NOT")) {
        pm_predicate *inner = NULL;
        if ((rc = enter(lx)) != 0 || (rc = next(lx)) != 0 || (rc = parse_factor(lx, &inner)) != 0)
            return rc;
        lx->depth--;
        return pm_predicate_not(out, inner, lx->err);
    }
    if (lx->kind == T_LPAREN) {
        if ((rc = enter(lx)) != 0 || (rc = next(lx)) != 0 || (rc = parse_or(lx, out)) != 0)
            return rc;
        lx->depth--;
        if (lx->kind != T_RPAREN)
            rc = fail(lx, "')' expected");
        else
            rc = next(lx);
        if (rc != 0) { /* the caller takes no predicate from a failure */
            pm_predicate_free(*out);
            *out = NULL;
        }
        return rc;
    }
    if (word(lx, "TRUE") || word(lx, "FALSE")) {
        /* A constant, unless a comparison follows (`TRUE = flag`). */
        bool v = word(lx, "TRUE");
        const char *p = lx->p;
        while (isspace((unsigned char)*p))
            p++;
        if (strchr("=<>!", *p) == NULL || *p == '\0') {
            if ((rc = next(lx)) != 0)
                return rc;
            return pm_predicate_const(out, v, lx->err);
        }
    }
    return parse_test(lx, out);
}

static int parse_list(lexer *lx, pm_predicate **out, bool is_or)
{
    pm_predicate **items = NULL;
    size_t n = 0, cap = 0;
    int rc;
    for (;;) {
        pm_predicate *p = NULL;
        rc = is_or ? parse_list(lx, &p, false) : parse_factor(lx, &p);
        if (rc != 0)
            break;
        if (n == cap) {
            size_t ncap = cap == 0 ? 4 : cap * 2;
            pm_predicate **g = pm_realloc(items, ncap * sizeof(*g));
            if (g == NULL) {
                pm_predicate_free(p);
                rc = pm_nomem(lx->err);
                break;
            }
            items = g;
            cap = ncap;
        }
        items[n++] = p;
        if (!word(lx, is_or ? "OR" : "AND"))
            break;
        if ((rc = next(lx)) != 0)
            break;
    }
    if (rc == 0) {
        if (n == 1) {
            *out = items[0];
        } else {
            rc = is_or ? pm_predicate_or(out, items, n, lx->err)
                       : pm_predicate_and(out, items, n, lx->err);
        }
    } else {
        for (size_t i = 0; i < n; i++)
            pm_predicate_free(items[i]);
    }
    pm_free(items);
    return rc;
}

static int parse_or(lexer *lx, pm_predicate **out)
{
    return parse_list(lx, out, true);
}

int pm_expr_parse(const char *text, const pm_type *row, pm_predicate **out, paimon_error *err)
{
    lexer lx;
    int rc;
    memset(&lx, 0, sizeof(lx));
    lx.text = text;
    lx.p = text;
    lx.row = row;
    lx.err = err;
    pm_buf_init(&lx.scratch, 0);
    *out = NULL;
    rc = next(&lx);
    if (rc == 0 && lx.kind == T_END)
        rc = fail(&lx, "an expression expected");
    if (rc == 0)
        rc = parse_or(&lx, out);
    if (rc == 0 && lx.kind != T_END) {
        pm_predicate_free(*out);
        *out = NULL;
        rc = fail(&lx, "unexpected token");
    }
    pm_buf_free(&lx.scratch);
    return rc;
}
