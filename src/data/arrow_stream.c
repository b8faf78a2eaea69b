/* Arrow streams over batch sources: see arrow_stream.h. */
#include "data/arrow_stream.h"

#include <errno.h>
#include <string.h>

#include "data/arrow.h"
#include "util/alloc.h"
#include "util/error.h"

typedef struct stream_state {
    pm_batch_source src;
    paimon_error err;
} stream_state;

static int errno_of(int code)
{
    switch (code) {
    case PAIMON_ENOMEM: return ENOMEM;
    case PAIMON_EINVALID: return EINVAL;
    case PAIMON_EUNSUPPORTED: return ENOSYS;
    case PAIMON_ENOTFOUND: return ENOENT;
    default: return EIO;
    }
}

static int stream_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    stream_state *st = s->private_data;
    int rc = pm_arrow_export_schema(st->src.type, out, &st->err);
    return rc != 0 ? errno_of(rc) : 0;
}

static int stream_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    stream_state *st = s->private_data;
    pm_batch *b = NULL;
    int rc;
    memset(out, 0, sizeof(*out));
    rc = st->src.next(st->src.ctx, &b, &st->err);
    if (rc == PAIMON_ITEROVER)
        return 0; /* out->release == NULL marks the end */
    if (rc != 0)
        return errno_of(rc);
    rc = pm_arrow_export_batch(b, out, &st->err);
    return rc != 0 ? errno_of(rc) : 0;
}

static const char *stream_error(struct ArrowArrayStream *s)
{
    stream_state *st = s->private_data;
    return st->err.message[0] != '\0' ? st->err.message : NULL;
}

static void stream_release(struct ArrowArrayStream *s)
{
    stream_state *st = s->private_data;
    if (st->src.release != NULL)
        st->src.release(st->src.ctx);
    pm_free(st);
    s->release = NULL;
}

int pm_arrow_stream_new(const pm_batch_source *src, struct ArrowArrayStream *out, paimon_error *err)
{
    stream_state *st = pm_calloc(1, sizeof(*st));
    memset(out, 0, sizeof(*out));
    if (st == NULL) {
        if (src->release != NULL)
            src->release(src->ctx);
        return pm_nomem(err);
    }
    st->src = *src;
    out->get_schema = stream_schema;
    out->get_next = stream_next;
    out->get_last_error = stream_error;
    out->release = stream_release;
    out->private_data = st;
    return 0;
}
