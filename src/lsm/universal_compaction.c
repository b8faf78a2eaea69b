/* Universal compaction picks: see universal_compaction.h. */
#include "lsm/universal_compaction.h"

#include <time.h>

#include "meta/option_catalog.h"
#include "util/time.h"

int pm_universal_init(pm_universal *u, const pm_options *o, paimon_error *err)
{
    int rc;
    u->last_full_ms = -1;
    u->hour_now = NULL;
    u->now_ms = NULL;
    if ((rc = pm_options_get_i64(o, "compaction.max-size-amplification-percent", &u->max_size_amp,
                                 err)) != 0 ||
        (rc = pm_options_get_i64(o, "compaction.size-ratio", &u->size_ratio, err)) != 0 ||
        (rc = pm_options_get_i64(o, "num-sorted-run.compaction-trigger", &u->trigger, err)) != 0 ||
        (rc = pm_options_get_i64(o, "compaction.offpeak.start.hour", &u->offpeak_start, err)) !=
            0 ||
        (rc = pm_options_get_i64(o, "compaction.offpeak.end.hour", &u->offpeak_end, err)) != 0 ||
        (rc = pm_options_get_i64(o, "compaction.offpeak-ratio", &u->offpeak_ratio, err)) != 0 ||
        /* unset (-1): no periodic full compaction, no size thresholds */
        (rc = pm_options_get_duration_or(o, "compaction.optimization-interval", -1, &u->interval_ms,
                                         err)) != 0 ||
        (rc = pm_options_get_memory_or(o, "compaction.total-size-threshold", -1, &u->total_size,
                                       err)) != 0 ||
        (rc = pm_options_get_memory_or(o, "compaction.incremental-size-threshold", -1,
                                       &u->incremental, err)) != 0)
        return rc;
    return 0; /* a trigger below 1 is refused by the getter (meta/option_catalog.c) */
}

static int64_t now_ms(const pm_universal *u)
{
    return u->now_ms != NULL ? u->now_ms() : pm_now_millis();
}

/* OffPeakHours.currentRatio: the extra ratio inside [start, end) (wrapping past midnight). */
static int64_t offpeak_ratio(const pm_universal *u)
{
    int64_t h, s = u->offpeak_start, e = u->offpeak_end;
    bool in;
    if (s == -1 || e == -1 || s == e)
        return 0;
    if (u->hour_now != NULL) {
        h = u->hour_now();
    } else {
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        h = tm.tm_hour;
    }
    in = s < e ? h >= s && h < e : h >= s || h < e;
    return in ? u->offpeak_ratio : 0;
}

/* Java's createUnit: the output level of the first `count` runs (count may grow). */
static void create_unit(pm_universal *u, int32_t max_level, const pm_level_run *runs, size_t n,
                        size_t count, size_t *run_count, int32_t *output)
{
    int32_t out;
    if (count == n) {
        out = max_level;
    } else {
        out = runs[count].level - 1;
        if (out < 0)
            out = 0;
    }
    if (out == 0) {
        /* never output to level 0: take runs up to the first one above level 0 */
        for (size_t i = count; i < n; i++) {
            count++;
            if (runs[i].level != 0) {
                out = runs[i].level;
                break;
            }
        }
    }
    if (count == n) {
        u->last_full_ms = now_ms(u);
        out = max_level;
    }
    *run_count = count;
    *output = out;
}

bool pm_universal_pick_size_ratio(pm_universal *u, int32_t num_levels, const pm_level_run *runs,
                                  size_t n, size_t count, bool force, size_t *run_count,
                                  int32_t *output)
{
    int64_t size = 0, extra = offpeak_ratio(u);
    for (size_t i = 0; i < count && i < n; i++)
        size += runs[i].size;
    for (size_t i = count; i < n; i++) {
        /* Java compares in double: candidateSize * (100.0 + ratio + offpeak) / 100.0 */
        if ((double)size * (100.0 + (double)u->size_ratio + (double)extra) / 100.0 <
            (double)runs[i].size)
            break;
        size += runs[i].size;
        count++;
    }
    if (!force && count <= 1)
        return false;
    create_unit(u, num_levels - 1, runs, n, count, run_count, output);
    return true;
}

/* EarlyFullCompaction.tryFullCompact. */
static bool early_full(pm_universal *u, int32_t max_level, const pm_level_run *runs, size_t n)
{
    if (n == 1)
        return false;
    if (u->interval_ms >= 0 &&
        (u->last_full_ms < 0 || now_ms(u) - u->last_full_ms > u->interval_ms))
        return true;
    if (u->total_size >= 0) {
        int64_t total = 0;
        for (size_t i = 0; i < n; i++)
            total += runs[i].size;
        if (total < u->total_size)
            return true;
    }
    if (u->incremental >= 0) {
        int64_t inc = 0;
        for (size_t i = 0; i < n; i++)
            if (runs[i].level != max_level)
                inc += runs[i].size;
        if (inc > u->incremental)
            return true;
    }
    return false;
}

bool pm_universal_pick(pm_universal *u, int32_t num_levels, const pm_level_run *runs, size_t n,
                       size_t *run_count, int32_t *output)
{
    int32_t max_level = num_levels - 1;
    if (n == 0)
        return false;
    if ((u->interval_ms >= 0 || u->total_size >= 0 || u->incremental >= 0) &&
        early_full(u, max_level, runs, n)) {
        u->last_full_ms = now_ms(u);
        *run_count = n;
        *output = max_level;
        return true;
    }
    if ((int64_t)n >= u->trigger) {
        /* 1. size amplification */
        int64_t candidate = 0, earliest = runs[n - 1].size;
        for (size_t i = 0; i + 1 < n; i++)
            candidate += runs[i].size;
        if (candidate * 100 > u->max_size_amp * earliest) { /* Java long arithmetic */
            u->last_full_ms = now_ms(u);
            *run_count = n;
            *output = max_level;
            return true;
        }
        /* 2. size ratio */
        if (pm_universal_pick_size_ratio(u, num_levels, runs, n, 1, false, run_count, output))
            return true;
    }
    /* 3. file number */
    if ((int64_t)n > u->trigger)
        return pm_universal_pick_size_ratio(u, num_levels, runs, n, n - (size_t)u->trigger + 1,
                                            false, run_count, output);
    return false;
}
