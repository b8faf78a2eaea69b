/*
 * What it costs to fill memory that another thread has just read: the figure behind every
 * hand-over between a decoding thread and the thread that reads its output (a page
 * decompressed ahead, a run decoded ahead, a batch returned in order), docs/PERFORMANCE.md
 * "Memory that changes threads".
 *
 * The work: PAGES pages of 160 KiB (a Parquet data page of 20,000 BIGINTs), each compressed
 * with zstd once at the start; a run decompresses every page 4 times over and sums each
 * page it decompressed.  Four ways, alternating, REPEATS times each:
 *   one thread      decompresses and sums on the same thread, into a ring of 4 buffers;
 *   handed over     a second thread decompresses into the ring and the first one sums each
 *                   buffer before it is refilled: every buffer is filled by one thread
 *                   right after the other one read it -- what a pipeline that reuses its
 *                   buffers does;
 *   not read        the same, but the first thread does not read the buffers (the hand-over
 *                   without the other cache holding the bytes);
 *   large ring      handed over with a ring of 256 buffers (40 MiB): by the time a buffer is
 *                   refilled the reader's caches have let it go.
 * Printed: the CPU seconds spent in zstd (the decompressing thread's clock around each
 * call) and the wall time; the medians say how much dearer the same decompression is when
 * its buffers come from another thread's cache.  The result depends on where the host puts
 * the two virtual CPUs, so it is measured beside the figures it explains.
 *
 *   bench_handover [PAGES] [REPEATS]      (defaults 800 5)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

#include "bench_util.h"

#define PAGE_BYTES (160u << 10)
#define PASSES     4
#define RING_MAX   256

typedef struct handover {
    size_t pages, ring;
    unsigned char **compressed;
    size_t *compressed_len;
    unsigned char *bufs[RING_MAX];
    int full[RING_MAX]; /* under lock: the buffer holds a page not yet summed */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    double zstd_cpu; /* of the decompressing thread */
} handover;

static volatile uint64_t sink; /* keeps the sums */

static double thread_cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t sum_page(const unsigned char *b)
{
    uint64_t s = 0, v;
    for (size_t i = 0; i < PAGE_BYTES; i += 8) {
        memcpy(&v, b + i, 8);
        s += v;
    }
    return s;
}

/* Decompresses page `i` into `dst`; the thread CPU seconds it took. */
static double decompress(handover *h, ZSTD_DCtx *d, size_t i, unsigned char *dst)
{
    double t0 = thread_cpu_now();
    size_t n = ZSTD_decompressDCtx(d, dst, PAGE_BYTES, h->compressed[i], h->compressed_len[i]);
    if (ZSTD_isError(n) || n != PAGE_BYTES) {
        fprintf(stderr, "bench_handover: decompression failed\n");
        exit(1);
    }
    return thread_cpu_now() - t0;
}

static void *producer(void *arg)
{
    handover *h = arg;
    ZSTD_DCtx *d = ZSTD_createDCtx();
    double cpu = 0;
    for (size_t n = 0; n < PASSES * h->pages; n++) {
        size_t slot = n % h->ring;
        pthread_mutex_lock(&h->lock);
        while (h->full[slot])
            pthread_cond_wait(&h->changed, &h->lock);
        pthread_mutex_unlock(&h->lock);
        cpu += decompress(h, d, n % h->pages, h->bufs[slot]);
        pthread_mutex_lock(&h->lock);
        h->full[slot] = 1;
        pthread_cond_broadcast(&h->changed);
        pthread_mutex_unlock(&h->lock);
    }
    ZSTD_freeDCtx(d);
    h->zstd_cpu = cpu;
    return NULL;
}

/* One run: `handed` on two threads (`read`: the consumer sums each page), else on one. */
static void run(handover *h, size_t ring, int handed, int read, double *zstd_cpu, double *wall)
{
    double t0 = bench_now();
    uint64_t s = 0;
    h->ring = ring;
    memset(h->full, 0, sizeof(h->full));
    if (!handed) {
        ZSTD_DCtx *d = ZSTD_createDCtx();
        double cpu = 0;
        for (size_t n = 0; n < PASSES * h->pages; n++) {
            cpu += decompress(h, d, n % h->pages, h->bufs[n % ring]);
            s += sum_page(h->bufs[n % ring]);
        }
        ZSTD_freeDCtx(d);
        *zstd_cpu = cpu;
    } else {
        pthread_t t;
        if (pthread_create(&t, NULL, producer, h) != 0) {
            fprintf(stderr, "bench_handover: no thread\n");
            exit(1);
        }
        for (size_t n = 0; n < PASSES * h->pages; n++) {
            size_t slot = n % ring;
            pthread_mutex_lock(&h->lock);
            while (!h->full[slot])
                pthread_cond_wait(&h->changed, &h->lock);
            pthread_mutex_unlock(&h->lock);
            if (read)
                s += sum_page(h->bufs[slot]);
            pthread_mutex_lock(&h->lock);
            h->full[slot] = 0;
            pthread_cond_broadcast(&h->changed);
            pthread_mutex_unlock(&h->lock);
        }
        pthread_join(t, NULL);
        *zstd_cpu = h->zstd_cpu;
    }
    *wall = bench_now() - t0;
    sink += s;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        size_t ring;
        int handed, read;
    } ways[] = {{"one thread", 4, 0, 1},
                {"handed over", 4, 1, 1},
                {"not read", 4, 1, 0},
                {"large ring", RING_MAX, 1, 1}};
    enum { WAYS = sizeof(ways) / sizeof(ways[0]) };
    long pages = argc > 1 ? atol(argv[1]) : 800;
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    double cpu[WAYS][32], wall[WAYS][32];
    unsigned char *raw = malloc(PAGE_BYTES);
    handover h;
    if (pages < 8 || pages > 100000)
        pages = 800;
    if (repeats < 1 || repeats > 32)
        repeats = 5;
    memset(&h, 0, sizeof(h));
    h.pages = (size_t)pages;
    h.compressed = calloc(h.pages, sizeof(*h.compressed));
    h.compressed_len = calloc(h.pages, sizeof(*h.compressed_len));
    pthread_mutex_init(&h.lock, NULL);
    pthread_cond_init(&h.changed, NULL);
    if (raw == NULL || h.compressed == NULL || h.compressed_len == NULL)
        return 1;
    /* pages of BIGINTs in a scrambled order, as the scan bench's keys */
    for (size_t i = 0; i < h.pages; i++) {
        size_t cap = ZSTD_compressBound(PAGE_BYTES);
        for (size_t j = 0; j < PAGE_BYTES / 8; j++) {
            uint64_t v = (uint64_t)((i * (PAGE_BYTES / 8) + j) * 7919 % 4000000);
            memcpy(raw + j * 8, &v, 8);
        }
        if ((h.compressed[i] = malloc(cap)) == NULL)
            return 1;
        h.compressed_len[i] = ZSTD_compress(h.compressed[i], cap, raw, PAGE_BYTES, 3);
        if (ZSTD_isError(h.compressed_len[i]))
            return 1;
    }
    for (size_t k = 0; k < RING_MAX; k++)
        if ((h.bufs[k] = calloc(1, PAGE_BYTES)) == NULL)
            return 1;
    printf("%ld pages of %u KiB decompressed %d times a run, %d runs of each, alternating\n", pages,
           PAGE_BYTES >> 10, PASSES, repeats);
    for (int r = 0; r < repeats; r++)
        for (size_t w = 0; w < WAYS; w++) {
            run(&h, ways[w].ring, ways[w].handed, ways[w].read, &cpu[w][r], &wall[w][r]);
            printf("  run %d, %-11s: zstd %.3f CPU s, wall %.3f s\n", r + 1, ways[w].name,
                   cpu[w][r], wall[w][r]);
        }
    printf("median of %d     zstd CPU s   wall s   zstd / one thread\n", repeats);
    {
        double base = bench_median(cpu[0], (size_t)repeats);
        for (size_t w = 0; w < WAYS; w++) {
            double c = bench_median(cpu[w], (size_t)repeats);
            printf("  %-12s %10.3f %8.3f %10.2fx\n", ways[w].name, c,
                   bench_median(wall[w], (size_t)repeats), c / base);
        }
    }
    return 0;
}
