/* Public progress counters: util/progress.h. */
#include <stddef.h>

#include "paimon/progress.h"
#include "util/progress.h"

PAIMON_API void paimon_progress_read(paimon_progress *out)
{
    if (out == NULL)
        return;
    out->files_written = pm_progress_get(PM_PROGRESS_FILES_WRITTEN);
    out->rows_written = pm_progress_get(PM_PROGRESS_ROWS_WRITTEN);
    out->bytes_written = pm_progress_get(PM_PROGRESS_BYTES_WRITTEN);
    out->files_removed = pm_progress_get(PM_PROGRESS_FILES_REMOVED);
}
