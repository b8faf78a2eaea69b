/*
 * Reading a table's changes through the paimon-c C API, as a CDC consumer would:
 *
 *   example_tail_changes TABLE [FIRST_SNAPSHOT]
 *
 * Opens a change read from FIRST_SNAPSHOT (default: the earliest) to the latest snapshot and,
 * for every snapshot of the range, takes the cursor of its changes, reads them as an Arrow C
 * Data Interface stream (struct arrays whose first child is the utf8 `_ROW_KIND` column) and
 * counts the row kinds.
 * One line per snapshot:
 *
 *   snapshot 5 APPEND read +I=1 -U=0 +U=0 -D=2
 *
 * ("skipped" instead of "read" for the snapshots Java's streaming read skips), then a last
 * line "changes: N", the rows the streams delivered.
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
        if (!known) {
            fprintf(stderr, "row %" PRId64 ": unknown row kind\n", i);
            return -1;
        }
    }
    return 0;
}

/* Reads the current snapshot's stream to the end; returns its row count, or -1. */
static int64_t read_snapshot(paimon_changes *ch, int64_t counts[4])
{
    struct ArrowArrayStream stream;
    struct ArrowSchema schema;
    paimon_cursor *cursor = NULL;
    paimon_error err;
    int64_t rows = 0;
    if (paimon_changes_cursor(&cursor, ch, &err) != 0 ||
        paimon_cursor_arrow_stream(cursor, &stream, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        paimon_cursor_free(cursor);
        return -1;
    }
    paimon_cursor_free(cursor); /* the stream has the rows; it needs only the table */
    if (stream.get_schema(&stream, &schema) != 0) {
        fprintf(stderr, "%s\n", stream.get_last_error(&stream));
        stream.release(&stream);
        return -1;
    }
    if (schema.n_children < 1 || strcmp(schema.children[0]->name, "_ROW_KIND") != 0 ||
        strcmp(schema.children[0]->format, "u") != 0) {
        fprintf(stderr, "the first column is not _ROW_KIND utf8\n");
        rows = -1;
    }
    schema.release(&schema);
    while (rows >= 0) {
        struct ArrowArray batch;
        if (stream.get_next(&stream, &batch) != 0) {
            fprintf(stderr, "%s\n", stream.get_last_error(&stream));
            rows = -1;
            break;
        }
        if (batch.release == NULL) /* the end of the stream */
            break;
        if (count_kinds(&batch, counts) != 0)
            rows = -1;
        else
            rows += batch.length;
        batch.release(&batch);
    }
    stream.release(&stream);
    return rows;
}

int main(int argc, char **argv)
{
    paimon_table *table = NULL;
    paimon_changes *ch = NULL;
    paimon_changes_options o = PAIMON_CHANGES_OPTIONS_INIT;
    paimon_changes_snapshot info;
    paimon_error err;
    int64_t total = 0;
    int rc, status = 1;

    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s TABLE [FIRST_SNAPSHOT]\n", argv[0]);
        return 2;
    }
    if (argc == 3) {
        o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
        o.from_value = strtoll(argv[2], NULL, 10);
    }
    if (paimon_table_open(&table, argv[1], &err) != 0 ||
        paimon_table_changes(&ch, table, &o, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    while ((rc = paimon_changes_next_snapshot(ch, &info, &err)) == 0) {
        int64_t counts[4] = {0, 0, 0, 0};
        int64_t rows = read_snapshot(ch, counts);
        if (rows < 0)
            goto done;
        total += rows;
        printf("snapshot %" PRId64 " %s %s +I=%" PRId64 " -U=%" PRId64 " +U=%" PRId64 " -D=%" PRId64
               "\n",
               info.id, info.commit_kind, info.read ? "read" : "skipped", counts[0], counts[1],
               counts[2], counts[3]);
    }
    if (rc != PAIMON_ITEROVER) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    printf("changes: %" PRId64 "\n", total);
    status = 0;
done:
    paimon_changes_free(ch);
    paimon_table_free(table);
    return status;
}
