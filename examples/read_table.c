/*
 * Reading a Paimon table through the paimon-c C API, as an engine would:
 *
 *   example_read_table TABLE [FILTER] [THREADS]
 *
 * Plans a scan of the latest snapshot (with an optional filter in the EXPR language of
 * `paimon cat --where`), prints each split (partition, bucket, whether its files need a
 * merge, every file with its level and deletion vector), then reads the splits on THREADS
 * threads (default 4) -- a cursor per split, handed on as an Arrow C Data Interface stream --
 * and counts their rows, and finally prints the first rows through a cursor over every split.  Its last line is "rows: N", the number of
 * rows the streams delivered.
 *
 * Build: part of the project; cmake builds every program in examples/ against libpaimon.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "paimon.h"

/* What the reading threads share: the scan and the next split to read. */
typedef struct work_queue {
    paimon_scan *scan;
    size_t next_split; /* under `lock` */
    pthread_mutex_t lock;
} work_queue;

typedef struct worker {
    work_queue *queue;
    int64_t rows; /* rows this thread read */
    int failed;
} worker;

/* Reads one split's stream to the end; returns its row count, or -1. */
static int64_t read_split(paimon_scan *scan, size_t split)
{
    struct ArrowArrayStream stream;
    struct ArrowSchema schema;
    paimon_cursor *cursor = NULL;
    paimon_error err;
    int64_t rows = 0;
    /* The cursor hands its rows to the stream and may go at once; the scan must stay. */
    if (paimon_scan_split_cursor(&cursor, scan, split, &err) != 0 ||
        paimon_cursor_arrow_stream(cursor, &stream, &err) != 0) {
        fprintf(stderr, "split %zu: %s\n", split, err.message);
        paimon_cursor_free(cursor);
        return -1;
    }
    paimon_cursor_free(cursor);
    if (stream.get_schema(&stream, &schema) != 0) {
        fprintf(stderr, "split %zu: %s\n", split, stream.get_last_error(&stream));
        stream.release(&stream);
        return -1;
    }
    schema.release(&schema);
    for (;;) {
        struct ArrowArray batch;
        if (stream.get_next(&stream, &batch) != 0) {
            fprintf(stderr, "split %zu: %s\n", split, stream.get_last_error(&stream));
            rows = -1;
            break;
        }
        if (batch.release == NULL) /* the end of the stream */
            break;
        rows += batch.length; /* a struct array: one child per column */
        batch.release(&batch);
    }
    stream.release(&stream);
    return rows;
}

static void *work(void *arg)
{
    worker *w = arg;
    for (;;) {
        size_t split;
        int64_t n;
        work_queue *q = w->queue;
        pthread_mutex_lock(&q->lock);
        split = q->next_split < paimon_scan_split_count(q->scan) ? q->next_split++ : SIZE_MAX;
        pthread_mutex_unlock(&q->lock);
        if (split == SIZE_MAX)
            return NULL;
        if ((n = read_split(q->scan, split)) < 0) {
            w->failed = 1;
            return NULL;
        }
        w->rows += n;
    }
}

static void print_splits(paimon_scan *scan)
{
    paimon_error err;
    for (size_t s = 0; s < paimon_scan_split_count(scan); s++) {
        paimon_split_info info;
        if (paimon_scan_split(scan, s, &info, &err) != 0) {
            fprintf(stderr, "split %zu: %s\n", s, err.message);
            continue;
        }
        printf("split %zu: partition %s bucket %" PRId32 ", %zu files, %s\n", s, info.partition,
               info.bucket, info.file_count, info.needs_merge ? "merged" : "read as is");
        for (size_t f = 0; f < info.file_count; f++) {
            paimon_split_file file;
            if (paimon_scan_split_file(scan, s, f, &file, &err) != 0)
                continue;
            printf("  level %" PRId32 " %" PRId64 " rows  %s%s\n", file.level, file.row_count,
                   file.path, file.deletion_vector_file != NULL ? "  (deletion vector)" : "");
        }
    }
}

static void print_first_rows(paimon_scan *scan, int limit)
{
    paimon_cursor *rows = NULL;
    paimon_error err;
    const char *json;
    if (paimon_scan_cursor(&rows, scan, &err) != 0)
        return;
    while (limit-- > 0 && paimon_cursor_next(rows, &err) == 0)
        if (paimon_cursor_row_json(rows, &json, NULL, &err) == 0)
            printf("  %s\n", json);
    paimon_cursor_free(rows);
}

int main(int argc, char **argv)
{
    paimon_table *table = NULL;
    paimon_scan *scan = NULL;
    paimon_scan_options options = PAIMON_SCAN_OPTIONS_INIT;
    paimon_error err;
    work_queue queue = {NULL, 0, PTHREAD_MUTEX_INITIALIZER};
    worker workers[64];
    pthread_t threads[64];
    int nthreads = argc > 3 ? atoi(argv[3]) : 4, status = 1;
    int64_t total = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s TABLE [FILTER] [THREADS]\n", argv[0]);
        return 2;
    }
    if (nthreads < 1 || nthreads > 64)
        nthreads = 4;
    if (paimon_table_open(&table, argv[1], &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    options.filter = argc > 2 && argv[2][0] != '\0' ? argv[2] : NULL;
    if (paimon_table_scan(&scan, table, &options, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    printf("snapshot %" PRId64 ", %zu columns, %zu splits\n", paimon_scan_snapshot_id(scan),
           paimon_scan_column_count(scan), paimon_scan_split_count(scan));
    print_splits(scan);

    /* The scan is immutable once planned: threads read different splits at once. */
    queue.scan = scan;
    for (int i = 0; i < nthreads; i++) {
        workers[i] = (worker){&queue, 0, 0};
        pthread_create(&threads[i], NULL, work, &workers[i]);
    }
    for (int i = 0; i < nthreads; i++) {
        pthread_join(threads[i], NULL);
        total += workers[i].rows;
    }
    for (int i = 0; i < nthreads; i++)
        if (workers[i].failed)
            goto done;
    printf("first rows:\n");
    print_first_rows(scan, 5);
    printf("rows: %" PRId64 "\n", total);
    status = 0;
done:
    paimon_scan_free(scan);
    paimon_table_free(table);
    return status;
}
