/*
 * Time-zone rules for ORC timestamps.
 *
 * ORC's TIMESTAMP (without time zone) stores seconds since 2015-01-01 00:00:00 *in the
 * writer's time zone*, which each stripe footer names (`writerTimezone`, a Java zone id
 * such as "Asia/Shanghai").  Reading the wall-clock value Java wrote needs the zone's UTC
 * offset at two instants (docs/format/orc.md, "Timestamps"), so paimon-c reads the zone
 * from the system's tz database: TZif files (RFC 8536) under $TZDIR or
 * /usr/share/zoneinfo, their transition tables and, beyond the last transition, the POSIX
 * TZ rule in the file's footer ("CET-1CEST,M3.5.0,M10.5.0/3").
 *
 * Zone ids as Java accepts them: "UTC", "GMT", "Z", custom "GMT+8", "GMT+08:00",
 * "UTC-03:30", and tz database names.  Java's TimeZone.getTimeZone() maps an id it does not
 * know to GMT; so does pm_orc_tz_load() when the tz database exists but has no such zone.
 * When there is no tz database at all, a named zone is PAIMON_EUNSUPPORTED.
 *
 * Thread safety: a loaded pm_orc_tz is immutable.
 */
#ifndef PM_FORMAT_ORC_TZ_H
#define PM_FORMAT_ORC_TZ_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

typedef struct pm_orc_tz pm_orc_tz;

/* Caller owns `*out`; release with pm_orc_tz_free(). */
PM_MUST_CHECK int pm_orc_tz_load(const char *id, pm_orc_tz **out, paimon_error *err);
void pm_orc_tz_free(pm_orc_tz *tz);

/* The zone id the rules were loaded for.  Borrowed. */
const char *pm_orc_tz_id(const pm_orc_tz *tz);

/* Seconds east of UTC in effect at `utc_seconds` (Java's TimeZone.getOffset, in s). */
int32_t pm_orc_tz_offset(const pm_orc_tz *tz, int64_t utc_seconds);
/* Whether the zone is UTC at every instant (no transitions, no rule, offset 0): readers skip
 * the conversion. */
bool pm_orc_tz_is_utc(const pm_orc_tz *tz);

/* The instant of local wall-clock time `local_seconds` (seconds since the epoch as if the
 * wall clock were UTC): the earlier of two candidates in an overlap, shifted forward in a
 * gap, as java.util.Calendar resolves it. */
int64_t pm_orc_tz_local_to_utc(const pm_orc_tz *tz, int64_t local_seconds);

#endif /* PM_FORMAT_ORC_TZ_H */
