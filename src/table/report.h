/*
 * The shape of a table (issue 18): the lists behind `paimon inspect TABLE health` and
 * `--html`, built in report.c (buckets, commits, deletion vectors, limits) and health.c (the
 * health items).  Each list is a paimon_list of table/inspect.h; the caller owns `*out` and
 * releases it with pm_list_free().
 */
#ifndef PM_TABLE_REPORT_H
#define PM_TABLE_REPORT_H

#include "paimon/inspect.h"
#include "table/table.h"
#include "util/error.h"

/* The limits of the latest schema and the snapshot retention window (paimon_health_limits). */
PM_MUST_CHECK int pm_report_limits(paimon_table *t, paimon_health_limits *out, paimon_error *err);

/* PM_LIST_BUCKETS of snapshot `snapshot_id` (PAIMON_LATEST_SNAPSHOT: the latest). */
PM_MUST_CHECK int pm_report_buckets(paimon_table *t, int64_t snapshot_id, paimon_list **out,
                                    paimon_error *err);

/* PM_LIST_COMMITS: one entry per snapshot, oldest first. */
PM_MUST_CHECK int pm_report_commits(paimon_table *t, paimon_list **out, paimon_error *err);

/* PM_LIST_DVS of snapshot `snapshot_id`. */
PM_MUST_CHECK int pm_report_dvs(paimon_table *t, int64_t snapshot_id, paimon_list **out,
                                paimon_error *err);

/* PM_LIST_HEALTH of the latest snapshot (health.c). */
PM_MUST_CHECK int pm_report_health(paimon_table *t, paimon_list **out, paimon_error *err);

/* Java's default of option `key` as text, or NULL (*known: whether the key is catalogued). */
const char *pm_report_option_default(const char *key, bool *known);

#endif /* PM_TABLE_REPORT_H */
