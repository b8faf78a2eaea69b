/* Clocks and calendar arithmetic: see time.h. */
#include "util/time.h"

#include <stdbool.h>
#include <time.h>

int64_t pm_now_millis(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t pm_now_local_as_utc_millis(void)
{
    struct timespec ts;
    struct tm local;
    time_t secs;

    clock_gettime(CLOCK_REALTIME, &ts);
    secs = ts.tv_sec;
    if (localtime_r(&secs, &local) == NULL)
        return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    return ((int64_t)ts.tv_sec + local.tm_gmtoff) * 1000 + ts.tv_nsec / 1000000;
}

int64_t pm_local_offset_millis(int64_t epoch_millis)
{
    time_t secs = (time_t)pm_floor_div(epoch_millis, 1000);
    struct tm local;
    if (localtime_r(&secs, &local) == NULL)
        return 0;
    return (int64_t)local.tm_gmtoff * 1000;
}

int64_t pm_epoch_to_local_millis(int64_t epoch_millis)
{
    return epoch_millis + pm_local_offset_millis(epoch_millis);
}

int64_t pm_local_to_epoch_millis(int64_t local_millis)
{
    /* The offsets in force around the local time: a transition within a day of it shows
     * up as two different values.  An offset o is valid for the local time when the
     * instant local - o really has offset o. */
    int64_t day = 86400000, best = 0;
    int64_t cand[3] = {pm_local_offset_millis(local_millis - day),
                       pm_local_offset_millis(local_millis),
                       pm_local_offset_millis(local_millis + day)};
    bool found = false;
    int64_t lowest = cand[0];
    for (int i = 0; i < 3; i++) {
        if (cand[i] < lowest)
            lowest = cand[i];
        if (pm_local_offset_millis(local_millis - cand[i]) == cand[i] &&
            (!found || cand[i] > best)) {
            best = cand[i]; /* ambiguous: the larger offset is the earlier instant */
            found = true;
        }
    }
    /* In a gap no offset is valid: Java uses the offset before the transition (the lower
     * one, clocks having moved forward), which moves the time forward by the gap. */
    return local_millis - (found ? best : lowest);
}

int64_t pm_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    int64_t era;
    unsigned yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = (unsigned)(y - era * 400);
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

void pm_civil_from_days(int64_t z, int64_t *year, unsigned *month, unsigned *day)
{
    int64_t era, y;
    unsigned doe, yoe, doy, mp, d, m;
    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = (unsigned)(z - era * 146097);
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = (int64_t)yoe + era * 400;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    *year = y + (m <= 2);
    *month = m;
    *day = d;
}
