/* Clocks and calendar arithmetic: see time.h. */
#include "util/time.h"

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
