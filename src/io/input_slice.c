/*
 * A byte range of a file read as a file of its own (see pm_input_slice in fs.h).
 *
 * Compacted changelog files (changelog.precommit-compact) pack several complete data files
 * one after the other; a reader of one piece must see exactly its bytes: a Parquet or ORC
 * reader finds its footer at the end of the piece, not at the end of the packed file.
 *
 * What holds: off + len <= inner->size (checked at creation); every read_at is checked
 * against len before it reaches `inner`, so a reader can never see a neighbour's bytes.
 */
#include <string.h>

#include "io/fs.h"
#include "util/alloc.h"
#include "util/error.h"

typedef struct slice_input {
    pm_input base;   /* must stay first: the pm_input handed out */
    pm_input *inner; /* owned: the file holding the range */
    uint64_t off;    /* where the range starts in `inner` */
    char *path;      /* owned: the name the range is read under, for messages */
} slice_input;

PM_MUST_CHECK static int slice_read_at(pm_input *in, uint64_t off, size_t len, uint8_t *dst,
                                       paimon_error *err)
{
    slice_input *s = (slice_input *)in;
    uint64_t end;
    if (__builtin_add_overflow(off, (uint64_t)len, &end) || end > in->size)
        return pm_corrupt(err,
                          "%s: read of %zu bytes at offset %llu runs past its end (%llu bytes)",
                          s->path, len, (unsigned long long)off, (unsigned long long)in->size);
    return s->inner->read_at(s->inner, s->off + off, len, dst, err);
}

/* The hint moves with the range: offsets in the piece are offsets past `off` in `inner`,
 * clipped to the piece so that a prefetch never fetches a neighbour's bytes either. */
PM_MUST_CHECK static int slice_prefetch(pm_input *in, const pm_range *ranges, size_t count,
                                        paimon_error *err)
{
    slice_input *s = (slice_input *)in;
    pm_range *moved = pm_calloc(count, sizeof(*moved));
    size_t n = 0;
    int rc;
    if (moved == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < count; i++) {
        uint64_t len = ranges[i].len;
        if (ranges[i].off >= in->size || len == 0)
            continue;
        if (len > in->size - ranges[i].off)
            len = in->size - ranges[i].off;
        moved[n].off = s->off + ranges[i].off;
        moved[n++].len = len;
    }
    rc = pm_input_prefetch(s->inner, moved, n, err);
    pm_free(moved);
    return rc;
}

static void slice_close(pm_input *in)
{
    slice_input *s = (slice_input *)in;
    if (s == NULL)
        return;
    s->inner->close(s->inner);
    pm_free(s->path);
    pm_free(s);
}

int pm_input_slice(pm_input **out, pm_input *inner, uint64_t off, uint64_t len, const char *path,
                   paimon_error *err)
{
    slice_input *s = NULL;
    uint64_t end;
    size_t n = strlen(path);

    *out = NULL;
    if (__builtin_add_overflow(off, len, &end) || end > inner->size) {
        int rc =
            pm_corrupt(err, "%s: %llu bytes at offset %llu run past the end of %s (%llu bytes)",
                       path, (unsigned long long)len, (unsigned long long)off, inner->path,
                       (unsigned long long)inner->size);
        inner->close(inner);
        return rc;
    }
    if ((s = pm_calloc(1, sizeof(*s))) == NULL || (s->path = pm_malloc(n + 1)) == NULL) {
        pm_free(s);
        inner->close(inner);
        return pm_nomem(err);
    }
    memcpy(s->path, path, n + 1);
    s->inner = inner;
    s->off = off;
    s->base.read_at = slice_read_at;
    s->base.prefetch = inner->prefetch != NULL ? slice_prefetch : NULL;
    s->base.close = slice_close;
    s->base.size = len;
    s->base.path = s->path;
    *out = &s->base;
    return 0;
}
