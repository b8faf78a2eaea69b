/*
 * The write buffer of a primary-key bucket (Java SortBufferWriteBuffer over
 * BinaryExternalSortBuffer, and MergeTreeWriter's flush).
 *
 * Records (the table's columns, a row kind, a sequence number) are kept in arrival order in
 * chunks of columnar rows.  When the table's write-buffer-size is used up, the buffer
 * spills: its records are sorted and written to a temporary local file as one sorted run
 * (write-buffer-spillable; spill-compression).  When more than
 * local-sort.max-num-file-handles runs exist they are merged into one first.
 *
 * Sort order (behaviour.md §1.6): the key fields ascending (strings and binaries by
 * unsigned bytes), then the sequence.field fields in their configured direction with nulls
 * first (the corrected order of master; 1.4.2 sorted them ascending), then the sequence
 * number.
 *
 * A flush merges every run: the records of one key go, oldest first, through the merge
 * engine as Java's flush does (a lone record passes unchanged; retractions are kept), and
 * each result becomes one row of the level-0 data files; with changelog-producer=input
 * every record is also written, in sorted order, to the changelog files.
 *
 *   records in order --> [sort] --> run in memory --+
 *                                   spilled runs ---+--> k-way merge --> merge engine --> L0
 *                                                                    \--> changelog (input)
 *
 * A spill in the background (the write's pool) detaches the records in memory into buffers
 * of their own (pieces of whole chunks), spills those on other threads while this one takes
 * more records, and adopts the runs they wrote; the records keep their sequence numbers, and a flush merges every run in
 * key and sequence order, so the level-0 files do not depend on when or how often a buffer
 * spilled.
 *
 * Thread safety: one thread per buffer; buffers of one write may flush or spill on different
 * threads at once (each has its own merge function; the context's temporary directory is
 * made under its lock).
 */
#ifndef PM_TABLE_WRITE_KV_BUFFER_H
#define PM_TABLE_WRITE_KV_BUFFER_H

#include "table/write/data_writer.h"
#include "table/write/write_ctx.h"
#include "util/error.h"

typedef struct pm_kv_buffer pm_kv_buffer;

PM_MUST_CHECK int pm_kv_buffer_new(pm_kv_buffer **out, pm_write_ctx *ctx, paimon_error *err);
void pm_kv_buffer_free(pm_kv_buffer *b); /* also removes its spill files */

/* Adds rows rows[0..n) of `batch` with kinds[] and the sequence numbers first_seq,
 * first_seq + 1, ... (which continue those of the previous put). */
PM_MUST_CHECK int pm_kv_buffer_put(pm_kv_buffer *b, const pm_batch *batch, const int64_t *rows,
                                   const int8_t *kinds, int64_t n, int64_t first_seq,
                                   paimon_error *err);

/* Bytes held in memory. */
size_t pm_kv_buffer_memory(const pm_kv_buffer *b);
/* Records held (in memory and spilled). */
int64_t pm_kv_buffer_records(const pm_kv_buffer *b);

/* Writes the records in memory as a sorted run to a temporary file. */
PM_MUST_CHECK int pm_kv_buffer_spill(pm_kv_buffer *b, paimon_error *err);

/* Moves the records in memory to up to `parts` new buffers out[0..*made) (none when there are
 * no records; parts of whole chunks, in arrival order), leaving this one empty;
 * pm_kv_buffer_spill() of each may then run on another thread while this buffer takes more
 * records, and pm_kv_buffer_adopt() gives their runs to this buffer.  A flush before the
 * adoption would miss those records.  On failure nothing has moved. */
PM_MUST_CHECK int pm_kv_buffer_detach(pm_kv_buffer *b, size_t parts, pm_kv_buffer **out,
                                      size_t *made, paimon_error *err);

/* Takes the runs of `spilled` (detached from b and spilled; NULL: nothing) and frees it, also
 * on failure (then its records are lost with it: the write is unusable). */
PM_MUST_CHECK int pm_kv_buffer_adopt(pm_kv_buffer *b, pm_kv_buffer *spilled, paimon_error *err);

/* Merges every record into `data` (and, raw, into `changelog` when not NULL) and empties
 * the buffer. */
PM_MUST_CHECK int pm_kv_buffer_flush(pm_kv_buffer *b, pm_data_writer *data,
                                     pm_data_writer *changelog, paimon_error *err);

#endif /* PM_TABLE_WRITE_KV_BUFFER_H */
