/*
 * Time-zone rules from the tz database: see orc_tz.h.
 *
 * TZif (RFC 8536), the parts read here (version 2 and later; all big-endian):
 *
 *   OFFSET  SIZE  DESCRIPTION
 *   0       4     "TZif"
 *   4       1     version: 0, '2', '3' or '4'
 *   5       15    unused
 *   20      24    counts: isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
 *   44      ...   the version-1 data block (32-bit times), skipped
 *   then a second header, and a data block with 64-bit times:
 *           8*timecnt  transition times (seconds since the epoch, ascending)
 *           timecnt    the local-time type of each transition
 *           6*typecnt  types: int32 utoff, uint8 isdst, uint8 abbreviation index
 *           ...        abbreviations, leap seconds, indicators (skipped)
 *   footer: "\n" POSIX TZ string "\n", the rule after the last transition
 */
#include "format/orc/orc_tz.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/alloc.h"
#include "util/bytes.h"
#include "util/time.h"

#define MAX_TZIF (1 << 20)

/* A POSIX TZ rule: standard offset, and optionally daylight time between two dates. */
typedef struct tz_date {
    char kind; /* 'J' Julian 1..365 without Feb 29, 'D' zero-based day, 'M' month.week.day */
    int a, b, c;
    int32_t time; /* seconds after local midnight */
} tz_date;

typedef struct tz_rule {
    bool valid;
    int32_t std_off, dst_off; /* seconds east of UTC */
    bool has_dst;
    tz_date start, end;
} tz_rule;

struct pm_orc_tz {
    char *id;
    int64_t *times; /* transitions */
    uint8_t *idx;   /* type of each transition */
    size_t count;
    int32_t *offs; /* offset of each type */
    size_t type_count;
    tz_rule rule;
};

const char *pm_orc_tz_id(const pm_orc_tz *tz)
{
    return tz->id;
}

void pm_orc_tz_free(pm_orc_tz *tz)
{
    if (tz == NULL)
        return;
    pm_free(tz->id);
    pm_free(tz->times);
    pm_free(tz->idx);
    pm_free(tz->offs);
    pm_free(tz);
}

/* ---- POSIX TZ strings ------------------------------------------------------------------ */

static bool parse_name(const char **s)
{
    const char *p = *s;
    if (*p == '<') {
        while (*p != '\0' && *p != '>')
            p++;
        if (*p != '>')
            return false;
        *s = p + 1;
        return true;
    }
    while (isalpha((unsigned char)*p))
        p++;
    if (p - *s < 3)
        return false;
    *s = p;
    return true;
}

/* [+-]hh[:mm[:ss]] as seconds; hours up to 167 (TZif version 3). */
static bool parse_hms(const char **s, int32_t *out)
{
    const char *p = *s;
    int sign = 1, part[3] = {0, 0, 0};
    if (*p == '+' || *p == '-')
        sign = *p++ == '-' ? -1 : 1;
    for (int i = 0; i < 3; i++) {
        int v = 0, digits = 0;
        if (i > 0) {
            if (*p != ':')
                break;
            p++;
        }
        while (isdigit((unsigned char)*p) && digits < 3)
            v = v * 10 + (*p++ - '0'), digits++;
        if (digits == 0)
            return false;
        part[i] = v;
    }
    if (part[0] > 167 || part[1] > 59 || part[2] > 59)
        return false;
    *out = sign * (part[0] * 3600 + part[1] * 60 + part[2]);
    *s = p;
    return true;
}

static bool parse_date(const char **s, tz_date *d)
{
    const char *p = *s;
    char *end;
    d->time = 7200;
    if (*p == 'M') {
        long m = strtol(p + 1, &end, 10), w, day;
        if (*end != '.')
            return false;
        w = strtol(end + 1, &end, 10);
        if (*end != '.')
            return false;
        day = strtol(end + 1, &end, 10);
        if (m < 1 || m > 12 || w < 1 || w > 5 || day < 0 || day > 6)
            return false;
        d->kind = 'M', d->a = (int)m, d->b = (int)w, d->c = (int)day;
        p = end;
    } else if (*p == 'J' || isdigit((unsigned char)*p)) {
        bool julian = *p == 'J';
        long n = strtol(julian ? p + 1 : p, &end, 10);
        if (end == (julian ? p + 1 : p) || n < (julian ? 1 : 0) || n > 365)
            return false;
        d->kind = julian ? 'J' : 'D', d->a = (int)n;
        p = end;
    } else {
        return false;
    }
    if (*p == '/') {
        p++;
        if (!parse_hms(&p, &d->time))
            return false;
    }
    *s = p;
    return true;
}

static bool parse_rule(const char *s, tz_rule *r)
{
    int32_t off;
    memset(r, 0, sizeof(*r));
    if (!parse_name(&s) || !parse_hms(&s, &off))
        return false;
    r->std_off = -off; /* POSIX offsets count west */
    if (*s == '\0') {
        r->valid = true;
        return true;
    }
    if (!parse_name(&s))
        return false;
    r->dst_off = r->std_off + 3600;
    if (*s != ',' && *s != '\0') {
        if (!parse_hms(&s, &off))
            return false;
        r->dst_off = -off;
    }
    if (*s != ',')
        return false; /* no rule: the tz database always gives one */
    s++;
    if (!parse_date(&s, &r->start) || *s++ != ',' || !parse_date(&s, &r->end) || *s != '\0')
        return false;
    r->has_dst = true;
    r->valid = true;
    return true;
}

/* Local midnight of the rule date in `year`, as days since the epoch. */
static int64_t rule_day(const tz_date *d, int64_t year)
{
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    int64_t jan1 = pm_days_from_civil(year, 1, 1);
    if (d->kind == 'J')
        return jan1 + d->a - 1 + (leap && d->a >= 60 ? 1 : 0);
    if (d->kind == 'D')
        return jan1 + d->a;
    {
        /* weekday of the 1st of the month: 1970-01-01 was a Thursday (4) */
        int64_t first = pm_days_from_civil(year, (unsigned)d->a, 1);
        int64_t wd = pm_floor_mod(first + 4, 7);
        int64_t day = first + pm_floor_mod(d->c - wd, 7) + (int64_t)(d->b - 1) * 7;
        unsigned mdays[] = {31, leap ? 29u : 28u, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        while (day >= first + mdays[d->a - 1])
            day -= 7; /* week 5 means the last such weekday */
        return day;
    }
}

static int32_t rule_offset(const tz_rule *r, int64_t t)
{
    int64_t year, start, end;
    unsigned m, d;
    if (!r->has_dst)
        return r->std_off;
    pm_civil_from_days(pm_floor_div(t + r->std_off, 86400), &year, &m, &d);
    /* transitions happen at local time: standard time before the start, DST before the end */
    start = rule_day(&r->start, year) * 86400 + r->start.time - r->std_off;
    end = rule_day(&r->end, year) * 86400 + r->end.time - r->dst_off;
    if (start < end)
        return t >= start && t < end ? r->dst_off : r->std_off;
    return t >= end && t < start ? r->std_off : r->dst_off; /* southern hemisphere */
}

/* ---- TZif ------------------------------------------------------------------------------ */

static bool counts(const uint8_t *p, uint32_t c[6])
{
    for (int i = 0; i < 6; i++)
        c[i] = pm_load_be32(p + 20 + 4 * i);
    return c[3] <= 100000 && c[4] >= 1 && c[4] <= 256 && c[5] <= 100000 && c[2] <= 100000 &&
           c[0] <= 256 && c[1] <= 256;
}

static int parse_tzif(const uint8_t *data, size_t len, pm_orc_tz *tz)
{
    uint32_t c[6];
    size_t v1, pos;
    if (len < 44 || memcmp(data, "TZif", 4) != 0 || data[4] < '2' || !counts(data, c))
        return -1;
    v1 = (size_t)c[3] * 5 + (size_t)c[4] * 6 + c[5] + (size_t)c[2] * 8 + c[1] + c[0];
    pos = 44 + v1;
    if (len < pos + 44 || memcmp(data + pos, "TZif", 4) != 0 || !counts(data + pos, c))
        return -1;
    pos += 44;
    {
        size_t need = (size_t)c[3] * 9 + (size_t)c[4] * 6 + c[5] + (size_t)c[2] * 12 + c[1] + c[0];
        if (len - pos < need)
            return -1;
    }
    tz->count = c[3];
    tz->type_count = c[4];
    tz->times = pm_malloc((tz->count + 1) * sizeof(int64_t));
    tz->idx = pm_malloc(tz->count + 1);
    tz->offs = pm_malloc(tz->type_count * sizeof(int32_t));
    if (tz->times == NULL || tz->idx == NULL || tz->offs == NULL)
        return -2;
    for (size_t i = 0; i < tz->count; i++)
        tz->times[i] = (int64_t)pm_load_be64(data + pos + 8 * i);
    pos += 8 * tz->count;
    for (size_t i = 0; i < tz->count; i++) {
        tz->idx[i] = data[pos + i];
        if (tz->idx[i] >= tz->type_count)
            return -1;
    }
    pos += tz->count;
    for (size_t i = 0; i < tz->type_count; i++)
        tz->offs[i] = (int32_t)pm_load_be32(data + pos + 6 * i);
    pos += 6 * tz->type_count + c[5] + (size_t)c[2] * 12 + c[1] + c[0];
    /* the footer rule applies after the last transition */
    if (pos < len && data[pos] == '\n') {
        const uint8_t *nl = memchr(data + pos + 1, '\n', len - pos - 1);
        if (nl != NULL && nl - (data + pos + 1) < 128) {
            char rule[128];
            size_t n = (size_t)(nl - (data + pos + 1));
            memcpy(rule, data + pos + 1, n);
            rule[n] = '\0';
            if (n > 0)
                parse_rule(rule, &tz->rule);
        }
    }
    return 0;
}

/* "GMT", "UTC", "Z", "GMT+8", "GMT-08:00", "UTC+5:30": a fixed offset. */
static bool fixed_offset(const char *id, int32_t *off)
{
    const char *p = id;
    int sign, h = 0, m = 0, digits = 0;
    if (strcmp(id, "Z") == 0 || strcmp(id, "UTC") == 0 || strcmp(id, "GMT") == 0 ||
        strcmp(id, "UT") == 0 || strcmp(id, "Etc/UTC") == 0 || strcmp(id, "Etc/GMT") == 0) {
        *off = 0;
        return true;
    }
    if (strncmp(p, "GMT", 3) == 0 || strncmp(p, "UTC", 3) == 0)
        p += 3;
    else
        return false;
    if (*p != '+' && *p != '-')
        return false;
    sign = *p++ == '-' ? -1 : 1;
    while (isdigit((unsigned char)*p) && digits < 2)
        h = h * 10 + (*p++ - '0'), digits++;
    if (digits == 0)
        return false;
    if (*p == ':')
        p++;
    digits = 0;
    while (isdigit((unsigned char)*p) && digits < 2)
        m = m * 10 + (*p++ - '0'), digits++;
    if (*p != '\0' || h > 23 || m > 59)
        return false;
    *off = sign * (h * 3600 + m * 60);
    return true;
}

static bool safe_id(const char *id)
{
    if (id[0] == '\0' || id[0] == '/' || strlen(id) > 200)
        return false;
    for (const char *p = id; *p != '\0'; p++)
        if (!(isalnum((unsigned char)*p) || *p == '/' || *p == '_' || *p == '-' || *p == '+'))
            return false;
    return strstr(id, "..") == NULL;
}

int pm_orc_tz_load(const char *id, pm_orc_tz **out, paimon_error *err)
{
    pm_orc_tz *tz = pm_calloc(1, sizeof(*tz));
    const char *dir = getenv("TZDIR");
    char path[512];
    struct stat st;
    int32_t off;
    int rc = 0;

    *out = NULL;
    if (tz == NULL || (tz->id = pm_strdup(id)) == NULL) {
        pm_orc_tz_free(tz);
        return pm_nomem(err);
    }
    if (dir == NULL || dir[0] == '\0')
        dir = "/usr/share/zoneinfo";
    if (fixed_offset(id, &off)) {
        tz->rule.valid = true;
        tz->rule.std_off = off;
    } else if (safe_id(id) &&
               (size_t)snprintf(path, sizeof(path), "%s/%s", dir, id) < sizeof(path) &&
               stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= MAX_TZIF) {
        FILE *f = fopen(path, "rb");
        uint8_t *data = pm_malloc((size_t)st.st_size + 1);
        size_t n = 0;
        if (f != NULL && data != NULL)
            n = fread(data, 1, (size_t)st.st_size, f);
        if (f != NULL)
            fclose(f);
        if (data == NULL) {
            rc = pm_nomem(err);
        } else {
            int pr = parse_tzif(data, n, tz);
            if (pr == -2)
                rc = pm_nomem(err);
            else if (pr != 0)
                rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "time zone '%s': %s is not a TZif file",
                                id, path);
        }
        pm_free(data);
    } else if (stat(dir, &st) != 0) {
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED,
                        "time zone '%s': no time-zone database at %s (install tzdata or set "
                        "TZDIR)",
                        id, dir);
    } else {
        /* Java's TimeZone.getTimeZone() reads an unknown id as GMT */
        tz->rule.valid = true;
        tz->rule.std_off = 0;
    }
    if (rc != 0) {
        pm_orc_tz_free(tz);
        return rc;
    }
    *out = tz;
    return 0;
}

bool pm_orc_tz_is_utc(const pm_orc_tz *tz)
{
    for (size_t i = 0; i < tz->type_count; i++)
        if (tz->offs[i] != 0)
            return false;
    return !tz->rule.valid || (!tz->rule.has_dst && tz->rule.std_off == 0);
}

int32_t pm_orc_tz_offset(const pm_orc_tz *tz, int64_t t)
{
    size_t lo = 0, hi = tz->count;
    if (tz->count == 0 || t >= tz->times[tz->count - 1]) {
        if (tz->rule.valid && (tz->count == 0 || t >= tz->times[tz->count - 1]))
            return rule_offset(&tz->rule, t);
        if (tz->count == 0)
            return tz->type_count > 0 ? tz->offs[0] : 0;
        return tz->offs[tz->idx[tz->count - 1]];
    }
    if (t < tz->times[0])
        return tz->offs[0];
    /* the last transition at or before t */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tz->times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return tz->offs[tz->idx[lo]];
}

int64_t pm_orc_tz_local_to_utc(const pm_orc_tz *tz, int64_t local)
{
    int32_t o1 = pm_orc_tz_offset(tz, local), o2 = pm_orc_tz_offset(tz, local - o1);
    if (o1 == o2)
        return local - o1;
    {
        /* near a transition: prefer the candidate whose offset is consistent */
        int32_t o3 = pm_orc_tz_offset(tz, local - o2);
        if (o3 == o2)
            return local - (o1 > o2 ? o1 : o2);
        return local - (o1 > o2 ? o2 : o1);
    }
}
