/*
 * Paimon values <-> SQLite values for the `paimon` virtual-table module (docs/SQL.md).
 *
 * Reading: the cursor gives every value as its canonical text (shared/spec/canonical-rows.md);
 * ps_result() turns it into the SQLite value of the column's class: integers and booleans as
 * INTEGER, FLOAT and DOUBLE as REAL, DECIMAL(p <= 15) as REAL (15 digits are exact in a
 * double) and wider decimals as TEXT, dates, times and timestamps as TEXT in their canonical
 * form (so SQLite's date functions and text comparisons work), binary as BLOB, nested types
 * as TEXT holding canonical JSON (json_extract() takes it).
 *
 * Pushdown: ps_literal() writes the Paimon filter literal of a constraint's value only when
 * Paimon's comparison agrees with SQLite's (an INTEGER against an integer column, a TEXT in
 * the exact canonical shape against a date or timestamp, ...): a pushed filter may only drop
 * rows SQLite would drop too, and SQLite still applies every constraint itself.
 *
 * Writing: ps_value_get() checks a value against its column (type, range, NOT NULL) at the
 * statement, so that a bad value fails the statement that wrote it, naming table and column.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite_int.h"

static int prefix(const char *s, const char *p)
{
    return strncasecmp(s, p, strlen(p)) == 0;
}

/* "(p" or "(p, s" after the type name: the numbers, -1 when absent. */
static void params(const char *s, int *a, int *b)
{
    const char *open = strchr(s, '(');
    *a = -1;
    *b = 0;
    if (open == NULL || strchr(s, '<') != NULL)
        return;
    *a = (int)strtol(open + 1, NULL, 10);
    const char *comma = strchr(open, ',');
    if (comma != NULL)
        *b = (int)strtol(comma + 1, NULL, 10);
}

int ps_column_init(ps_column *col, const char *type)
{
    size_t len = strlen(type);
    const char *nn = " NOT NULL";
    col->not_null = len > strlen(nn) && strcasecmp(type + len - strlen(nn), nn) == 0 &&
                    type[len - strlen(nn) - 1] != '>';
    if (col->not_null)
        len -= strlen(nn);
    if ((col->type = sqlite3_mprintf("%.*s", (int)len, type)) == NULL)
        return -1;
    col->precision = -1;
    col->scale = 0;
    col->min_int = INT64_MIN;
    col->max_int = INT64_MAX;
    const char *t = col->type;
    if (prefix(t, "ARRAY") || prefix(t, "MAP") || prefix(t, "MULTISET") || prefix(t, "ROW"))
        col->cls = PS_JSON;
    else if (prefix(t, "TINYINT")) {
        col->cls = PS_INT;
        col->min_int = INT8_MIN;
        col->max_int = INT8_MAX;
    } else if (prefix(t, "SMALLINT")) {
        col->cls = PS_INT;
        col->min_int = INT16_MIN;
        col->max_int = INT16_MAX;
    } else if (prefix(t, "INT") || prefix(t, "INTEGER")) {
        col->cls = PS_INT;
        col->min_int = INT32_MIN;
        col->max_int = INT32_MAX;
    } else if (prefix(t, "BIGINT"))
        col->cls = PS_INT;
    else if (prefix(t, "BOOLEAN"))
        col->cls = PS_BOOL;
    else if (prefix(t, "FLOAT"))
        col->cls = PS_FLOAT;
    else if (prefix(t, "DOUBLE"))
        col->cls = PS_DOUBLE;
    else if (prefix(t, "DECIMAL")) {
        col->cls = PS_DECIMAL;
        params(t, &col->precision, &col->scale);
    } else if (prefix(t, "BINARY") || prefix(t, "VARBINARY") || prefix(t, "BYTES"))
        col->cls = PS_BLOB;
    else if (prefix(t, "DATE"))
        col->cls = PS_DATE;
    else if (prefix(t, "TIMESTAMP")) {
        col->cls = PS_TIMESTAMP;
        params(t, &col->precision, &col->scale);
        if (col->precision < 0)
            col->precision = 6;
    } else if (prefix(t, "TIME")) {
        col->cls = PS_TIME;
        params(t, &col->precision, &col->scale);
        if (col->precision < 0)
            col->precision = 0;
    } else
        col->cls = PS_TEXT; /* CHAR, VARCHAR, STRING (and anything newer, as text) */
    return 0;
}

void ps_column_clear(ps_column *col)
{
    sqlite3_free(col->name);
    sqlite3_free(col->type);
    col->name = col->type = NULL;
}

const char *ps_column_decltype(const ps_column *col)
{
    /* SQLite derives the affinity from the declared name: INT -> INTEGER, CHAR/TEXT -> TEXT,
     * BLOB -> BLOB, REAL/FLOA/DOUB -> REAL, anything else NUMERIC.  The names keep the Paimon
     * type where the affinity is right, so `paimon sql` prints canonical values by them. */
    switch (col->cls) {
    case PS_INT:
        return col->max_int == INT8_MAX    ? "TINYINT"
               : col->max_int == INT16_MAX ? "SMALLINT"
               : col->max_int == INT32_MAX ? "INT"
                                           : "BIGINT";
    case PS_BOOL: return "BOOLEAN";
    case PS_FLOAT: return "FLOAT";
    case PS_DOUBLE: return "DOUBLE";
    case PS_DECIMAL:
        return NULL; /* ps_column_declare() writes DECIMAL(p, s): printers need the scale */
    case PS_TEXT: return "TEXT";
    case PS_BLOB: return "BLOB";
    case PS_DATE: return "DATE";
    case PS_TIME: return "TIME";
    case PS_TIMESTAMP: return "TIMESTAMP";
    case PS_JSON: return "JSON";
    }
    return "TEXT";
}

/* ---- base64 --------------------------------------------------------------------------- */

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *ps_base64_encode(const unsigned char *b, size_t len)
{
    char *out = sqlite3_malloc64((len + 2) / 3 * 4 + 1), *p = out;
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)b[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)b[i + 1] << 8;
        if (i + 2 < len)
            v |= b[i + 2];
        *p++ = B64[(v >> 18) & 63];
        *p++ = B64[(v >> 12) & 63];
        *p++ = i + 1 < len ? B64[(v >> 6) & 63] : '=';
        *p++ = i + 2 < len ? B64[v & 63] : '=';
    }
    *p = '\0';
    return out;
}

unsigned char *ps_base64_decode(const char *text, size_t len, size_t *out_len)
{
    unsigned char *out;
    size_t n = 0, pad = 0;
    uint32_t acc = 0;
    int bits = 0;
    if (len % 4 != 0 || (out = sqlite3_malloc64(len / 4 * 3 + 1)) == NULL)
        return NULL;
    /* '=' only as the last one or two characters: one elsewhere was read as the end of the
     * value, and "AB=A" decoded to one byte */
    if (len > 0 && text[len - 1] == '=')
        pad = len > 1 && text[len - 2] == '=' ? 2 : 1;
    for (size_t i = 0; i < len - pad; i++) {
        const char *at;
        if (text[i] == '\0' || (at = strchr(B64, text[i])) == NULL) {
            sqlite3_free(out);
            return NULL;
        }
        acc = (acc << 6) | (uint32_t)(at - B64);
        if ((bits += 6) >= 8) {
            bits -= 8;
            out[n++] = (unsigned char)(acc >> bits);
        }
    }
    /* the bits the padding leaves over are zero in the encoding of any value */
    if ((acc & ((1u << bits) - 1)) != 0) {
        sqlite3_free(out);
        return NULL;
    }
    *out_len = n;
    return out;
}

/* ---- results -------------------------------------------------------------------------- */

/* A canonical integer ("-12") without strtoll's locale and errno work. */
static int64_t parse_int(const char *s, size_t len)
{
    uint64_t v = 0;
    size_t i = 0;
    int neg = len > 0 && s[0] == '-';
    for (i = (size_t)neg; i < len; i++)
        v = v * 10 + (uint64_t)(s[i] - '0');
    return neg ? (int64_t)(0 - v) : (int64_t)v;
}

void ps_result(sqlite3_context *ctx, const ps_column *col, const char *text, size_t len)
{
    if (text == NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    switch (col->cls) {
    case PS_INT: sqlite3_result_int64(ctx, parse_int(text, len)); return;
    case PS_BOOL: sqlite3_result_int(ctx, text[0] == 't'); return;
    case PS_FLOAT:
    case PS_DOUBLE:
        if (strcmp(text, "NaN") == 0)
            sqlite3_result_text(ctx, "NaN", 3, SQLITE_STATIC);
        else if (strcmp(text, "Infinity") == 0)
            sqlite3_result_double(ctx, HUGE_VAL);
        else if (strcmp(text, "-Infinity") == 0)
            sqlite3_result_double(ctx, -HUGE_VAL);
        else
            sqlite3_result_double(ctx, strtod(text, NULL));
        return;
    case PS_DECIMAL:
        if (col->precision >= 0 && col->precision <= 15)
            sqlite3_result_double(ctx, strtod(text, NULL));
        else
            sqlite3_result_text(ctx, text, (int)len, SQLITE_TRANSIENT);
        return;
    case PS_BLOB: {
        size_t n = 0;
        unsigned char *b = NULL;
        if (len >= 7 && memcmp(text, "base64:", 7) == 0)
            b = ps_base64_decode(text + 7, len - 7, &n);
        if (b == NULL)
            sqlite3_result_error(ctx, "paimon: a binary value that is not base64", -1);
        else
            sqlite3_result_blob64(ctx, b, n, sqlite3_free);
        return;
    }
    default: sqlite3_result_text(ctx, text, (int)len, SQLITE_TRANSIENT); return;
    }
}

/* ---- pushdown literals ---------------------------------------------------------------- */

/* Text exactly in the canonical shape of `col` ("YYYY-MM-DD", "YYYY-MM-DD HH:MM:SS.fff" with
 * p digits): then text order is time order, as SQLite compares it. */
static int canonical_shape(const ps_column *col, const unsigned char *s, int n)
{
    const char *date = "dddd-dd-dd", *time = "dd:dd:dd";
    char shape[48];
    if (col->cls == PS_DATE)
        snprintf(shape, sizeof(shape), "%s", date);
    else if (col->cls == PS_TIME)
        snprintf(shape, sizeof(shape), "%s%s", time, col->precision > 0 ? "." : "");
    else
        snprintf(shape, sizeof(shape), "%s %s%s", date, time, col->precision > 0 ? "." : "");
    size_t base = strlen(shape);
    if (col->cls != PS_DATE)
        for (int i = 0; i < col->precision && base + 1 < sizeof(shape); i++)
            shape[base++] = 'd';
    shape[base] = '\0';
    if ((size_t)n != base)
        return 0;
    for (int i = 0; i < n; i++)
        if (shape[i] == 'd' ? !isdigit(s[i]) : (unsigned char)shape[i] != s[i])
            return 0;
    return 1;
}

int ps_literal(sqlite3_str *out, const ps_column *col, sqlite3_value *v)
{
    int t = sqlite3_value_type(v);
    switch (col->cls) {
    case PS_INT:
    case PS_DECIMAL:
        if (t != SQLITE_INTEGER)
            return 1;
        sqlite3_str_appendf(out, "%lld", (long long)sqlite3_value_int64(v));
        return 0;
    case PS_BOOL:
        if (t != SQLITE_INTEGER || (sqlite3_value_int64(v) != 0 && sqlite3_value_int64(v) != 1))
            return 1;
        sqlite3_str_appendall(out, sqlite3_value_int64(v) ? "TRUE" : "FALSE");
        return 0;
    case PS_FLOAT:
    case PS_DOUBLE: {
        /* FLOAT values are widened to REAL, so SQLite compares them as doubles too. */
        double d;
        if (t == SQLITE_INTEGER)
            sqlite3_str_appendf(out, "%lld", (long long)sqlite3_value_int64(v));
        else if (t == SQLITE_FLOAT && isfinite(d = sqlite3_value_double(v))) {
            char buf[40];
            snprintf(buf, sizeof(buf), "%.17g", d);
            sqlite3_str_appendall(out, buf);
            if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
                sqlite3_str_appendall(out, ".0"); /* a decimal literal, not an integer */
        } else
            return 1;
        return 0;
    }
    case PS_TEXT: {
        if (t != SQLITE_TEXT)
            return 1;
        const char *s = (const char *)sqlite3_value_text(v);
        int n = sqlite3_value_bytes(v);
        if (memchr(s, '\0', (size_t)n) != NULL)
            return 1;
        sqlite3_str_appendchar(out, 1, '\'');
        for (int i = 0; i < n; i++) {
            if (s[i] == '\'')
                sqlite3_str_appendchar(out, 1, '\'');
            sqlite3_str_appendchar(out, 1, s[i]);
        }
        sqlite3_str_appendchar(out, 1, '\'');
        return 0;
    }
    case PS_DATE:
    case PS_TIME:
    case PS_TIMESTAMP: {
        if (t != SQLITE_TEXT)
            return 1;
        const unsigned char *s = sqlite3_value_text(v);
        int n = sqlite3_value_bytes(v);
        if (!canonical_shape(col, s, n) || strstr(col->type, "LOCAL") != NULL)
            return 1;
        sqlite3_str_appendf(out, "%s '%.*s'",
                            col->cls == PS_DATE   ? "DATE"
                            : col->cls == PS_TIME ? "TIME"
                                                  : "TIMESTAMP",
                            n, (const char *)s);
        return 0;
    }
    default: return 1;
    }
}

/* ---- written values ------------------------------------------------------------------- */

static int fail(char **errmsg, int code, const char *table, const ps_column *col, sqlite3_value *v,
                const char *why)
{
    const char *shown = (const char *)sqlite3_value_text(v);
    if (shown == NULL)
        *errmsg = sqlite3_mprintf("%s: column %s: %s", table, col->name, why);
    else
        *errmsg = sqlite3_mprintf("%s: column %s: '%.60s' %s", table, col->name, shown, why);
    return *errmsg == NULL ? SQLITE_NOMEM : code;
}

/* A whole-string integer ("  12" and "1e3" are not). */
static int text_int(const char *s, int64_t *out)
{
    char *end;
    if (*s == '\0' || isspace((unsigned char)*s))
        return 0;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return 0;
    *out = v;
    return 1;
}

static int text_double(const char *s)
{
    char *end;
    if (*s == '\0' || isspace((unsigned char)*s))
        return 0;
    if (strcmp(s, "NaN") == 0 || strcmp(s, "Infinity") == 0 || strcmp(s, "-Infinity") == 0)
        return 1;
    (void)strtod(s, &end);
    return *end == '\0';
}

int ps_value_get(const char *table, const ps_column *col, sqlite3_value *v, paimon_value *out,
                 char *scratch, size_t scratch_len, char **errmsg)
{
    int t = sqlite3_value_type(v);
    int64_t i = 0;
    memset(out, 0, sizeof(*out));
    out->type = PAIMON_VALUE_NULL;
    if (t == SQLITE_NULL) {
        if (col->is_pk)
            return fail(errmsg, SQLITE_CONSTRAINT, table, col, v, "NULL in a primary-key column");
        if (col->not_null)
            return fail(errmsg, SQLITE_CONSTRAINT, table, col, v, "NULL in a NOT NULL column");
        return SQLITE_OK;
    }
    switch (col->cls) {
    case PS_INT:
        if (t == SQLITE_INTEGER)
            i = sqlite3_value_int64(v);
        else if (t == SQLITE_FLOAT) {
            double d = sqlite3_value_double(v);
            if (!(d == floor(d) && fabs(d) < 9.2e18))
                return fail(errmsg, SQLITE_MISMATCH, table, col, v, "is not an integer");
            i = (int64_t)d;
        } else if (t != SQLITE_TEXT || !text_int((const char *)sqlite3_value_text(v), &i)) {
            char why[64];
            snprintf(why, sizeof(why), "is not a %s", col->type);
            return fail(errmsg, SQLITE_MISMATCH, table, col, v, why);
        }
        if (i < col->min_int || i > col->max_int)
            return fail(errmsg, SQLITE_MISMATCH, table, col, v, "is out of the column's range");
        out->type = PAIMON_VALUE_INT;
        out->v.i = i;
        return SQLITE_OK;
    case PS_BOOL:
        if (t == SQLITE_INTEGER && (sqlite3_value_int64(v) == 0 || sqlite3_value_int64(v) == 1))
            out->v.b = (int)sqlite3_value_int64(v);
        else if (t == SQLITE_TEXT &&
                 (sqlite3_stricmp((const char *)sqlite3_value_text(v), "true") == 0 ||
                  sqlite3_stricmp((const char *)sqlite3_value_text(v), "false") == 0))
            out->v.b = sqlite3_value_text(v)[0] == 't' || sqlite3_value_text(v)[0] == 'T';
        else
            return fail(errmsg, SQLITE_MISMATCH, table, col, v,
                        "is not a BOOLEAN (0, 1, 'true' or 'false')");
        out->type = PAIMON_VALUE_BOOL;
        return SQLITE_OK;
    case PS_FLOAT:
    case PS_DOUBLE:
        if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
            out->type = PAIMON_VALUE_DOUBLE;
            out->v.d = sqlite3_value_double(v);
            if (col->cls == PS_FLOAT && isfinite(out->v.d) && fabs(out->v.d) > (double)FLT_MAX)
                return fail(errmsg, SQLITE_MISMATCH, table, col, v, "is out of the range of FLOAT");
            return SQLITE_OK;
        }
        /* text ("NaN", "1e3") is parsed by the writer, as for decimals */
        __attribute__((fallthrough));
    case PS_DECIMAL:
        if (t == SQLITE_INTEGER)
            snprintf(scratch, scratch_len, "%lld", (long long)sqlite3_value_int64(v));
        else if (t == SQLITE_FLOAT)
            /* DECIMAL(p <= 15) columns read as REAL: 15 digits give back their value. */
            snprintf(scratch, scratch_len, "%.*g",
                     col->precision >= 0 && col->precision <= 15 ? 15 : 17,
                     sqlite3_value_double(v));
        else if (t == SQLITE_TEXT && text_double((const char *)sqlite3_value_text(v))) {
            out->type = PAIMON_VALUE_TEXT;
            out->v.s.ptr = (const char *)sqlite3_value_text(v);
            out->v.s.len = (size_t)sqlite3_value_bytes(v);
            return SQLITE_OK;
        } else
            return fail(errmsg, SQLITE_MISMATCH, table, col, v, "is not a number");
        out->type = PAIMON_VALUE_TEXT;
        out->v.s.ptr = scratch;
        out->v.s.len = strlen(scratch);
        return SQLITE_OK;
    case PS_BLOB:
        if (t != SQLITE_BLOB && t != SQLITE_TEXT)
            return fail(errmsg, SQLITE_MISMATCH, table, col, v, "is not a BLOB");
        out->type = PAIMON_VALUE_BYTES;
        out->v.s.ptr = sqlite3_value_blob(v);
        out->v.s.len = (size_t)sqlite3_value_bytes(v);
        if (out->v.s.ptr == NULL)
            out->v.s.ptr = "";
        return SQLITE_OK;
    case PS_DATE:
    case PS_TIME:
    case PS_TIMESTAMP:
        if (t != SQLITE_TEXT)
            return fail(errmsg, SQLITE_MISMATCH, table, col, v,
                        col->cls == PS_DATE   ? "is not a DATE ('YYYY-MM-DD')"
                        : col->cls == PS_TIME ? "is not a TIME ('HH:MM:SS')"
                                              : "is not a TIMESTAMP ('YYYY-MM-DD HH:MM:SS')");
        break;
    case PS_JSON: {
        if (t != SQLITE_TEXT)
            return fail(errmsg, SQLITE_MISMATCH, table, col, v,
                        "is not JSON text (nested columns take their canonical JSON)");
        const char *why =
            ps_json_check(col, (const char *)sqlite3_value_text(v), (size_t)sqlite3_value_bytes(v));
        if (why != NULL)
            return fail(errmsg, SQLITE_MISMATCH, table, col, v, why);
        break;
    }
    case PS_TEXT:
        if (t == SQLITE_BLOB)
            return fail(errmsg, SQLITE_MISMATCH, table, col, v, "is a BLOB, not text");
        break;
    }
    out->type = PAIMON_VALUE_TEXT;
    out->v.s.ptr = (const char *)sqlite3_value_text(v);
    out->v.s.len = (size_t)sqlite3_value_bytes(v);
    if (out->v.s.ptr == NULL)
        return SQLITE_NOMEM;
    return SQLITE_OK;
}
