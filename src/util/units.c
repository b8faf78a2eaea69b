/* Java's text grammars for option values: see units.h. */
#include "util/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paimon/error.h"
#include "util/alloc.h"
#include "util/buf.h"

#define MAX_UNIT 16 /* longer than any unit label: "milliseconds" */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Java's String.trim(): [*begin, *end) without the bytes <= 0x20 at either end. */
static void java_trim(const char *text, const char **begin, const char **end)
{
    const char *b = text, *e = text + strlen(text);
    while (b < e && (unsigned char)*b <= 0x20)
        b++;
    while (e > b && (unsigned char)e[-1] <= 0x20)
        e--;
    *begin = b;
    *end = e;
}

/* Long.parseLong within [min, max]. */
static int parse_java_integer(const char *text, int64_t min, int64_t max, int64_t *out)
{
    const char *p = text;
    bool negative = false;
    uint64_t limit, v = 0;
    if (*p == '+' || *p == '-')
        negative = *p++ == '-';
    if (*p == '\0')
        return PAIMON_EINVALID;
    for (const char *q = p; *q != '\0'; q++)
        if (!is_digit(*q))
            return PAIMON_EINVALID;
    limit = negative ? (uint64_t)(-(min + 1)) + 1 : (uint64_t)max;
    for (; *p != '\0'; p++) {
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (limit - d) / 10)
            return PAIMON_ELIMIT;
        v = v * 10 + d;
    }
    *out = negative ? (v == 0 ? 0 : -(int64_t)(v - 1) - 1) : (int64_t)v;
    return 0;
}

int pm_parse_int32(const char *text, int32_t *out)
{
    int64_t v;
    int rc = parse_java_integer(text, INT32_MIN, INT32_MAX, &v);
    if (rc == 0)
        *out = (int32_t)v;
    return rc;
}

int pm_parse_int64(const char *text, int64_t *out)
{
    return parse_java_integer(text, INT64_MIN, INT64_MAX, out);
}

static bool equals_ignore_case(const char *a, size_t a_len, const char *b)
{
    size_t i = 0;
    for (; i < a_len && b[i] != '\0'; i++)
        if (ascii_lower(a[i]) != ascii_lower(b[i]))
            return false;
    return i == a_len && b[i] == '\0';
}

int pm_parse_bool(const char *text, bool *out)
{
    size_t len = strlen(text);
    if (equals_ignore_case(text, len, "true"))
        *out = true;
    else if (equals_ignore_case(text, len, "false"))
        *out = false;
    else
        return PAIMON_EINVALID;
    return 0;
}

/* ---- Double.parseDouble (FloatingDecimal.readJavaFormatString) ------------------------- */

static bool is_hex_digit(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static size_t span(const char *p, const char *end, bool (*cls)(char))
{
    size_t n = 0;
    while (p + n < end && cls(p[n]))
        n++;
    return n;
}

static bool is_type_suffix(char c)
{
    return c == 'f' || c == 'F' || c == 'd' || c == 'D';
}

/* The length of the number that starts at p (after the sign) when [p, end) is a Java
 * floating-point literal with at most a type suffix after it; 0 when it is not. */
static size_t java_number_len(const char *p, const char *end)
{
    const char *q = p;
    size_t whole, frac = 0;
    bool hex = end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    bool (*digit)(char) = hex ? is_hex_digit : is_digit;
    if (hex)
        q += 2;
    whole = span(q, end, digit);
    q += whole;
    if (q < end && *q == '.') {
        q++;
        frac = span(q, end, digit);
        q += frac;
    }
    if (whole + frac == 0)
        return 0;
    /* the exponent: required for hexadecimal (p), optional for decimal (e) */
    if (q < end && (hex ? (*q == 'p' || *q == 'P') : (*q == 'e' || *q == 'E'))) {
        size_t n;
        q++;
        if (q < end && (*q == '+' || *q == '-'))
            q++;
        if ((n = span(q, end, is_digit)) == 0)
            return 0;
        q += n;
    } else if (hex) {
        return 0;
    }
    if (q == end || (q + 1 == end && is_type_suffix(*q)))
        return (size_t)(q - p);
    return 0;
}

int pm_parse_double(const char *text, double *out)
{
    const char *b, *e, *p;
    char buf[128];
    bool negative = false;
    size_t len;
    java_trim(text, &b, &e);
    p = b;
    if (p < e && (*p == '+' || *p == '-'))
        negative = *p++ == '-';
    if ((size_t)(e - p) == 3 && memcmp(p, "NaN", 3) == 0) {
        *out = (double)NAN;
        return 0;
    }
    if ((size_t)(e - p) == 8 && memcmp(p, "Infinity", 8) == 0) {
        *out = negative ? -(double)INFINITY : (double)INFINITY;
        return 0;
    }
    if ((len = java_number_len(p, e)) == 0)
        return PAIMON_EINVALID;
    /* strtod reads the same number once the Java-only parts (suffix) are gone */
    len += (size_t)(p - b);
    if (len >= sizeof(buf)) {
        char *copy = pm_malloc(len + 1);
        double v;
        if (copy == NULL)
            return PAIMON_ENOMEM;
        memcpy(copy, b, len);
        copy[len] = '\0';
        v = strtod(copy, NULL);
        pm_free(copy);
        *out = v;
        return 0;
    }
    memcpy(buf, b, len);
    buf[len] = '\0';
    *out = strtod(buf, NULL);
    return 0;
}

/* ---- number and unit (MemorySize, TimeUtils) ------------------------------------------- */

/* Splits Java's "<digits> <unit>": the digits as a non-negative long and the unit trimmed
 * and lower-cased (ASCII) into `unit`.  A unit that cannot fit is no unit Java knows. */
static int number_and_unit(const char *text, int64_t *number, char *unit)
{
    const char *b, *e, *p;
    char digits[32];
    size_t n, u;
    java_trim(text, &b, &e);
    if (b == e)
        return PAIMON_EINVALID; /* "argument is an empty- or whitespace-only string" */
    n = span(b, e, is_digit);
    if (n == 0)
        return PAIMON_EINVALID; /* "text does not start with a number" */
    p = b + n;
    while (p < e && (unsigned char)*p <= 0x20)
        p++;
    u = (size_t)(e - p);
    if (u >= MAX_UNIT)
        return PAIMON_EINVALID;
    for (size_t i = 0; i < u; i++)
        unit[i] = ascii_lower(p[i]);
    unit[u] = '\0';
    while (n > 1 && *b == '0') /* leading zeros do not count towards overflow */
        b++, n--;
    if (n >= sizeof(digits))
        return PAIMON_ELIMIT;
    memcpy(digits, b, n);
    digits[n] = '\0';
    return pm_parse_int64(digits, number);
}

static bool unit_is(const char *unit, const char *const *labels)
{
    for (size_t i = 0; labels[i] != NULL; i++)
        if (strcmp(unit, labels[i]) == 0)
            return true;
    return false;
}

/* A unit and what a number of it is worth: value = n * mul / div. */
typedef struct unit_def {
    const char *labels[8];
    int64_t mul, div;
} unit_def;

/* "<digits> <unit>" with one of `units`, scaled. */
static int scaled(const char *text, const unit_def *units, size_t count, int64_t *out)
{
    char unit[MAX_UNIT];
    int64_t n, r;
    int rc = number_and_unit(text, &n, unit);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < count; i++) {
        if (!unit_is(unit, units[i].labels))
            continue;
        if (__builtin_mul_overflow(n, units[i].mul, &r))
            return PAIMON_ELIMIT;
        *out = r / units[i].div;
        return 0;
    }
    return PAIMON_EINVALID;
}

int pm_parse_memory_size(const char *text, int64_t *bytes)
{
    static const unit_def UNITS[] = {
        {{"", "b", "bytes", NULL}, 1, 1},
        {{"k", "kb", "kibibytes", NULL}, 1LL << 10, 1},
        {{"m", "mb", "mebibytes", NULL}, 1LL << 20, 1},
        {{"g", "gb", "gibibytes", NULL}, 1LL << 30, 1},
        {{"t", "tb", "tebibytes", NULL}, 1LL << 40, 1},
    };
    return scaled(text, UNITS, sizeof(UNITS) / sizeof(UNITS[0]), bytes);
}

int pm_parse_duration_ms(const char *text, int64_t *ms)
{
    static const unit_def UNITS[] = {
        {{"d", "day", "days", NULL}, 86400000, 1},
        {{"h", "hour", "hours", NULL}, 3600000, 1},
        {{"min", "m", "minute", "minutes", NULL}, 60000, 1},
        {{"s", "sec", "secs", "second", "seconds", NULL}, 1000, 1},
        {{"", "ms", "milli", "millis", "millisecond", "milliseconds", NULL}, 1, 1},
        {{"\xc2\xb5s", "micro", "micros", "microsecond", "microseconds", NULL}, 1, 1000},
        {{"ns", "nano", "nanos", "nanosecond", "nanoseconds", NULL}, 1, 1000000},
    };
    return scaled(text, UNITS, sizeof(UNITS) / sizeof(UNITS[0]), ms);
}

/* ---- maps (OptionsUtils.convertToProperties, StructuredOptionsSplitter) ------------------ */

static bool java_whitespace(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* StructuredOptionsSplitter.splitEscaped: the parts of [p, end) between `delim`s, each
 * quoted ('' or "" inside stand for one quote) or trimmed; appended to `out`. */
static int split_escaped(const char *p, const char *end, char delim, pm_strlist *out)
{
    enum { NONE, TEXT, QUOTED, DELIM } prev = NONE;
    pm_buf tok;
    int rc = 0;
    pm_buf_init(&tok, 0);
    while (p < end) {
        char c = *p;
        pm_buf_reset(&tok);
        if (c == '\'' || c == '"') {
            const char *q = p + 1;
            if (prev == QUOTED || prev == TEXT) {
                rc = PAIMON_EINVALID; /* "Illegal quoting" */
                goto done;
            }
            for (;; q++) {
                if (q == end) {
                    rc = PAIMON_EINVALID; /* "Quoting was not closed properly" */
                    goto done;
                }
                if (*q == c && q + 1 < end && q[1] == c) {
                    q++;
                } else if (*q == c) {
                    break;
                }
                if ((rc = pm_buf_append(&tok, q, 1)) != 0)
                    goto done;
            }
            if ((rc = pm_strlist_pushn(out, tok.len > 0 ? (const char *)tok.data : "", tok.len)) !=
                0)
                goto done;
            prev = QUOTED;
            p = q + 1;
        } else if (c == delim) {
            /* two delimiters in a row: an empty part between them */
            if (prev == DELIM && (rc = pm_strlist_push(out, "")) != 0)
                goto done;
            prev = DELIM;
            p++;
        } else if (!java_whitespace(c)) {
            const char *q = p, *b, *e;
            if (prev == QUOTED) {
                rc = PAIMON_EINVALID;
                goto done;
            }
            while (q < end && *q != delim)
                q++;
            b = p;
            e = q;
            while (b < e && (unsigned char)*b <= 0x20)
                b++;
            while (e > b && (unsigned char)e[-1] <= 0x20)
                e--;
            if ((rc = pm_strlist_pushn(out, b, (size_t)(e - b))) != 0)
                goto done;
            prev = TEXT;
            p = q;
        } else {
            p++;
        }
    }
done:
    pm_buf_free(&tok);
    return rc;
}

int pm_parse_map(const char *text, pm_strlist *out)
{
    pm_strlist items, pair;
    size_t first = out->count;
    int rc = 0;
    pm_strlist_init(&items);
    pm_strlist_init(&pair);
    if ((rc = split_escaped(text, text + strlen(text), ',', &items)) != 0)
        goto done;
    for (size_t i = 0; i < items.count; i++) {
        const char *item = items.items[i];
        pm_strlist_free(&pair);
        if ((rc = split_escaped(item, item + strlen(item), ':', &pair)) != 0)
            goto done;
        if (pair.count != 2) {
            rc = PAIMON_EINVALID; /* "Map item is not a key-value pair (missing ':'?)" */
            goto done;
        }
        for (size_t k = first; k < out->count; k += 2)
            if (strcmp(out->items[k], pair.items[0]) == 0) {
                rc = PAIMON_EINVALID; /* Collectors.toMap: "Duplicate key" */
                goto done;
            }
        if ((rc = pm_strlist_push(out, pair.items[0])) != 0 ||
            (rc = pm_strlist_push(out, pair.items[1])) != 0)
            goto done;
    }
done:
    pm_strlist_free(&items);
    pm_strlist_free(&pair);
    return rc;
}
