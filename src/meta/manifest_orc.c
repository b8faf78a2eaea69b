/*
 * ORC manifests: reading into the descriptor-driven structs (see manifest_orc.h).  The
 * writer is in manifest_orc_write.c.
 */
#include "meta/manifest_orc.h"

#include <string.h>

#include "format/orc/orc_reader.h"
#include "util/alloc.h"
#include "util/error.h"

#define BATCH_ROWS 1024
#define MAX_DEPTH  8

typedef struct rplan rplan;

typedef struct fplan {
    const pm_avro_fdesc *fd;
    int child;               /* index among the ORC struct's children; -1: not in the file */
    const pm_orc_type *t;    /* the field's ORC type */
    const pm_orc_type *item; /* ARRAY: the element's ORC type */
    rplan *sub;              /* RECORD, or an ARRAY of records */
} fplan;

struct rplan {
    const pm_avro_rdesc *rd;
    fplan *fields;
};

struct pm_manifest_orc_reader {
    pm_orc_reader *orc;
    pm_arena plans; /* the plan */
    rplan *plan;
    pm_arena *arena; /* records */
    bool retain;
    const char *what;
    const pm_orc_vec *vec; /* the current batch */
    int64_t row;
};

static bool int_kind(pm_orc_kind k)
{
    return k == PM_ORC_BYTE || k == PM_ORC_SHORT || k == PM_ORC_INT;
}

static bool text_kind(pm_orc_kind k)
{
    return k == PM_ORC_STRING || k == PM_ORC_VARCHAR || k == PM_ORC_CHAR || k == PM_ORC_BINARY;
}

static bool compatible(pm_avro_ftype want, pm_orc_kind have)
{
    switch (want) {
    case PM_AF_INT: return int_kind(have);
    case PM_AF_LONG: return int_kind(have) || have == PM_ORC_LONG;
    case PM_AF_TS_MILLIS: return have == PM_ORC_TIMESTAMP || have == PM_ORC_TIMESTAMP_INSTANT;
    case PM_AF_STRING:
    case PM_AF_BYTES: return text_kind(have);
    case PM_AF_RECORD: return have == PM_ORC_STRUCT;
    case PM_AF_ARRAY: return have == PM_ORC_LIST;
    }
    return false;
}

PM_MUST_CHECK static int compile(const pm_orc_footer *f, uint32_t column, const pm_avro_rdesc *rd,
                                 bool *include, pm_arena *arena, const char *what, int depth,
                                 rplan **out, paimon_error *err)
{
    const pm_orc_type *st = &f->types[column];
    rplan *p;
    if (depth > MAX_DEPTH)
        return pm_corrupt(err, "%s: ORC structs nested too deeply", what);
    if ((p = pm_arena_calloc(arena, 1, sizeof(*p))) == NULL ||
        (p->fields = pm_arena_calloc(arena, rd->field_count + 1, sizeof(fplan))) == NULL)
        return pm_nomem(err);
    p->rd = rd;
    for (size_t i = 0; i < rd->field_count; i++) {
        const pm_avro_fdesc *fd = &rd->fields[i];
        fplan *fp = &p->fields[i];
        uint32_t col;
        int rc;
        fp->fd = fd;
        fp->child = -1;
        for (size_t k = 0; k < st->field_name_count; k++) {
            if (strcmp(st->field_names[k], fd->name) == 0) {
                fp->child = (int)k;
                break;
            }
        }
        if (fp->child < 0) {
            if (!fd->nullable)
                return pm_corrupt(err, "%s: ORC manifest has no field %s", what, fd->name);
            continue;
        }
        col = st->subtypes[fp->child];
        fp->t = &f->types[col];
        if (!compatible(fd->type, fp->t->kind))
            return pm_corrupt(err,
                              "%s: ORC field %s has type %s, which cannot be read as the "
                              "expected type",
                              what, fd->name, pm_orc_kind_name(fp->t->kind));
        include[col] = true;
        if (fd->type == PM_AF_RECORD) {
            rc = compile(f, col, fd->record, include, arena, what, depth + 1, &fp->sub, err);
            if (rc != 0)
                return rc;
        } else if (fd->type == PM_AF_ARRAY) {
            uint32_t ecol = fp->t->subtypes[0];
            fp->item = &f->types[ecol];
            include[ecol] = true;
            if (!compatible(fd->item_type, fp->item->kind))
                return pm_corrupt(err, "%s: ORC field %s holds items of type %s", what, fd->name,
                                  pm_orc_kind_name(fp->item->kind));
            if (fd->item_type == PM_AF_RECORD) {
                rc = compile(f, ecol, fd->record, include, arena, what, depth + 1, &fp->sub, err);
                if (rc != 0)
                    return rc;
            }
        }
    }
    *out = p;
    return 0;
}

/* ---- values out of vectors ------------------------------------------------------------- */

static int64_t vec_int(const pm_orc_vec *v, int64_t i)
{
    switch (v->type->kind) {
    case PM_ORC_BYTE: return (int8_t)v->values.data[i];
    case PM_ORC_SHORT: {
        int16_t x;
        memcpy(&x, v->values.data + 2 * i, 2);
        return x;
    }
    case PM_ORC_INT: {
        int32_t x;
        memcpy(&x, v->values.data + 4 * i, 4);
        return x;
    }
    default: {
        int64_t x;
        memcpy(&x, v->values.data + 8 * i, 8);
        return x;
    }
    }
}

static void vec_bytes(const pm_orc_vec *v, int64_t i, const uint8_t **p, size_t *len)
{
    int32_t a = pm_orc_vec_offset(v, i), b = pm_orc_vec_offset(v, i + 1);
    *p = v->values.data + a;
    *len = (size_t)(b - a);
}

PM_MUST_CHECK static int value(const pm_avro_ftype type, const rplan *sub, const pm_orc_vec *v,
                               int64_t i, void *dst, pm_arena *arena, const char *what,
                               const char *name, paimon_error *err);

PM_MUST_CHECK static int fill_record(const rplan *p, const pm_orc_vec *sv, int64_t i, uint8_t *base,
                                     pm_arena *arena, const char *what, paimon_error *err);

PM_MUST_CHECK static int fill_array(const fplan *fp, const pm_orc_vec *lv, int64_t i,
                                    pm_avro_array *a, pm_arena *arena, const char *what,
                                    paimon_error *err)
{
    const pm_avro_fdesc *fd = fp->fd;
    const pm_orc_vec *ev = lv->children[0];
    int32_t lo = pm_orc_vec_offset(lv, i), hi = pm_orc_vec_offset(lv, i + 1);
    size_t item_size, n = (size_t)(hi - lo);
    uint8_t *items;

    switch (fd->item_type) {
    case PM_AF_INT: item_size = sizeof(int32_t); break;
    case PM_AF_LONG:
    case PM_AF_TS_MILLIS: item_size = sizeof(int64_t); break;
    case PM_AF_STRING: item_size = sizeof(char *); break;
    case PM_AF_BYTES: item_size = sizeof(pm_avro_bytes); break;
    case PM_AF_RECORD: item_size = fd->record->size; break;
    default: return pm_err_set(err, PAIMON_EINVALID, "%s: bad descriptor for %s", what, fd->name);
    }
    if ((items = pm_arena_calloc(arena, n + 1, item_size)) == NULL)
        return pm_nomem(err);
    for (size_t k = 0; k < n; k++) {
        uint8_t *dst = items + k * item_size;
        int64_t e = lo + (int64_t)k;
        int rc;
        if (!pm_orc_vec_valid(ev, e)) {
            if (fd->item_type == PM_AF_LONG || fd->item_type == PM_AF_TS_MILLIS)
                *(int64_t *)(void *)dst = PM_AVRO_NULL_LONG;
            else if (fd->item_type != PM_AF_STRING)
                return pm_corrupt(err, "%s: null item in ORC array %s", what, fd->name);
            continue;
        }
        if (fd->item_type == PM_AF_RECORD)
            rc = fill_record(fp->sub, ev, e, dst, arena, what, err);
        else
            rc = value(fd->item_type, NULL, ev, e, dst, arena, what, fd->name, err);
        if (rc != 0)
            return rc;
    }
    a->items = items;
    a->count = n;
    a->present = true;
    return 0;
}

PM_MUST_CHECK static int value(const pm_avro_ftype type, const rplan *sub, const pm_orc_vec *v,
                               int64_t i, void *dst, pm_arena *arena, const char *what,
                               const char *name, paimon_error *err)
{
    const uint8_t *p;
    size_t len;
    switch (type) {
    case PM_AF_INT: {
        int64_t x = vec_int(v, i);
        int32_t y = (int32_t)x;
        if (x != y)
            return pm_corrupt(err, "%s: ORC field %s holds %lld, beyond int", what, name,
                              (long long)x);
        memcpy(dst, &y, 4);
        return 0;
    }
    case PM_AF_LONG: {
        int64_t x = vec_int(v, i);
        memcpy(dst, &x, 8);
        return 0;
    }
    case PM_AF_TS_MILLIS:
        /* the writer's wall clock as epoch milliseconds (orc_reader.h), as in Avro */
        memcpy(dst, v->values.data + 8 * i, 8);
        return 0;
    case PM_AF_STRING: {
        char *s;
        vec_bytes(v, i, &p, &len);
        if ((s = pm_arena_strndup(arena, (const char *)p, len)) == NULL)
            return pm_nomem(err);
        *(char **)dst = s;
        return 0;
    }
    case PM_AF_BYTES: {
        pm_avro_bytes *b = dst;
        vec_bytes(v, i, &p, &len);
        /* copied: the batch is reused; a zero-length value still needs a non-NULL pointer */
        b->ptr = len > 0 ? pm_arena_dup(arena, p, len) : (const uint8_t *)"";
        b->len = len;
        return b->ptr == NULL ? pm_nomem(err) : 0;
    }
    case PM_AF_RECORD: return fill_record(sub, v, i, dst, arena, what, err);
    case PM_AF_ARRAY: break;
    }
    return pm_err_set(err, PAIMON_EINVALID, "%s: bad descriptor for %s", what, name);
}

/* Fills the struct at `base` from row i of the STRUCT vector `sv` (base zeroed). */
PM_MUST_CHECK static int fill_record(const rplan *p, const pm_orc_vec *sv, int64_t i, uint8_t *base,
                                     pm_arena *arena, const char *what, paimon_error *err)
{
    for (size_t k = 0; k < p->rd->field_count; k++) {
        const fplan *fp = &p->fields[k];
        const pm_avro_fdesc *fd = fp->fd;
        const pm_orc_vec *v = fp->child >= 0 ? sv->children[fp->child] : NULL;
        uint8_t *dst = base + fd->offset;
        int rc;
        if (v == NULL || !pm_orc_vec_valid(v, i)) {
            if (!fd->nullable)
                return pm_corrupt(err, "%s: %s is null in a record, but may not be", what,
                                  fd->name);
            /* null: zeroed value, presence flag false, array not present */
            continue;
        }
        if (fd->type == PM_AF_ARRAY)
            rc = fill_array(fp, v, i, (pm_avro_array *)(void *)dst, arena, what, err);
        else
            rc = value(fd->type, fp->sub, v, i, dst, arena, what, fd->name, err);
        if (rc != 0)
            return rc;
        if (fd->present_offset >= 0)
            *(bool *)(base + fd->present_offset) = true;
    }
    return 0;
}

/* ---- the reader ------------------------------------------------------------------------ */

void pm_manifest_orc_reader_close(pm_manifest_orc_reader *r)
{
    if (r == NULL)
        return;
    pm_orc_reader_free(r->orc);
    pm_arena_free(&r->plans);
    pm_free(r);
}

int pm_manifest_orc_reader_open(pm_manifest_orc_reader **out, const uint8_t *data, size_t len,
                                const char *what, const pm_avro_rdesc *rd, pm_arena *arena,
                                bool retain, paimon_error *err)
{
    pm_manifest_orc_reader *r = pm_calloc(1, sizeof(*r));
    const pm_orc_footer *f;
    bool *include = NULL;
    pm_orc_read_options o;
    int rc = 0;

    *out = NULL;
    if (r == NULL)
        return pm_nomem(err);
    pm_arena_init(&r->plans, 1 << 12);
    r->arena = arena;
    r->retain = retain;
    r->what = what;
    PM_TRY(pm_orc_reader_open_memory(&r->orc, data, len, what, err));
    f = pm_orc_reader_footer(r->orc);
    if ((include = pm_calloc(f->type_count, sizeof(bool))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    include[0] = true;
    PM_TRY(compile(f, 0, rd, include, &r->plans, what, 0, &r->plan, err));
    memset(&o, 0, sizeof(o));
    o.include = include;
    o.batch_rows = BATCH_ROWS;
    PM_TRY(pm_orc_reader_start(r->orc, &o, err));
done:
    pm_free(include);
    if (rc != 0) {
        pm_manifest_orc_reader_close(r);
        return rc;
    }
    *out = r;
    return 0;
}

int pm_manifest_orc_reader_next(pm_manifest_orc_reader *r, void *record, paimon_error *err)
{
    int rc;
    if (r->vec == NULL || r->row >= r->vec->length) {
        if ((rc = pm_orc_reader_next(r->orc, &r->vec, err)) != 0) {
            r->vec = NULL;
            return rc;
        }
        r->row = 0;
    }
    if (!r->retain)
        pm_arena_reset(r->arena);
    memset(record, 0, r->plan->rd->size);
    rc = fill_record(r->plan, r->vec, r->row, record, r->arena, r->what, err);
    r->row++;
    return rc;
}
