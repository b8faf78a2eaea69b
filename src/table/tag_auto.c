/* Automatic tag creation, retention and expiry: see tag_auto.h. */
#include "table/tag_auto.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "meta/paths.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "table/tag.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/time.h"

#define MS_PER_DAY  86400000LL
#define MS_PER_HOUR 3600000LL
#define SEQUENTIAL  64 /* fewer snapshots than this to examine: read them one by one */

/* ---- periods ------------------------------------------------------------------------------- */

int pm_tag_period_from(const pm_options *o, pm_tag_period *out, paimon_error *err)
{
    const char *period = pm_options_get_str(o, "tag.creation-period");
    const char *fmt = pm_options_get_str(o, "tag.period-formatter");
    int64_t duration = -1;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = pm_options_get_duration_or(o, "tag.creation-period-duration", -1, &duration, err)) !=
        0)
        return rc;
    out->formatter = strcasecmp(fmt, "without_dashes") == 0 ? PM_TAG_WITHOUT_DASHES
                     : strcasecmp(fmt, "without_dashes_and_spaces") == 0
                         ? PM_TAG_WITHOUT_DASHES_AND_SPACES
                         : PM_TAG_WITH_DASHES;
    if (duration >= 0) {
        if (duration == 0)
            return pm_err_set(err, PAIMON_EINVALID,
                              "option tag.creation-period-duration: must be positive");
        out->kind = PM_TAG_DURATION;
        out->period_ms = duration;
    } else if (strcasecmp(period, "hourly") == 0) {
        out->kind = PM_TAG_HOURLY;
        out->period_ms = MS_PER_HOUR;
    } else if (strcasecmp(period, "two-hours") == 0) {
        out->kind = PM_TAG_TWO_HOURS;
        out->period_ms = 2 * MS_PER_HOUR;
    } else {
        out->kind = PM_TAG_DAILY;
        out->period_ms = MS_PER_DAY;
    }
    return 0;
}

/* y M d H m of a local time. */
static void fields(int64_t local_ms, int64_t *y, unsigned *mo, unsigned *d, int *h, int *mi)
{
    int64_t ms = pm_floor_mod(local_ms, MS_PER_DAY);
    pm_civil_from_days(pm_floor_div(local_ms, MS_PER_DAY), y, mo, d);
    *h = (int)(ms / MS_PER_HOUR);
    *mi = (int)(ms / 60000 % 60);
}

void pm_tag_period_format(const pm_tag_period *p, int64_t local_ms, char *out, size_t cap)
{
    int64_t y;
    unsigned mo, d;
    int h, mi;
    fields(local_ms, &y, &mo, &d, &h, &mi);
    switch (p->kind) {
    case PM_TAG_DAILY:
        snprintf(out, cap,
                 p->formatter == PM_TAG_WITH_DASHES ? "%04" PRId64 "-%02u-%02u"
                                                    : "%04" PRId64 "%02u%02u",
                 y, mo, d);
        break;
    case PM_TAG_HOURLY:
        if (p->formatter == PM_TAG_WITH_DASHES)
            snprintf(out, cap, "%04" PRId64 "-%02u-%02u %02d", y, mo, d, h);
        else if (p->formatter == PM_TAG_WITHOUT_DASHES)
            snprintf(out, cap, "%04" PRId64 "%02u%02u %02d", y, mo, d, h);
        else
            snprintf(out, cap, "%04" PRId64 "%02u%02u%02d", y, mo, d, h);
        break;
    case PM_TAG_TWO_HOURS: snprintf(out, cap, "%04" PRId64 "-%02u-%02u %02d", y, mo, d, h); break;
    case PM_TAG_DURATION:
        snprintf(out, cap, "%04" PRId64 "%02u%02u%02d%02d", y, mo, d, h, mi);
        break;
    }
}

/* Reads `n` digits at *s; false if they are not all digits. */
static bool digits(const char **s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        char c = (*s)[i];
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    *s += n;
    *out = v;
    return true;
}

static bool lit(const char **s, char c)
{
    if (**s != c)
        return false;
    (*s)++;
    return true;
}

/* A valid date (Java's STRICT resolver). */
static bool date_ok(int y, int mo, int d)
{
    static const int DAYS[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return mo >= 1 && mo <= 12 && d >= 1 && d <= DAYS[mo - 1] && !(mo == 2 && d == 29 && !leap);
}

bool pm_tag_period_parse(const pm_tag_period *p, const char *name, int64_t *local_ms)
{
    const char *s = name;
    int y, mo, d, h = 0, mi = 0;
    bool dashes = p->kind == PM_TAG_TWO_HOURS ||
                  (p->kind != PM_TAG_DURATION && p->formatter == PM_TAG_WITH_DASHES);
    if (!digits(&s, 4, &y) || (dashes && !lit(&s, '-')) || !digits(&s, 2, &mo) ||
        (dashes && !lit(&s, '-')) || !digits(&s, 2, &d))
        return false;
    switch (p->kind) {
    case PM_TAG_DAILY: /* Java parses what comes before the first space */
        if (*s != '\0' && *s != ' ')
            return false;
        break;
    case PM_TAG_HOURLY:
    case PM_TAG_TWO_HOURS:
        if ((p->kind == PM_TAG_TWO_HOURS || p->formatter != PM_TAG_WITHOUT_DASHES_AND_SPACES) &&
            !lit(&s, ' '))
            return false;
        if (!digits(&s, 2, &h) || h > 23 || *s != '\0')
            return false;
        break;
    case PM_TAG_DURATION:
        if (!digits(&s, 2, &h) || !digits(&s, 2, &mi) || h > 23 || mi > 59 || *s != '\0')
            return false;
        break;
    }
    if (!date_ok(y, mo, d))
        return false;
    *local_ms = pm_days_from_civil(y, (unsigned)mo, (unsigned)d) * MS_PER_DAY + h * MS_PER_HOUR +
                mi * 60000LL;
    return true;
}

int64_t pm_tag_period_previous(const pm_tag_period *p, int64_t local_ms)
{
    /* Java divides with `/` (toward zero); times before 1970 are not met */
    return (local_ms / p->period_ms) * p->period_ms - p->period_ms;
}

/* ---- time zones ---------------------------------------------------------------------------- */

/* The local time of `epoch_ms` in zone option `key`: unset -> `dflt_system` decides. */
PM_MUST_CHECK static int zone_is_utc(const pm_options *o, const char *key, bool *utc,
                                     paimon_error *err)
{
    const char *z = pm_options_get_str(o, key);
    if (z == NULL) { /* sink.process-time-zone: the system default */
        *utc = false;
        return 0;
    }
    if (strcasecmp(z, "UTC") == 0 || strcasecmp(z, "Z") == 0 || strcasecmp(z, "GMT") == 0 ||
        strcmp(z, "+00:00") == 0 || strcasecmp(z, "Etc/UTC") == 0) {
        *utc = true;
        return 0;
    }
    return pm_err_set(err, PAIMON_EUNSUPPORTED,
                      "option %s: time zone '%s' is not supported (UTC, or unset for the "
                      "system's zone)",
                      key, z);
}

/* ---- creation ------------------------------------------------------------------------------ */

typedef struct autotag {
    pm_fs *fs;
    const char *table;
    pm_tag_period period;
    bool watermark, utc, completion, has_next;
    int64_t delay, retained, next_tag; /* local millis */
    int64_t num_retained_max;          /* -1: none */
} autotag;

/* The tag time of snapshot `id`: false when it has none (no watermark), *gone when the
 * snapshot file does not exist. */
PM_MUST_CHECK static int snapshot_time(autotag *a, int64_t id, bool *has, int64_t *local,
                                       pm_snapshot **keep, paimon_error *err)
{
    pm_snapshot *s = NULL;
    int64_t t;
    int rc = pm_snapshot_read(a->fs, a->table, id, &s, err);
    *has = false;
    if (rc != 0)
        return rc;
    if (a->watermark) {
        *has = s->has_watermark && s->watermark != INT64_MIN;
        t = s->watermark;
    } else {
        *has = true;
        t = s->time_millis;
    }
    if (*has)
        *local = a->utc ? t : pm_epoch_to_local_millis(t);
    if (keep != NULL)
        *keep = s;
    else
        pm_snapshot_free(s);
    return 0;
}

static bool passes(const autotag *a, int64_t local)
{
    return !a->has_next || local - a->delay >= a->next_tag + a->period.period_ms;
}

/* The first snapshot in [lo, hi] that passes; 0 when none. */
PM_MUST_CHECK static int first_passing(autotag *a, int64_t lo, int64_t hi, int64_t *found,
                                       paimon_error *err)
{
    bool has;
    int64_t t = 0;
    int rc = 0;
    *found = 0;
    while (hi - lo >= SEQUENTIAL) { /* times grow with ids: bisect to a short range */
        int64_t mid = lo + (hi - lo) / 2;
        PM_TRY(snapshot_time(a, mid, &has, &t, NULL, err));
        if (has && passes(a, t))
            hi = mid;
        else
            lo = mid + 1;
    }
    for (int64_t id = lo; id <= hi; id++) {
        PM_TRY(snapshot_time(a, id, &has, &t, NULL, err));
        if (has && passes(a, t)) {
            *found = id;
            break;
        }
    }
done:
    return rc;
}

/* The auto tags (names the period parses) of `tags`, in snapshot order. */
static size_t auto_tags(const autotag *a, pm_tag **tags, size_t n, pm_tag **out)
{
    size_t m = 0;
    int64_t t;
    for (size_t i = 0; i < n; i++)
        if (pm_tag_period_parse(&a->period, tags[i]->name, &t))
            out[m++] = tags[i];
    return m;
}

/* tag.num-retained-max over the auto tags. */
PM_MUST_CHECK static int retain_auto(autotag *a, paimon_error *err)
{
    pm_tag **tags = NULL, **autos = NULL;
    size_t n = 0, m;
    int rc = 0;
    if (a->num_retained_max < 0)
        return 0;
    PM_TRY(pm_tag_read_all(a->fs, a->table, &tags, &n, err));
    if (n > 0 && (autos = pm_calloc(n, sizeof(*autos))) == NULL)
        PM_TRY(pm_nomem(err));
    m = auto_tags(a, tags, n, autos);
    for (size_t i = 0; m > (size_t)a->num_retained_max && i < m - (size_t)a->num_retained_max; i++)
        PM_TRY(pm_tag_delete(a->fs, a->table, autos[i]->name, NULL, err));
done:
    pm_free(autos);
    pm_tag_free_all(tags, n);
    return rc;
}

PM_MUST_CHECK static int create_auto(autotag *a, paimon_error *err)
{
    pm_tag **tags = NULL, **autos = NULL;
    size_t n = 0, m;
    int64_t next = 1, latest = 0, earliest = 0;
    bool found = false;
    int rc = 0;

    PM_TRY(pm_tag_read_all(a->fs, a->table, &tags, &n, err));
    if (n > 0 && (autos = pm_calloc(n, sizeof(*autos))) == NULL)
        PM_TRY(pm_nomem(err));
    m = auto_tags(a, tags, n, autos);
    PM_TRY(pm_snapshot_earliest_id(a->fs, a->table, &earliest, &found, err));
    if (!found)
        goto done;
    PM_TRY(pm_snapshot_latest_id(a->fs, a->table, &latest, &found, err));
    if (m == 0) {
        next = earliest;
    } else {
        const pm_tag *last = autos[m - 1];
        if (m > 1 && autos[m - 2]->snapshot->id == last->snapshot->id)
            PM_TRY(pm_err_set(err, PAIMON_EINVALID,
                              "%s: more than one auto-created tag of snapshot %" PRId64 ": %s, %s",
                              a->table, last->snapshot->id, autos[m - 2]->name, last->name));
        next = last->snapshot->id + 1;
        PM_IGNORE(pm_tag_period_parse(&a->period, last->name, &a->next_tag));
        a->next_tag += a->period.period_ms;
        a->has_next = true;
    }
    if (next < earliest) /* expired meanwhile */
        next = earliest;
    while (next <= latest) {
        int64_t id = 0, t = 0, this_tag;
        pm_snapshot *snap = NULL;
        bool has = false;
        char name[40];
        PM_TRY(first_passing(a, next, latest, &id, err));
        if (id == 0)
            break;
        PM_TRY(snapshot_time(a, id, &has, &t, &snap, err));
        this_tag = pm_tag_period_previous(&a->period, t);
        if (a->completion && a->has_next)
            this_tag = a->next_tag;
        pm_tag_period_format(&a->period, this_tag, name, sizeof(name));
        rc = pm_tag_create_file(a->fs, a->table, name, snap, a->retained, err);
        pm_snapshot_free(snap);
        PM_TRY(rc == PAIMON_EEXISTS ? 0 : rc); /* an auto tag that exists is kept */
        a->next_tag = this_tag + a->period.period_ms;
        a->has_next = true;
        PM_TRY(retain_auto(a, err));
        next = id + 1;
    }
done:
    pm_free(autos);
    pm_tag_free_all(tags, n);
    return rc;
}

/* ---- batch and expiry ---------------------------------------------------------------------- */

PM_MUST_CHECK static int create_batch(autotag *a, const pm_options *o, paimon_error *err)
{
    const char *custom = pm_options_get_str(o, "tag.batch.customized-name");
    pm_snapshot *snap = NULL;
    pm_tag **tags = NULL;
    size_t n = 0;
    int64_t latest = 0;
    bool found = false;
    char name[64];
    int rc = 0;

    PM_TRY(pm_snapshot_latest_id(a->fs, a->table, &latest, &found, err));
    if (!found)
        goto done;
    PM_TRY(pm_snapshot_read(a->fs, a->table, latest, &snap, err));
    if (custom == NULL) {
        int64_t y, t = a->utc ? snap->time_millis : pm_epoch_to_local_millis(snap->time_millis);
        unsigned mo, d;
        int h, mi;
        fields(t, &y, &mo, &d, &h, &mi);
        snprintf(name, sizeof(name), "batch-write-%04" PRId64 "-%02u-%02u", y, mo, d);
        custom = name;
    }
    PM_TRY(pm_tag_name_check(a->table, custom, err));
    rc = pm_tag_delete(a->fs, a->table, custom, NULL, err); /* replaced, as Java does */
    PM_TRY(rc == PAIMON_ENOTFOUND ? 0 : rc);
    PM_TRY(pm_tag_create_file(a->fs, a->table, custom, snap, a->retained, err));
    if (a->num_retained_max >= 0) { /* every tag counts, oldest snapshot first */
        PM_TRY(pm_tag_read_all(a->fs, a->table, &tags, &n, err));
        for (size_t i = 0; n > (size_t)a->num_retained_max && i < n - (size_t)a->num_retained_max;
             i++)
            PM_TRY(pm_tag_delete(a->fs, a->table, tags[i]->name, NULL, err));
    }
done:
    pm_tag_free_all(tags, n);
    pm_snapshot_free(snap);
    return rc;
}

/* TagTimeExpire: tags whose tagCreateTime + tagTimeRetained has passed. */
PM_MUST_CHECK static int expire_by_time(autotag *a, int64_t now_ms, paimon_error *err)
{
    pm_tag **tags = NULL;
    size_t n = 0;
    int64_t now_local = pm_epoch_to_local_millis(now_ms);
    int rc = 0;
    PM_TRY(pm_tag_read_all(a->fs, a->table, &tags, &n, err));
    for (size_t i = 0; i < n; i++) {
        int64_t created, retained;
        if (!pm_tag_create_time_ms(tags[i], &created) ||
            !pm_tag_time_retained_ms(tags[i], &retained))
            continue;
        if (now_local > created + retained) {
            rc = pm_tag_delete(a->fs, a->table, tags[i]->name, NULL, err);
            PM_TRY(rc == PAIMON_ENOTFOUND ? 0 : rc);
        }
    }
done:
    pm_tag_free_all(tags, n);
    return rc;
}

int pm_tag_auto_run(pm_fs *fs, const char *table, paimon_error *err)
{
    return pm_tag_auto_run_at(fs, table, pm_now_millis(), err);
}

int pm_tag_auto_run_at(pm_fs *fs, const char *table, int64_t now_ms, paimon_error *err)
{
    pm_schema *schema = NULL;
    const pm_options *o;
    const char *mode;
    bool expire = true;
    autotag a;
    int rc = 0;

    memset(&a, 0, sizeof(a));
    a.fs = fs;
    a.table = table;
    PM_TRY(pm_schema_read_latest(fs, table, &schema, err));
    o = &schema->options;
    mode = pm_options_get_str(o, "tag.automatic-creation");
    PM_TRY(pm_options_get_bool(o, "tag.time-expire-enabled", &expire, err));
    PM_TRY(pm_options_get_duration_or(o, "tag.default-time-retained", PM_TAG_NO_RETENTION,
                                      &a.retained, err));
    PM_TRY(pm_options_get_i64_or(o, "tag.num-retained-max", -1, &a.num_retained_max, err));
    if (strcasecmp(mode, "process-time") == 0 || strcasecmp(mode, "watermark") == 0) {
        a.watermark = strcasecmp(mode, "watermark") == 0;
        PM_TRY(zone_is_utc(o, a.watermark ? "sink.watermark-time-zone" : "sink.process-time-zone",
                           &a.utc, err));
        PM_TRY(pm_tag_period_from(o, &a.period, err));
        PM_TRY(pm_options_get_duration(o, "tag.creation-delay", &a.delay, err));
        PM_TRY(pm_options_get_bool(o, "tag.automatic-completion", &a.completion, err));
        if (a.delay >= a.period.period_ms)
            PM_TRY(pm_err_set(err, PAIMON_EINVALID,
                              "%s: option tag.creation-delay must be shorter than the tag "
                              "period",
                              table));
        PM_TRY(create_auto(&a, err));
    } else if (strcasecmp(mode, "batch") == 0) {
        PM_TRY(zone_is_utc(o, "sink.process-time-zone", &a.utc, err));
        PM_TRY(create_batch(&a, o, err));
    }
    if (expire)
        PM_TRY(expire_by_time(&a, now_ms, err));
done:
    pm_schema_free(schema);
    return rc;
}
