/*
 * The text Java gives values: LocalDateTime.toString(), Double/Float.toString() (JDK 19+,
 * shortest digits), and Paimon's DateTimeUtils formatting of timestamps and times.  Partition
 * directory names and casts to strings must reproduce them exactly.
 */
#ifndef PM_DATA_JAVA_TEXT_H
#define PM_DATA_JAVA_TEXT_H

#include <stdint.h>

#include "util/buf.h"

/* java.time.LocalDateTime.toString(): 2024-05-14T10:11, :ss when seconds or nanos are not 0,
 * then 3, 6 or 9 fraction digits. */
int pm_java_local_date_time(pm_buf *out, int64_t millis, int32_t nanos_of_milli);

/* Double.toString / Float.toString of JDK 19+. */
int pm_java_double_string(pm_buf *out, double v);
int pm_java_float_string(pm_buf *out, float v);

/* DateTimeUtils.formatTimestamp(ts, precision): yyyy-MM-dd HH:mm:ss, then the nine fraction
 * digits with trailing zeros removed while more than `precision` remain (none when all go). */
int pm_java_format_timestamp(pm_buf *out, int64_t millis, int32_t nanos_of_milli, int precision);

/* DateTimeUtils.formatTimestampMillis(time, precision) for TIME values: HH:mm:ss and, when
 * precision > 0, fraction digits up to the last non-zero one (at least one). */
int pm_java_format_time(pm_buf *out, int64_t millis_of_day, int precision);

#endif /* PM_DATA_JAVA_TEXT_H */
