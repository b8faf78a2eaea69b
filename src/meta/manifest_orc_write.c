/*
 * ORC manifests: writing (see manifest_orc.h).  The type tree comes from the record
 * descriptor as Java's OrcTypeUtil.convertToOrcSchema builds it from the manifest's
 * RowType; the records become column vectors for the ORC writer (orc_writer.h).
 */
#include "meta/manifest_orc.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "format/orc/orc_writer.h"
#include "util/alloc.h"
#include "util/error.h"

#define MAX_TYPES       256
#define ELEMENT_ID_BASE 536870911 /* Integer.MAX_VALUE / 4 (SpecialFields) */

/* Paimon TINYINT fields: Avro int, ORC tinyint (metadata.md §9A.2). */
static bool is_tinyint(const char *name)
{
    return strcmp(name, "_KIND") == 0 || strcmp(name, "_FILE_SOURCE") == 0;
}

/* ---- the type tree --------------------------------------------------------------------- */

typedef struct tree {
    pm_orc_type types[MAX_TYPES];
    size_t count;
    pm_arena *arena;
} tree;

static int add_attr(tree *t, pm_orc_type *ty, int32_t id)
{
    char buf[16];
    snprintf(buf, sizeof(buf), "%d", id);
    if ((ty->attrs = pm_arena_alloc(t->arena, sizeof(pm_orc_attr))) == NULL ||
        (ty->attrs[0].key = pm_arena_strndup(t->arena, "paimon.id", 9)) == NULL ||
        (ty->attrs[0].value = pm_arena_strndup(t->arena, buf, strlen(buf))) == NULL)
        return PAIMON_ENOMEM;
    ty->attr_count = 1;
    return 0;
}

static int add_record(tree *t, const pm_avro_rdesc *rd, bool top, int32_t id, bool has_id,
                      uint32_t *col);

/* Adds the type of a value of `type` (a field, or array items) with Paimon field id `id`. */
static int add_value(tree *t, pm_avro_ftype type, const pm_avro_rdesc *rd, const char *name,
                     int32_t id, uint32_t *col)
{
    pm_orc_type *ty;
    if (type == PM_AF_RECORD)
        return add_record(t, rd, false, id, true, col);
    if (t->count >= MAX_TYPES)
        return PAIMON_ELIMIT;
    *col = (uint32_t)t->count;
    ty = &t->types[t->count++];
    memset(ty, 0, sizeof(*ty));
    switch (type) {
    case PM_AF_INT: ty->kind = name != NULL && is_tinyint(name) ? PM_ORC_BYTE : PM_ORC_INT; break;
    case PM_AF_LONG: ty->kind = PM_ORC_LONG; break;
    case PM_AF_TS_MILLIS: ty->kind = PM_ORC_TIMESTAMP; break;
    case PM_AF_STRING: ty->kind = PM_ORC_STRING; break;
    case PM_AF_BYTES: ty->kind = PM_ORC_BINARY; break;
    default: return PAIMON_EINVALID;
    }
    return add_attr(t, ty, id);
}

static int add_field(tree *t, const pm_avro_fdesc *fd, int32_t id, uint32_t *col)
{
    pm_orc_type *list;
    uint32_t elem;
    int rc;
    if (fd->type != PM_AF_ARRAY)
        return add_value(t, fd->type, fd->record, fd->name, id, col);
    if (t->count >= MAX_TYPES)
        return PAIMON_ELIMIT;
    *col = (uint32_t)t->count++;
    list = &t->types[*col];
    memset(list, 0, sizeof(*list));
    list->kind = PM_ORC_LIST;
    if ((rc = add_attr(t, list, id)) != 0)
        return rc;
    /* SpecialFields.getArrayElementFieldId(id, 1), in Java's int arithmetic */
    rc = add_value(t, fd->item_type, fd->record, NULL,
                   (int32_t)((uint32_t)ELEMENT_ID_BASE + (uint32_t)id * 1024u + 1u), &elem);
    if (rc != 0)
        return rc;
    list = &t->types[*col];
    if ((list->subtypes = pm_arena_alloc(t->arena, sizeof(uint32_t))) == NULL)
        return PAIMON_ENOMEM;
    list->subtypes[0] = elem;
    list->subtype_count = 1;
    return 0;
}

/* A STRUCT for `rd`: the root (no attribute; `_VERSION` is -1, then 0, 1, ...) or nested
 * (fields numbered from 0). */
static int add_record(tree *t, const pm_avro_rdesc *rd, bool top, int32_t id, bool has_id,
                      uint32_t *col)
{
    pm_orc_type *st;
    uint32_t *subs;
    char **names;
    int rc;
    if (t->count >= MAX_TYPES)
        return PAIMON_ELIMIT;
    *col = (uint32_t)t->count++;
    subs = pm_arena_calloc(t->arena, rd->field_count + 1, sizeof(uint32_t));
    names = pm_arena_calloc(t->arena, rd->field_count + 1, sizeof(char *));
    if (subs == NULL || names == NULL)
        return PAIMON_ENOMEM;
    st = &t->types[*col];
    memset(st, 0, sizeof(*st));
    st->kind = PM_ORC_STRUCT;
    if (has_id && (rc = add_attr(t, st, id)) != 0)
        return rc;
    for (size_t i = 0; i < rd->field_count; i++) {
        int32_t fid = top ? (int32_t)i - 1 : (int32_t)i;
        if ((names[i] = pm_arena_strndup(t->arena, rd->fields[i].name,
                                         strlen(rd->fields[i].name))) == NULL)
            return PAIMON_ENOMEM;
        if ((rc = add_field(t, &rd->fields[i], fid, &subs[i])) != 0)
            return rc;
    }
    st = &t->types[*col];
    st->subtypes = subs;
    st->subtype_count = rd->field_count;
    st->field_names = names;
    st->field_name_count = rd->field_count;
    return 0;
}

/* ---- column vectors from records ------------------------------------------------------- */

typedef struct node {
    pm_orc_kind kind;
    pm_avro_ftype ftype;
    const pm_avro_fdesc *fd; /* the field; NULL for records and array items */
    const pm_avro_rdesc *rd; /* STRUCT */
    pm_buf valid;            /* one byte per slot */
    pm_buf values, offsets, nanos, bitmap;
    int64_t length;
    bool any_null;
    struct node *children;
    size_t child_count;
    pm_orc_colview view;
    pm_orc_colview *child_views;
} node;

static void node_free(node *n)
{
    for (size_t i = 0; i < n->child_count; i++)
        node_free(&n->children[i]);
    pm_free(n->children);
    pm_free(n->child_views);
    pm_buf_free(&n->valid);
    pm_buf_free(&n->values);
    pm_buf_free(&n->offsets);
    pm_buf_free(&n->nanos);
    pm_buf_free(&n->bitmap);
}

static int node_init(node *n, const pm_orc_type *types, uint32_t col, pm_avro_ftype ftype,
                     const pm_avro_fdesc *fd, const pm_avro_rdesc *rd)
{
    const pm_orc_type *t = &types[col];
    memset(n, 0, sizeof(*n));
    n->kind = t->kind;
    n->ftype = ftype;
    n->fd = fd;
    n->rd = rd;
    pm_buf_init(&n->valid, 0);
    pm_buf_init(&n->values, 0);
    pm_buf_init(&n->offsets, 0);
    pm_buf_init(&n->nanos, 0);
    pm_buf_init(&n->bitmap, 0);
    if (t->subtype_count == 0)
        return 0;
    if ((n->children = pm_calloc(t->subtype_count, sizeof(node))) == NULL)
        return PAIMON_ENOMEM;
    n->child_count = t->subtype_count;
    for (size_t i = 0; i < t->subtype_count; i++) {
        int rc;
        if (t->kind == PM_ORC_STRUCT) {
            const pm_avro_fdesc *f = &rd->fields[i];
            rc = node_init(&n->children[i], types, t->subtypes[i], f->type, f,
                           f->type == PM_AF_RECORD || f->item_type == PM_AF_RECORD ? f->record
                                                                                   : NULL);
        } else { /* LIST: the items */
            rc = node_init(&n->children[i], types, t->subtypes[i], fd->item_type, NULL,
                           fd->item_type == PM_AF_RECORD ? fd->record : NULL);
        }
        if (rc != 0)
            return rc;
    }
    return 0;
}

static int push_offset(node *n, int64_t off)
{
    int32_t o = (int32_t)off;
    if (off > INT32_MAX)
        return PAIMON_ELIMIT;
    return pm_buf_append(&n->offsets, &o, 4);
}

static int append(node *n, const uint8_t *src, bool valid);

/* Appends the fields of the struct at `base`. */
static int append_record(node *n, const uint8_t *base, bool valid)
{
    int rc = 0;
    for (size_t i = 0; i < n->child_count && rc == 0; i++) {
        node *c = &n->children[i];
        const pm_avro_fdesc *f = c->fd;
        const uint8_t *src = base != NULL ? base + f->offset : NULL;
        bool present = valid;
        if (present) {
            switch (f->type) {
            case PM_AF_STRING: present = *(const char *const *)(const void *)src != NULL; break;
            case PM_AF_BYTES:
                present = ((const pm_avro_bytes *)(const void *)src)->ptr != NULL;
                break;
            case PM_AF_ARRAY:
                present = !f->nullable || ((const pm_avro_array *)(const void *)src)->present;
                break;
            default:
                present = !f->nullable || f->present_offset < 0 ||
                          *(const bool *)(base + f->present_offset);
                break;
            }
        }
        rc = append(c, present ? src : NULL, present);
    }
    return rc;
}

static int append(node *n, const uint8_t *src, bool valid)
{
    uint8_t v = valid ? 1 : 0;
    int rc = pm_buf_append(&n->valid, &v, 1);
    if (rc != 0)
        return rc;
    n->any_null |= !valid;
    n->length++;
    switch (n->kind) {
    case PM_ORC_STRUCT: return append_record(n, valid ? src : NULL, valid);
    case PM_ORC_LIST: {
        const pm_avro_array *a = valid ? (const pm_avro_array *)(const void *)src : NULL;
        size_t size = 0;
        node *e = &n->children[0];
        if (n->offsets.len == 0 && (rc = push_offset(n, 0)) != 0)
            return rc;
        switch (e->ftype) {
        case PM_AF_INT: size = sizeof(int32_t); break;
        case PM_AF_LONG:
        case PM_AF_TS_MILLIS: size = sizeof(int64_t); break;
        case PM_AF_STRING: size = sizeof(char *); break;
        case PM_AF_BYTES: size = sizeof(pm_avro_bytes); break;
        case PM_AF_RECORD: size = e->rd->size; break;
        default: return PAIMON_EINVALID;
        }
        for (size_t i = 0; a != NULL && i < a->count && rc == 0; i++) {
            const uint8_t *item = (const uint8_t *)a->items + i * size;
            bool ok = true;
            if (e->ftype == PM_AF_LONG || e->ftype == PM_AF_TS_MILLIS)
                ok = *(const int64_t *)(const void *)item != PM_AVRO_NULL_LONG;
            else if (e->ftype == PM_AF_STRING)
                ok = *(const char *const *)(const void *)item != NULL;
            rc = append(e, ok ? item : NULL, ok);
        }
        return rc != 0 ? rc : push_offset(n, e->length);
    }
    case PM_ORC_STRING:
    case PM_ORC_BINARY: {
        const uint8_t *p = NULL;
        size_t len = 0;
        if (n->offsets.len == 0 && (rc = push_offset(n, 0)) != 0)
            return rc;
        if (valid && n->ftype == PM_AF_STRING) {
            p = *(const uint8_t *const *)(const void *)src;
            len = strlen((const char *)p);
        } else if (valid) {
            p = ((const pm_avro_bytes *)(const void *)src)->ptr;
            len = ((const pm_avro_bytes *)(const void *)src)->len;
        }
        if (len > 0 && (rc = pm_buf_append(&n->values, p, len)) != 0)
            return rc;
        return push_offset(n, (int64_t)n->values.len);
    }
    case PM_ORC_BYTE: {
        int8_t x = 0;
        if (valid) {
            int32_t y;
            memcpy(&y, src, 4);
            x = (int8_t)y;
        }
        return pm_buf_append(&n->values, &x, 1);
    }
    case PM_ORC_INT: {
        int32_t x = 0;
        if (valid)
            memcpy(&x, src, 4);
        return pm_buf_append(&n->values, &x, 4);
    }
    case PM_ORC_LONG: {
        int64_t x = 0;
        if (valid)
            memcpy(&x, src, 8);
        return pm_buf_append(&n->values, &x, 8);
    }
    case PM_ORC_TIMESTAMP: {
        int64_t x = 0;
        int32_t zero = 0;
        if (valid)
            memcpy(&x, src, 8);
        if ((rc = pm_buf_append(&n->values, &x, 8)) != 0)
            return rc;
        return pm_buf_append(&n->nanos, &zero, 4);
    }
    default: return PAIMON_EINVALID;
    }
}

/* The writer's view of a built node (validity as a bitmap). */
static int make_view(node *n)
{
    memset(&n->view, 0, sizeof(n->view));
    if (n->any_null) {
        int rc = pm_buf_zero(&n->bitmap, (size_t)(n->length + 7) / 8);
        if (rc != 0)
            return rc;
        for (int64_t i = 0; i < n->length; i++)
            if (n->valid.data[i])
                n->bitmap.data[i >> 3] |= (uint8_t)(1u << (i & 7));
        n->view.validity = n->bitmap.data;
    }
    n->view.values = n->values.data;
    n->view.offsets = (const int32_t *)(const void *)n->offsets.data;
    n->view.nanos = (const int32_t *)(const void *)n->nanos.data;
    if (n->child_count > 0) {
        if ((n->child_views = pm_calloc(n->child_count, sizeof(pm_orc_colview))) == NULL)
            return PAIMON_ENOMEM;
        for (size_t i = 0; i < n->child_count; i++) {
            int rc = make_view(&n->children[i]);
            if (rc != 0)
                return rc;
            n->child_views[i] = n->children[i].view;
        }
        n->view.children = n->child_views;
    }
    return 0;
}

/* ORC's CompressionKind from a Paimon compression option value. */
PM_MUST_CHECK static int orc_kind(const char *value, pm_orc_compression *out, paimon_error *err)
{
    static const struct {
        const char *name;
        pm_orc_compression kind;
    } KINDS[] = {
        {"zstd", PM_ORC_ZSTD},
        {"snappy", PM_ORC_SNAPPY},
        {"lz4", PM_ORC_LZ4},
        {"zlib", PM_ORC_ZLIB},
        {"none", PM_ORC_NONE},
        {"uncompressed", PM_ORC_NONE},
        /* the Avro codec names the commit layer carries */
        {"zstandard", PM_ORC_ZSTD},
        {"deflate", PM_ORC_ZLIB},
        {"null", PM_ORC_NONE},
    };
    if (value == NULL) {
        *out = PM_ORC_ZSTD;
        return 0;
    }
    for (size_t i = 0; i < sizeof(KINDS) / sizeof(KINDS[0]); i++) {
        if (strcasecmp(value, KINDS[i].name) == 0) {
            *out = KINDS[i].kind;
            return 0;
        }
    }
    return pm_err_set(err, PAIMON_EINVALID, "compression '%s' is not an ORC compression kind",
                      value);
}

int pm_manifest_orc_encode(const pm_avro_rdesc *rd, const void *records, size_t count,
                           const char *compression, int level, pm_buf *out, paimon_error *err)
{
    pm_arena arena;
    tree *t = pm_calloc(1, sizeof(*t));
    node root;
    pm_orc_writer *w = NULL;
    pm_orc_writer_options o;
    uint32_t col;
    int rc;

    memset(&root, 0, sizeof(root));
    pm_arena_init(&arena, 1 << 12);
    if (t == NULL) {
        pm_arena_free(&arena);
        return pm_nomem(err);
    }
    t->arena = &arena;
    memset(&o, 0, sizeof(o));
    if ((rc = orc_kind(compression, &o.compression, err)) != 0)
        goto done;
    o.compression_set = true;
    o.level = level;
    o.timezone = "UTC";
    if ((rc = add_record(t, rd, true, 0, false, &col)) != 0 ||
        (rc = node_init(&root, t->types, 0, PM_AF_RECORD, NULL, rd)) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    for (size_t i = 0; i < count && rc == 0; i++)
        rc = append_record(&root, (const uint8_t *)records + i * rd->size, true);
    root.length = (int64_t)count;
    if (rc == 0)
        rc = make_view(&root);
    if (rc != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    PM_TRY(pm_orc_writer_new(&w, t->types, t->count, &o, out, NULL, err));
    PM_TRY(pm_orc_writer_write(w, &root.view, (int64_t)count, err));
    PM_TRY(pm_orc_writer_close(w, err));
done:
    pm_orc_writer_free(w);
    node_free(&root);
    pm_free(t);
    pm_arena_free(&arena);
    return rc;
}
