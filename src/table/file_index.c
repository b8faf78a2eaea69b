/* Data-file indexes in scan planning: see file_index.h. */
#include "table/file_index.h"

#include <string.h>

#include "format/file_index.h"
#include "table/scan.h"
#include "util/alloc.h"
#include "util/error.h"

typedef struct index_ctx {
    const pm_schema *schema;      /* the read schema */
    const pm_schema *file_schema; /* the schema the file was written with */
    const pm_file_index_item *items;
    size_t count;
} index_ctx;

/* The bloom filter of read-schema column `column`, when the file has one usable. */
static bool bloom_of(const index_ctx *x, int column, pm_bloom *b)
{
    const pm_field *rf = &x->schema->row->fields[column];
    size_t idx;
    const pm_field *ff = pm_type_field_by_id(x->file_schema->row, rf->id, &idx);
    pm_type *a, *c;
    bool same;
    if (ff == NULL)
        return false;
    if ((a = pm_type_clone(ff->type)) == NULL || (c = pm_type_clone(rf->type)) == NULL) {
        pm_type_free(a);
        return false;
    }
    a->nullable = c->nullable = true;
    same = pm_type_equals(a, c);
    pm_type_free(a);
    pm_type_free(c);
    if (!same)
        return false;
    for (size_t i = 0; i < x->count; i++)
        if (strcmp(x->items[i].column, ff->name) == 0 &&
            strcmp(x->items[i].type, "bloom-filter") == 0 && x->items[i].data != NULL)
            return pm_bloom_view(b, x->items[i].data, x->items[i].len, NULL) == 0;
    return false;
}

/* True when no row can satisfy `p`. */
static bool excludes(const index_ctx *x, const pm_predicate *p)
{
    pm_bloom b;
    switch (p->op) {
    case PM_PRED_AND:
        for (size_t i = 0; i < p->child_count; i++)
            if (excludes(x, p->children[i]))
                return true;
        return false;
    case PM_PRED_OR:
        for (size_t i = 0; i < p->child_count; i++)
            if (!excludes(x, p->children[i]))
                return false;
        return p->child_count > 0;
    case PM_PRED_EQ:
    case PM_PRED_IN:
        if (!bloom_of(x, p->column, &b))
            return false;
        for (size_t i = 0; i < p->literal_count; i++)
            if (p->literals[i].is_null ||
                pm_bloom_test(&b, pm_bloom_hash(p->type, &p->literals[i])))
                return false;
        return p->literal_count > 0;
    case PM_PRED_FALSE: return true;
    default: return false;
    }
}

static const char *index_file_of(const pm_manifest_entry *e)
{
    size_t n = strlen(e->file.file_name);
    for (size_t i = 0; i < e->file.extra_files.count; i++) {
        const char *x = ((const char *const *)e->file.extra_files.items)[i];
        if (strncmp(x, e->file.file_name, n) == 0 && strcmp(x + n, ".index") == 0)
            return x;
    }
    return NULL;
}

int pm_file_index_skips(paimon_table *t, const pm_schema *schema, const pm_manifest_entry *e,
                        const pm_predicate *filter, bool *skip, paimon_error *err)
{
    pm_schema *fs = NULL;
    pm_arena arena;
    uint8_t *owned = NULL;
    const uint8_t *data = e->file.embedded_file_index.ptr;
    size_t len = e->file.embedded_file_index.len;
    const char *extra = index_file_of(e);
    bool enabled = true;
    index_ctx x;
    int rc;

    *skip = false;
    if (filter == NULL || (data == NULL && extra == NULL))
        return 0;
    if ((rc = pm_options_get_bool(&schema->options, "file-index.read.enabled", &enabled, err)) !=
            0 ||
        !enabled)
        return rc;
    pm_arena_init(&arena, 4096);
    if (data == NULL) {
        const char *path = pm_data_file_path(t, schema, e, &arena, err);
        char *ipath;
        if (path == NULL) {
            rc = err != NULL && err->code != 0 ? err->code : PAIMON_EINVALID;
            goto done;
        }
        if ((ipath = pm_malloc(strlen(path) + 8)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        snprintf(ipath, strlen(path) + 8, "%s.index", path);
        rc = pm_fs_read_all(t->fs, ipath, 0, &owned, &len, err);
        pm_free(ipath);
        if (rc != 0)
            goto done;
        data = owned;
    }
    PM_TRY(pm_table_schema(t, e->file.schema_id, &fs, err));
    memset(&x, 0, sizeof(x));
    x.schema = schema;
    x.file_schema = fs;
    PM_TRY(pm_file_index_parse(data, len, e->file.file_name, &arena,
                               (pm_file_index_item **)&x.items, &x.count, err));
    *skip = excludes(&x, filter);
done:
    if (fs != NULL)
        pm_table_schema_release(t, fs);
    pm_free(owned);
    pm_arena_free(&arena);
    return rc;
}
