/*
 * Dates, times and timestamps from text (the canonical form and ISO-8601 with 'T' and an
 * offset), and the epoch numbers of Debezium's encodings, appended to DATE, TIME(p),
 * TIMESTAMP(p) and TIMESTAMP(p) WITH LOCAL TIME ZONE columns.  Fractional digits beyond
 * the column's precision must be zeros: nothing is truncated.
 */
#include "data/input_int.h"
#include "util/time.h"

#define SHOW(s, n) pm_input_show(shown, (s), (n))

static bool is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

/* "<text> <pre><type><post>", e.g. "12.345 has more digits than DECIMAL(10, 2) allows". */
static int type_fail(pm_input_ctx *x, const pm_type *t, const uint8_t *s, size_t n, const char *pre,
                     const char *post)
{
    char shown[PM_INPUT_SHOW_CAP], tn[96];
    return pm_input_fail(x, "%s %s%s%s", SHOW(s, n), pre, pm_input_type_name(tn, sizeof(tn), t),
                         post);
}

/* ---- dates and times ------------------------------------------------------------------- */

/* 1 or 2 digits (or exactly `min`..`max` digits) at s[*i]; -1 when absent. */
static int64_t digits_at(const uint8_t *s, size_t n, size_t *i, int min, int max)
{
    int64_t v = 0;
    int k = 0;
    while (*i < n && k < max && is_digit(s[*i])) {
        v = v * 10 + (s[*i] - '0');
        (*i)++;
        k++;
    }
    return k < min ? -1 : v;
}

static int days_in_month(int64_t y, int64_t m)
{
    static const int dim[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : dim[m - 1];
}

/* [+-]?Y{4,9}-M{1,2}-D{1,2}: 0, 1 bad syntax, 2 no such day. */
static int parse_date(const uint8_t *s, size_t n, size_t *i, int64_t *days)
{
    bool neg = false;
    int64_t y, m, d;
    if (*i < n && (s[*i] == '-' || s[*i] == '+'))
        neg = s[(*i)++] == '-';
    if ((y = digits_at(s, n, i, 4, 9)) < 0 || *i >= n || s[(*i)++] != '-' ||
        (m = digits_at(s, n, i, 1, 2)) < 0 || *i >= n || s[(*i)++] != '-' ||
        (d = digits_at(s, n, i, 1, 2)) < 0)
        return 1;
    if (neg)
        y = -y;
    if (m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
        return 2;
    *days = pm_days_from_civil(y, (unsigned)m, (unsigned)d);
    return 0;
}

/* H{1,2}:M{1,2}:S{1,2}[.F{1,9}]: seconds of the day and nanoseconds.  0, 1 syntax, 2 range. */
static int parse_clock(const uint8_t *s, size_t n, size_t *i, int64_t *secs, int64_t *nanos)
{
    int64_t h, m, sec, f = 0;
    if ((h = digits_at(s, n, i, 1, 2)) < 0 || *i >= n || s[(*i)++] != ':' ||
        (m = digits_at(s, n, i, 1, 2)) < 0 || *i >= n || s[(*i)++] != ':' ||
        (sec = digits_at(s, n, i, 1, 2)) < 0)
        return 1;
    if (*i < n && s[*i] == '.') {
        int k = 0;
        (*i)++;
        while (*i < n && is_digit(s[*i])) {
            if (k == 9)
                return 1; /* more than nanoseconds */
            f = f * 10 + (s[*i] - '0');
            k++;
            (*i)++;
        }
        if (k == 0)
            return 1;
        while (k++ < 9)
            f *= 10;
    }
    if (h > 23 || m > 59 || sec > 59)
        return 2;
    *secs = h * 3600 + m * 60 + sec;
    *nanos = f;
    return 0;
}

/* Z, or +HH[:MM] / -HH[:MM] / +HHMM: seconds east of UTC.  Absent: 0 and *i unchanged. */
static int parse_offset(const uint8_t *s, size_t n, size_t *i, int64_t *off)
{
    int64_t h, m = 0;
    bool neg;
    *off = 0;
    if (*i >= n)
        return 0;
    if (s[*i] == 'Z' || s[*i] == 'z') {
        (*i)++;
        return 0;
    }
    if (s[*i] != '+' && s[*i] != '-')
        return 1;
    neg = s[(*i)++] == '-';
    if ((h = digits_at(s, n, i, 2, 2)) < 0)
        return 1;
    if (*i < n && s[*i] == ':')
        (*i)++;
    if (*i < n && (m = digits_at(s, n, i, 2, 2)) < 0)
        return 1;
    if (h > 18 || m > 59)
        return 2;
    *off = (neg ? -1 : 1) * (h * 3600 + m * 60);
    return 0;
}

/* Units of 10^-9 s that one unit of precision p spans: the digits beyond p must be zero. */
int64_t pm_input_nanos_per_unit(int precision)
{
    static const int64_t tbl[] = {1000000000, 100000000, 10000000, 1000000, 100000,
                                  10000,      1000,      100,      10,      1};
    return tbl[precision < 0 ? 0 : precision > 9 ? 9 : precision];
}

int pm_input_date_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n)
{
    size_t i = 0;
    int64_t days = 0;
    int32_t v;
    int r = parse_date(s, n, &i, &days);
    if (r == 0 && i != n)
        r = 1;
    if (r == 1)
        return type_fail(x, c->type, s, n, "is not a valid ", " (YYYY-MM-DD)");
    if (r == 2)
        return type_fail(x, c->type, s, n, "is not a valid ", ": no such day");
    if (days < INT32_MIN || days > INT32_MAX)
        return type_fail(x, c->type, s, n, "is out of the range of ", "");
    v = (int32_t)days;
    return pm_input_put_fixed(c, &v) != 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
}

/* Stores seconds of the day + nanos into a TIME(p) column (ms int32 for p <= 3). */
static int put_time(pm_input_ctx *x, pm_column *c, int64_t secs, int64_t nanos)
{
    int64_t per = pm_time_units_per_second(c->type->precision);
    int64_t v = secs * per + nanos / (1000000000 / per);
    if (c->width == 4) {
        int32_t w = (int32_t)v;
        return pm_input_put_fixed(c, &w) != 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
    }
    return pm_input_put_fixed(c, &v) != 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
}

int pm_input_time_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n, bool zoned)
{
    size_t i = 0;
    int64_t secs = 0, nanos = 0, off = 0;
    int r = parse_clock(s, n, &i, &secs, &nanos);
    if (r == 0 && zoned)
        r = parse_offset(s, n, &i, &off);
    if (r == 0 && i != n)
        r = 1;
    if (r == 1)
        return type_fail(x, c->type, s, n, "is not a valid ", " (HH:MM:SS[.fraction])");
    if (r == 2)
        return type_fail(x, c->type, s, n, "is not a valid ", ": no such time of day");
    if (nanos % pm_input_nanos_per_unit(c->type->precision) != 0)
        return type_fail(x, c->type, s, n, "has more fractional digits than ", " allows");
    secs = pm_floor_mod(secs - off, 86400);
    return put_time(x, c, secs, nanos);
}

/* Stores epoch seconds + nanos into a TIMESTAMP(p) column. */
int pm_input_put_timestamp(pm_input_ctx *x, pm_column *c, int64_t secs, int64_t nanos,
                           const uint8_t *s, size_t n)
{
    int64_t per = pm_timestamp_units_per_second(c->type->precision), v;
    int64_t sub = nanos / (1000000000 / per);
    if (secs < 0 && sub > 0) {
        /* keep the intermediate in range at the lower end: (secs + 1) * per - (per - sub) */
        secs++;
        sub -= per;
    }
    if (__builtin_mul_overflow(secs, per, &v) || __builtin_add_overflow(v, sub, &v))
        return type_fail(x, c->type, s, n, "is out of the range of ", "");
    return pm_input_put_fixed(c, &v) != 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
}

/* The layout the canonical printer writes, "YYYY-MM-DD HH:MM:SS[.F{1,9}]": 0 and the
 * values, or 1 to take the general path. */
int pm_input_timestamp_fixed(const uint8_t *s, size_t n, int64_t *days, int64_t *secs,
                             int64_t *nanos)
{
#define DG(k) ((unsigned)s[k] - '0')
    unsigned bad;
    int64_t y, mo, dd, h, mi, se, f = 0;
    if (n < 19 || n == 20 || n > 29 || (n > 19 && s[19] != '.') || s[4] != '-' || s[7] != '-' ||
        (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':')
        return 1;
    bad = (DG(0) > 9) | (DG(1) > 9) | (DG(2) > 9) | (DG(3) > 9) | (DG(5) > 9) | (DG(6) > 9) |
          (DG(8) > 9) | (DG(9) > 9) | (DG(11) > 9) | (DG(12) > 9) | (DG(14) > 9) | (DG(15) > 9) |
          (DG(17) > 9) | (DG(18) > 9);
    for (size_t k = 20; k < n; k++) {
        bad |= DG(k) > 9;
        f = f * 10 + DG(k);
    }
    if (bad)
        return 1;
    for (size_t k = n > 20 ? n - 20 : 0; k < 9; k++)
        f *= 10;
    y = DG(0) * 1000 + DG(1) * 100 + DG(2) * 10 + DG(3);
    mo = DG(5) * 10 + DG(6);
    dd = DG(8) * 10 + DG(9);
    h = DG(11) * 10 + DG(12);
    mi = DG(14) * 10 + DG(15);
    se = DG(17) * 10 + DG(18);
#undef DG
    if (mo < 1 || mo > 12 || dd < 1 || dd > days_in_month(y, mo) || h > 23 || mi > 59 || se > 59)
        return 1; /* the general path reports it */
    *days = pm_days_from_civil(y, (unsigned)mo, (unsigned)dd);
    *secs = h * 3600 + mi * 60 + se;
    *nanos = f;
    return 0;
}

int pm_input_timestamp_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n)
{
    size_t i = 0;
    int64_t days = 0, secs = 0, nanos = 0, off = 0;
    int r;
    if (pm_input_timestamp_fixed(s, n, &days, &secs, &nanos) == 0) {
        if (nanos % pm_input_nanos_per_unit(c->type->precision) != 0)
            return type_fail(x, c->type, s, n, "has more fractional digits than ", " allows");
        return pm_input_put_timestamp(x, c, days * 86400 + secs, nanos, s, n);
    }
    r = parse_date(s, n, &i, &days);
    if (r == 0 && i < n) {
        if (s[i] != ' ' && s[i] != 'T' && s[i] != 't')
            r = 1;
        else {
            i++;
            r = parse_clock(s, n, &i, &secs, &nanos);
        }
        if (r == 0)
            r = parse_offset(s, n, &i, &off);
    }
    if (r == 0 && i != n)
        r = 1;
    if (r == 1)
        return type_fail(x, c->type, s, n, "is not a valid ", " (YYYY-MM-DD HH:MM:SS[.fraction])");
    if (r == 2)
        return type_fail(x, c->type, s, n, "is not a valid ", ": no such time of day");
    if (nanos % pm_input_nanos_per_unit(c->type->precision) != 0)
        return type_fail(x, c->type, s, n, "has more fractional digits than ", " allows");
    /* days fits 32 bits and a day in seconds 17, so this cannot overflow */
    return pm_input_put_timestamp(x, c, days * 86400 + secs - off, nanos, s, n);
}

/* ---- epoch numbers (Debezium) ---------------------------------------------------------- */

int pm_input_epoch_number(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t n,
                          const pm_input_enc *enc)
{
    const pm_type *t = c->type;
    char shown[160], tn[96];
    int64_t v = 0, enc_per = 1, col_per, q;
    bool is_time = false;
    const char *ename = enc->name != NULL ? enc->name : "Debezium";

    if (pm_input_parse_i64(s, n, &v) != 0)
        return pm_input_fail(x, "%s (%s) is not a 64-bit integer", SHOW(s, n), ename);
    switch (enc->kind) {
    case PM_ENC_DATE_DAYS: enc_per = 0; break;
    case PM_ENC_TIME_MILLIS: is_time = true, enc_per = 1000; break;
    case PM_ENC_TIME_MICROS: is_time = true, enc_per = 1000000; break;
    case PM_ENC_TIME_NANOS: is_time = true, enc_per = 1000000000; break;
    case PM_ENC_TS_MILLIS: enc_per = 1000; break;
    case PM_ENC_TS_MICROS: enc_per = 1000000; break;
    case PM_ENC_TS_NANOS: enc_per = 1000000000; break;
    default: return pm_input_fail(x, "%s: not a number encoding", ename);
    }
    if (enc_per == 0) { /* epoch days */
        if (t->id == PM_TYPE_DATE) {
            int32_t d;
            if (v < INT32_MIN || v > INT32_MAX)
                return pm_input_fail(x, "%s (%s) is out of the range of DATE", SHOW(s, n), ename);
            d = (int32_t)v;
            return pm_input_put_fixed(c, &d) != 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
        }
        if ((t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ) && v > -(1LL << 40) &&
            v < (1LL << 40))
            return pm_input_put_timestamp(x, c, v * 86400, 0, s, n);
        if (t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ)
            return type_fail(x, t, s, n, "is out of the range of ", "");
    } else if (is_time && t->id == PM_TYPE_TIME) {
        int64_t secs = pm_floor_div(v, enc_per), frac = pm_floor_mod(v, enc_per);
        int64_t nanos = frac * (1000000000 / enc_per);
        if (v < 0 || secs >= 86400)
            return pm_input_fail(x, "%s (%s) is out of the range of %s", SHOW(s, n), ename,
                                 pm_input_type_name(tn, sizeof(tn), t));
        if (nanos % pm_input_nanos_per_unit(t->precision) != 0)
            return pm_input_fail(x, "%s (%s) has more fractional digits than %s allows", SHOW(s, n),
                                 ename, pm_input_type_name(tn, sizeof(tn), t));
        return put_time(x, c, secs, nanos);
    } else if (!is_time && (t->id == PM_TYPE_TIMESTAMP || t->id == PM_TYPE_TIMESTAMP_LTZ)) {
        col_per = pm_timestamp_units_per_second(t->precision);
        if (col_per >= enc_per) {
            if (__builtin_mul_overflow(v, col_per / enc_per, &q))
                return pm_input_fail(x, "%s (%s) is out of the range of %s", SHOW(s, n), ename,
                                     pm_input_type_name(tn, sizeof(tn), t));
        } else {
            if (v % (enc_per / col_per) != 0)
                return pm_input_fail(x, "%s (%s) has more fractional digits than %s allows",
                                     SHOW(s, n), ename, pm_input_type_name(tn, sizeof(tn), t));
            q = v / (enc_per / col_per);
        }
        return pm_input_put_fixed(c, &q) != 0 ? pm_input_fail_buf(x, PAIMON_ENOMEM) : 0;
    }
    return pm_input_fail(x, "%s (%s) cannot be read as %s", SHOW(s, n), ename,
                         pm_input_type_name(tn, sizeof(tn), t));
}
