/*
 * Automatic tags (behaviour.md §8.3), step 1 of the post-commit upkeep (maintain.h): Java
 * 1.4.2's TagAutoManager -- TagAutoCreation with its TagPeriodHandler and TagTimeExtractor,
 * TagBatchCreation, and TagTimeExpire.
 *
 *  - tag.automatic-creation process-time (the snapshot's commit time) or watermark (its
 *    watermark; snapshots without one are passed over): a snapshot whose time t satisfies
 *    t - tag.creation-delay >= nextTag + period (or any snapshot while no auto tag exists)
 *    gets the tag named floor(t, period) - period, formatted by the period's formatter;
 *    nextTag is then that time + period.  With tag.automatic-completion the tag takes the
 *    expected nextTag instead (so no period is skipped).  The state is rebuilt from the
 *    tags on every run, as Java's constructor does: nextTag follows the auto tag of the
 *    highest snapshot, and snapshots after that one are examined.  paimon-c finds the
 *    first snapshot that passes by binary search over those ids when they are many,
 *    which assumes times that do not decrease with ids (commit times and watermarks do).
 *  - periods: tag.creation-period daily | hourly | two-hours, or
 *    tag.creation-period-duration (names yyyyMMddHHmm); tag.period-formatter with_dashes
 *    (yyyy-MM-dd, yyyy-MM-dd HH) | without_dashes (yyyyMMdd, yyyyMMdd HH) |
 *    without_dashes_and_spaces (yyyyMMdd, yyyyMMddHH); two-hours always yyyy-MM-dd HH.
 *    A delay not shorter than the period is refused, as Java's validateDelay does.
 *  - tag.num-retained-max: the oldest auto tags beyond it are deleted (with their files).
 *  - tag.automatic-creation batch: the latest snapshot is tagged `batch-write-yyyy-MM-dd`
 *    (its commit date) or tag.batch.customized-name, replacing a tag of that name; then
 *    tags beyond tag.num-retained-max are deleted, oldest snapshot first.
 *  - tag.time-expire-enabled (default true): every tag with tagCreateTime and
 *    tagTimeRetained whose retention has passed is deleted.
 *  - New tags get tag.default-time-retained.
 *  - Time zones: sink.process-time-zone (unset: the system's) and sink.watermark-time-zone
 *    (default UTC); paimon-c knows the system zone and UTC, and refuses other zones.
 */
#ifndef PM_TABLE_TAG_AUTO_H
#define PM_TABLE_TAG_AUTO_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "meta/options.h"
#include "util/error.h"

/* The period handler of a table's options. */
typedef enum pm_tag_period_kind {
    PM_TAG_DAILY,
    PM_TAG_HOURLY,
    PM_TAG_TWO_HOURS,
    PM_TAG_DURATION
} pm_tag_period_kind;

typedef enum pm_tag_formatter {
    PM_TAG_WITH_DASHES,
    PM_TAG_WITHOUT_DASHES,
    PM_TAG_WITHOUT_DASHES_AND_SPACES
} pm_tag_formatter;

typedef struct pm_tag_period {
    pm_tag_period_kind kind;
    pm_tag_formatter formatter;
    int64_t period_ms;
} pm_tag_period;

PM_MUST_CHECK int pm_tag_period_from(const pm_options *o, pm_tag_period *out, paimon_error *err);
/* The tag name of a local date-time (epoch-style millis) into `out` (cap >= 32). */
void pm_tag_period_format(const pm_tag_period *p, int64_t local_ms, char *out, size_t cap);
/* Parses an auto tag's name back to its local time; false when it is no auto tag. */
bool pm_tag_period_parse(const pm_tag_period *p, const char *name, int64_t *local_ms);
/* Java's normalizeToPreviousTag: floor(t, period) - period. */
int64_t pm_tag_period_previous(const pm_tag_period *p, int64_t local_ms);

/* Runs the automatic tag creation and expiry for `table` as its options ask, now. */
PM_MUST_CHECK int pm_tag_auto_run(pm_fs *fs, const char *table, paimon_error *err);
/* The same at time `now_ms` (epoch millis), for tests. */
PM_MUST_CHECK int pm_tag_auto_run_at(pm_fs *fs, const char *table, int64_t now_ms,
                                     paimon_error *err);

#endif /* PM_TABLE_TAG_AUTO_H */
