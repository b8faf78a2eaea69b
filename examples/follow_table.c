/*
 * Following a table through the paimon-c C API, as a streaming consumer would:
 *
 *   example_follow_table TABLE CONSUMER [IDLE_MS]
 *
 * Opens a streaming read with consumer id CONSUMER: the first run starts as the table's
 * scan.mode says (by default the latest snapshot fully, then the changes after it); a later
 * run resumes where the consumer's last checkpoint left off.  For every snapshot the stream
 * returns it reads the rows as an Arrow C Data Interface stream (struct arrays whose first
 * child is the utf8 `_ROW_KIND` column), counts the row kinds, and then checkpoints the
 * position to consumer/consumer-CONSUMER -- only after the rows are processed, so that a
 * crash repeats at most the snapshot being processed and never skips one.  It stops once
 * IDLE_MS (default 500) pass without a new snapshot.  One line per snapshot:
 *
 *   snapshot 5 changes +I=1 -U=0 +U=0 -D=2
 *
 * ("full" for the full read of the start), then "position N": the next snapshot to read.
 *
 * Build: part of the project; cmake builds every program in examples/ against libpaimon.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paimon.h"

/* Counts the kinds of one batch: child 0 is utf8 (int32 offsets in buffer 1, bytes in 2). */
static int count_kinds(const struct ArrowArray *batch, int64_t counts[4])
{
    static const char *const KINDS[] = {"+I", "-U", "+U", "-D"};
    const struct ArrowArray *kind = batch->children[0];
    const int32_t *offsets = kind->buffers[1];
    const char *bytes = kind->buffers[2];
    for (int64_t i = 0; i < kind->length; i++) {
        int64_t row = kind->offset + i;
        int32_t len = offsets[row + 1] - offsets[row];
        int known = 0;
        for (int k = 0; k < 4 && !known; k++) {
            if (len == 2 && memcmp(bytes + offsets[row], KINDS[k], 2) == 0) {
                counts[k]++;
                known = 1;
            }
        }
        if (!known)
            return -1;
    }
    return 0;
}

/* Reads the current snapshot's rows as an Arrow stream; 0 or -1. */
static int read_snapshot(paimon_stream *st, int64_t counts[4])
{
    struct ArrowArrayStream stream;
    paimon_cursor *cursor = NULL;
    paimon_error err;
    int rc = 0;
    if (paimon_stream_cursor(&cursor, st, &err) != 0 ||
        paimon_cursor_arrow_stream(cursor, &stream, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        paimon_cursor_free(cursor);
        return -1;
    }
    paimon_cursor_free(cursor); /* the stream does not need it */
    for (;;) {
        struct ArrowArray batch;
        if (stream.get_next(&stream, &batch) != 0) {
            fprintf(stderr, "%s\n", stream.get_last_error(&stream));
            rc = -1;
            break;
        }
        if (batch.release == NULL)
            break; /* the end */
        if (count_kinds(&batch, counts) != 0)
            rc = -1;
        batch.release(&batch);
        if (rc != 0)
            break;
    }
    stream.release(&stream);
    return rc;
}

int main(int argc, char **argv)
{
    paimon_table *table = NULL;
    paimon_stream *st = NULL;
    paimon_stream_options o = PAIMON_STREAM_OPTIONS_INIT;
    paimon_error err;
    int64_t idle = argc > 3 ? strtoll(argv[3], NULL, 10) : 500;
    int status = 1;

    if (argc < 3) {
        fprintf(stderr, "usage: example_follow_table TABLE CONSUMER [IDLE_MS]\n");
        return 2;
    }
    o.consumer_id = argv[2];
    if (paimon_table_open(&table, argv[1], &err) != 0 ||
        paimon_stream_open(&st, table, &o, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    for (;;) {
        paimon_stream_snapshot info;
        int64_t counts[4] = {0, 0, 0, 0};
        int rc = paimon_stream_next(st, idle, &info, &err);
        if (rc == PAIMON_STREAM_IDLE || rc == PAIMON_ITEROVER)
            break;
        if (rc != 0) {
            fprintf(stderr, "%s\n", err.message);
            goto done;
        }
        if (read_snapshot(st, counts) != 0)
            goto done;
        printf("snapshot %" PRId64 " %s +I=%" PRId64 " -U=%" PRId64 " +U=%" PRId64 " -D=%" PRId64
               "\n",
               info.id, info.full ? "full" : "changes", counts[0], counts[1], counts[2], counts[3]);
        if (paimon_stream_checkpoint(st, &err) != 0) { /* the rows are processed */
            fprintf(stderr, "%s\n", err.message);
            goto done;
        }
    }
    if (paimon_stream_checkpoint(st, &err) != 0) { /* skipped snapshots count as read */
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    printf("position %" PRId64 "\n", paimon_stream_position(st));
    status = 0;
done:
    paimon_stream_free(st);
    paimon_table_free(table);
    return status;
}
