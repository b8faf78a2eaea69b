/*
 * One value of the public row API (paimon_value, include/paimon/write.h) as a datum of its
 * column's type: what paimon_writer_write_row() stores.  Every conversion is checked; nothing
 * is rounded, truncated or wrapped: an integer out of the column's range, a TIME outside the
 * day, a DECIMAL with too many digits or a value of the wrong kind is PAIMON_EINVALID
 * "row R, column C: why".  Text for a column that is not a string is parsed as Java casts a
 * string (data/cast.h).  Nested columns take only nulls here: their JSON text is parsed
 * into a column by the writer (src/api/writer.c).
 */
#ifndef PM_TABLE_WRITE_VALUE_H
#define PM_TABLE_WRITE_VALUE_H

#include "data/datum.h"
#include "data/types.h"
#include "paimon/write.h"
#include "util/buf.h"
#include "util/error.h"

/* Converts `v` for column `f` of row `row` (named in errors) into `*d`.  Bytes of text and
 * binary values are borrowed from `v`; a cast may use `scratch` (data/cast.h). */
PM_MUST_CHECK int pm_value_to_datum(const pm_field *f, const paimon_value *v, int64_t row,
                                    pm_buf *scratch, pm_datum *d, paimon_error *err);

#endif /* PM_TABLE_WRITE_VALUE_H */
