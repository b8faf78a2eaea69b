/*
 * Avro data files of Paimon tables (file.format=avro): the reader behind the data-file
 * interface (avro_data_read.c, pm_avro_format in data_file.c's table) and the writer of
 * columnar batches (avro_data_write.c).  The container is the metadata layer's
 * (avro_container.h); docs/format/avro.md describes both.
 *
 * The schema is Java Paimon 1.4.2's AvroSchemaConverter:
 *
 *   Paimon type                     Avro
 *   BOOLEAN                         boolean
 *   TINYINT, SMALLINT, INT          int
 *   BIGINT                          long
 *   FLOAT, DOUBLE                   float, double
 *   CHAR, VARCHAR                   string
 *   BINARY, VARBINARY               bytes
 *   DATE                            int, logicalType date
 *   TIME(p <= 3)                    int, logicalType time-millis
 *   DECIMAL(p, s)                   bytes, logicalType decimal (two's complement, big endian)
 *   TIMESTAMP(p <= 3), (p <= 6)     long, timestamp-millis, timestamp-micros
 *   TIMESTAMP(p) WITH LOCAL ...     long, local-timestamp-millis, local-timestamp-micros
 *   ARRAY<T>                        array
 *   MAP<STRING, V>                  map
 *   MAP<K, V> (K not a string)      array of records {key, value}, logicalType map
 *   MULTISET<T>                     as MAP<T, INT NOT NULL>
 *   ROW                             record named after its path ("record_f16")
 *   nullable T                      ["null", T] with "default": null
 *
 * (Java 1.4.2 writes TIMESTAMP as timestamp-* and WITH LOCAL TIME ZONE as local-timestamp-*;
 * metadata.md §5 says so too.)  Reading resolves the file's schema against the read type by
 * field name, as Java's AvroRowDatumReader does: fields the file lacks read as null, fields
 * the read does not ask for are skipped, ["null", T] unions are accepted either way round,
 * int widens to long, float to double.  A bare file's columns get the types of
 * shared/spec/canonical-rows.md (local-timestamp-* TIMESTAMP, timestamp-* WITH LOCAL TIME
 * ZONE, decimal DECIMAL(p, s), bytes BYTES, a map MAP<STRING, V>).
 */
#ifndef PM_FORMAT_AVRO_DATA_H
#define PM_FORMAT_AVRO_DATA_H

#include "data/batch.h"
#include "format/avro/avro_schema.h"
#include "io/fs.h"
#include "util/buf.h"
#include "util/error.h"

/* Checks that Avro can store rows of `row_type` as Java's AvroFileFormat.validateDataFields
 * does when a table with file.format avro is created or altered: TIMESTAMP precision at most
 * 6, TIME at most 3, no VARIANT, names that are Avro names, and record names (made from the
 * field paths) defined once.  PAIMON_EINVALID names the column otherwise. */
PM_MUST_CHECK int pm_avro_data_check(const pm_type *row_type, paimon_error *err);

/* Appends the writer schema JSON Java prints for `row_type`. */
PM_MUST_CHECK int pm_avro_data_schema_json(const pm_type *row_type, pm_buf *out, paimon_error *err);

/* The Paimon ROW type of an Avro record schema (a bare file's columns).  Caller owns *out. */
PM_MUST_CHECK int pm_avro_data_type_of(const pm_avro_schema *record, pm_type **out,
                                       paimon_error *err);

typedef struct pm_avro_data_writer pm_avro_data_writer;

/* Starts an Avro data file on `out` (taking ownership of it, also on failure) for rows of
 * `row_type` with the Paimon compression option value `compression` ("zstd" (NULL),
 * "snappy", "deflate", "none") and zstd `level` (0: 1).  Caller owns `*w`; finish with
 * pm_avro_data_writer_close() or pm_avro_data_writer_abort(). */
PM_MUST_CHECK int pm_avro_data_writer_open(pm_avro_data_writer **w, pm_output *out,
                                           const pm_type *row_type, const char *compression,
                                           int level, paimon_error *err);
/* Appends the rows of `b` (of the writer's row type).  TIMESTAMP and TIME precisions Avro
 * cannot hold (above 6 and above 3) are PAIMON_EUNSUPPORTED, as in Java. */
PM_MUST_CHECK int pm_avro_data_writer_write(pm_avro_data_writer *w, const pm_batch *b,
                                            paimon_error *err);
/* Appends rows [first, first + count) of `b`. */
PM_MUST_CHECK int pm_avro_data_writer_write_range(pm_avro_data_writer *w, const pm_batch *b,
                                                  int64_t first, int64_t count, paimon_error *err);
int64_t pm_avro_data_writer_rows(const pm_avro_data_writer *w);
/* Bytes handed to the output so far (finished blocks; the block being filled is not
 * counted, as Java's out.getPos() does not count it). */
uint64_t pm_avro_data_writer_position(const pm_avro_data_writer *w);
/* Finishes the file, closes the output and frees the writer (also on failure).
 * *file_size receives the exact size (may be NULL). */
PM_MUST_CHECK int pm_avro_data_writer_close(pm_avro_data_writer *w, uint64_t *file_size,
                                            paimon_error *err);
void pm_avro_data_writer_abort(pm_avro_data_writer *w);

#endif /* PM_FORMAT_AVRO_DATA_H */
