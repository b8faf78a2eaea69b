/* Process-wide progress counters: see progress.h. */
#include "util/progress.h"

#include <stdatomic.h>

static _Atomic int64_t counters[PM_PROGRESS_COUNTERS];

void pm_progress_add(pm_progress_counter c, int64_t n)
{
    if ((unsigned)c < PM_PROGRESS_COUNTERS)
        atomic_fetch_add_explicit(&counters[c], n, memory_order_relaxed);
}

int64_t pm_progress_get(pm_progress_counter c)
{
    if ((unsigned)c >= PM_PROGRESS_COUNTERS)
        return 0;
    return atomic_load_explicit(&counters[c], memory_order_relaxed);
}
