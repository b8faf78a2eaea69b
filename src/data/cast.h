/*
 * Casting values between Paimon types, as Java's CastExecutors do when a data file written
 * under an older schema is read with a column whose type was altered (behaviour.md §8.8).
 *
 * Rules (Java 1.4.2, paimon-common's casting package):
 *   integers <-> integers      Java's primitive conversions (narrowing wraps)
 *   integers -> FLOAT/DOUBLE   exact conversion; FLOAT/DOUBLE -> integers truncate
 *                              (NaN -> 0, saturating to the long range first)
 *   numbers -> DECIMAL(p, s)   rounded HALF_UP to s digits; more than p digits -> null
 *   DECIMAL -> integers        truncates toward zero; DECIMAL -> FLOAT/DOUBLE
 *   BOOLEAN <-> numbers        true = 1; a number is true when it is not 0
 *   anything scalar -> CHAR/VARCHAR   Java's text of the value (Double.toString, plain
 *                              decimals, yyyy-MM-dd, HH:mm:ss[.fff], timestamps with at least
 *                              `precision` fraction digits), cut to the length; CHAR pads
 *   CHAR/VARCHAR -> BOOLEAN    t/true/y/yes/1 and f/false/n/no/0, any case; else an error
 *   CHAR/VARCHAR -> numbers, DECIMAL, DATE, TIME, TIMESTAMP   parsed; a malformed value is
 *                              an error naming it
 *   BINARY/VARBINARY <-> BINARY/VARBINARY, CHAR/VARCHAR -> binaries, binaries -> strings
 *   DATE -> TIMESTAMP (midnight), TIMESTAMP -> DATE/TIME, TIME -> TIMESTAMP (1970-01-01)
 *   TIMESTAMP <-> TIMESTAMP_LTZ, precision changes truncate (the session zone is UTC)
 *   numbers <-> TIMESTAMP      epoch seconds
 * Nested types are not cast here: schema evolution maps ROW fields by id (table/file_reader.c).
 */
#ifndef PM_DATA_CAST_H
#define PM_DATA_CAST_H

#include <stdbool.h>

#include "data/batch.h"
#include "util/error.h"

/* Whether a value of `from` can be read as `to`. */
bool pm_cast_supported(const pm_type *from, const pm_type *to);

/* Casts every slot of `src` (of type `src->type`) into a new column of type `to`
 * (borrowed; it must outlive the column).  A value that cannot be cast is PAIMON_EINVALID
 * naming the value and `what`.  Caller owns `*out`; release with pm_column_free(). */
PM_MUST_CHECK int pm_cast_column(const pm_column *src, const pm_type *to, const char *what,
                                 pm_column **out, paimon_error *err);

/* Casts one value; text results are written to `scratch` and borrowed from it. */
PM_MUST_CHECK int pm_cast_datum(const pm_type *from, const pm_datum *in, const pm_type *to,
                                pm_buf *scratch, pm_datum *out, const char *what,
                                paimon_error *err);

#endif /* PM_DATA_CAST_H */
