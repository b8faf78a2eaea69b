/* File indexes of written data files: see file_index_writer.h.
 *
 * Java (FileIndexOptions, DataFileIndexWriter) keeps the indexed columns in HashMaps and
 * serializes them in the iteration order of the last one: columns come out ordered by
 * String.hashCode() bins, ties in the order of the maps before it (keyed by
 * FileIndexOptions.Column, whose hash is Arrays.hashCode([name, null, false])).  The order
 * is replayed here with util/java_hashmap.h so that the bytes equal Java's. */
#include "table/write/file_index_writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/java_values.h"
#include "format/file_index.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/java_hashmap.h"
#include "util/units.h"

#define BLOOM "bloom-filter"

static bool same_name(void *ctx, int64_t a, int64_t b)
{
    const pm_file_index_column *cols = ctx;
    return strcmp(cols[a].name, cols[b].name) == 0;
}

/* Orders the columns as Java serializes them (see the top). */
static int java_order(pm_file_index_conf *c)
{
    pm_jhm first, second;
    pm_jhm_iter it = PM_JHM_ITER_INIT;
    const pm_jhm_entry *e;
    pm_file_index_column *sorted;
    size_t n = 0;
    int rc = 0;
    pm_jhm_init(&first, same_name, c->columns);
    pm_jhm_init(&second, same_name, c->columns);
    for (size_t i = 0; i < c->count && rc == 0; i++) {
        uint32_t h = (uint32_t)pm_java_string_hash(c->columns[i].name, strlen(c->columns[i].name));
        /* Arrays.hashCode([name, null, false]): ((31 + h) * 31 + 0) * 31 + 1237 */
        int32_t column_hash = (int32_t)(((31u + h) * 31u) * 31u + 1237u);
        rc = pm_jhm_put(&first, column_hash, (int64_t)i, 0);
    }
    while (rc == 0 && (e = pm_jhm_next(&first, &it)) != NULL)
        rc = pm_jhm_put(
            &second, pm_java_string_hash(c->columns[e->key].name, strlen(c->columns[e->key].name)),
            e->key, 0);
    if (rc == 0 && (sorted = pm_calloc(c->count + 1, sizeof(*sorted))) == NULL)
        rc = PAIMON_ENOMEM;
    if (rc == 0) {
        pm_jhm_iter it2 = PM_JHM_ITER_INIT;
        while ((e = pm_jhm_next(&second, &it2)) != NULL)
            sorted[n++] = c->columns[e->key];
        pm_free(c->columns);
        c->columns = sorted;
    }
    pm_jhm_free(&first);
    pm_jhm_free(&second);
    return rc;
}

static pm_file_index_column *find_column(pm_file_index_conf *c, const char *name)
{
    for (size_t i = 0; i < c->count; i++)
        if (strcmp(c->columns[i].name, name) == 0)
            return &c->columns[i];
    return NULL;
}

PM_MUST_CHECK static int add_column(pm_file_index_conf *c, const char *name, size_t len,
                                    paimon_error *err)
{
    pm_file_index_column *grown;
    char *copy;
    while (len > 0 && (*name == ' ' || *name == '\t')) {
        name++;
        len--;
    }
    while (len > 0 && (name[len - 1] == ' ' || name[len - 1] == '\t'))
        len--;
    if (len == 0)
        return pm_err_set(err, PAIMON_EINVALID,
                          "Wrong option in file-index.bloom-filter.columns, should not have "
                          "empty column");
    if ((copy = pm_strndup(name, len)) == NULL)
        return pm_nomem(err);
    if (memchr(copy, '[', len) != NULL) {
        int rc = pm_err_set(err, PAIMON_EUNSUPPORTED,
                            "file-index.bloom-filter.columns: %s: indexes of map keys are not "
                            "written yet",
                            copy);
        pm_free(copy);
        return rc;
    }
    if (find_column(c, copy) != NULL) {
        pm_free(copy);
        return 0;
    }
    if ((grown = pm_realloc(c->columns, (c->count + 1) * sizeof(*grown))) == NULL) {
        pm_free(copy);
        return pm_nomem(err);
    }
    c->columns = grown;
    c->columns[c->count].name = copy;
    c->columns[c->count].column = -1;
    c->columns[c->count].items = 1000000;
    c->columns[c->count].fpp = 0.1;
    c->count++;
    return 0;
}

int pm_file_index_conf_init(pm_file_index_conf *c, const pm_schema *schema, const pm_type *row,
                            paimon_error *err)
{
    const pm_options *o = &schema->options;
    int rc;
    memset(c, 0, sizeof(*c));
    if ((rc = pm_options_get_memory(o, "file-index.in-manifest-threshold", &c->threshold, err)) !=
        0)
        return rc;
    /* the indexed columns */
    for (size_t i = 0; i < o->count; i++) {
        const char *key = o->keys[i], *v = o->values[i];
        size_t kl = strlen(key);
        if (strncmp(key, "file-index.", 11) != 0 || kl < 19 ||
            strcmp(key + kl - 8, ".columns") != 0)
            continue;
        if (strcmp(key, "file-index." BLOOM ".columns") != 0) {
            rc = pm_err_set(err, PAIMON_EUNSUPPORTED,
                            "option %s: only bloom-filter file indexes "
                            "are written yet",
                            key);
            goto done;
        }
        for (const char *p = v; p != NULL;) {
            const char *comma = strchr(p, ',');
            size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
            if ((rc = add_column(c, p, len, err)) != 0)
                goto done;
            p = comma != NULL ? comma + 1 : NULL;
        }
    }
    /* their options: file-index.<type>.<column>.<key> */
    for (size_t i = 0; i < o->count; i++) {
        const char *key = o->keys[i], *rest, *d1, *d2;
        pm_file_index_column *col;
        char name[512];
        if (strncmp(key, "file-index.", 11) != 0)
            continue;
        rest = key + 11;
        if ((d1 = strchr(rest, '.')) == NULL || (d2 = strchr(d1 + 1, '.')) == NULL ||
            strchr(d2 + 1, '.') != NULL || strcmp(d2 + 1, "columns") == 0)
            continue; /* not three segments: Java ignores it */
        if ((size_t)(d2 - d1 - 1) >= sizeof(name))
            continue;
        memcpy(name, d1 + 1, (size_t)(d2 - d1 - 1));
        name[d2 - d1 - 1] = '\0';
        if ((size_t)(d1 - rest) != strlen(BLOOM) || strncmp(rest, BLOOM, strlen(BLOOM)) != 0 ||
            (col = find_column(c, name)) == NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "Wrong option in \"%s\", can't found column \"%s\" in "
                            "\"file-index.%.*s.columns\"",
                            key, name, (int)(d1 - rest), rest);
            goto done;
        }
        if (strcmp(d2 + 1, "items") == 0) {
            int64_t n = 0; /* Long.parseLong, as Java's Options.getLong */
            if (pm_parse_int64(o->values[i], &n) != 0 || n <= 0 || n > INT32_MAX) {
                rc = pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not a valid count", key,
                                o->values[i]);
                goto done;
            }
            col->items = n;
        } else if (strcmp(d2 + 1, "fpp") == 0) {
            double f = 0; /* Double.parseDouble, as Java's Options.getDouble */
            if (pm_parse_double(o->values[i], &f) != 0 || !(f > 0.0 && f < 1.0)) {
                rc = pm_err_set(err, PAIMON_EINVALID, "option %s: '%s' is not a probability", key,
                                o->values[i]);
                goto done;
            }
            col->fpp = f;
        }
    }
    /* the columns in the row */
    for (size_t i = 0; i < c->count; i++) {
        size_t idx;
        const pm_field *f = pm_type_field_by_name(row, c->columns[i].name, &idx);
        if (f == NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID, "%s does not exist in column fields",
                            c->columns[i].name);
            goto done;
        }
        if (!pm_bloom_supports(f->type)) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "file-index.bloom-filter.columns: column %s: Java's bloom filter "
                            "does not support its type",
                            c->columns[i].name);
            goto done;
        }
        c->columns[i].column = (int)idx;
    }
    if (c->count > 1 && java_order(c) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    return 0;
done:
    pm_file_index_conf_free(c);
    return rc;
}

void pm_file_index_conf_free(pm_file_index_conf *c)
{
    for (size_t i = 0; i < c->count; i++)
        pm_free(c->columns[i].name);
    pm_free(c->columns);
    memset(c, 0, sizeof(*c));
}

struct pm_file_index_writer {
    const pm_file_index_conf *c;
    const pm_type *row;
    pm_bloom *blooms; /* per conf column */
};

int pm_file_index_writer_new(pm_file_index_writer **out, const pm_file_index_conf *c,
                             const pm_type *row, paimon_error *err)
{
    pm_file_index_writer *w;
    *out = NULL;
    if (c == NULL || c->count == 0)
        return 0;
    if ((w = pm_calloc(1, sizeof(*w))) == NULL ||
        (w->blooms = pm_calloc(c->count, sizeof(pm_bloom))) == NULL) {
        pm_free(w);
        return pm_nomem(err);
    }
    w->c = c;
    w->row = row;
    for (size_t i = 0; i < c->count; i++) {
        int rc = pm_bloom_init(&w->blooms[i], c->columns[i].items, c->columns[i].fpp);
        if (rc != 0) {
            pm_file_index_writer_free(w);
            return rc == PAIMON_ENOMEM ? pm_nomem(err)
                                       : pm_err_set(err, rc, "bloom filter of %s: bad items/fpp",
                                                    c->columns[i].name);
        }
    }
    *out = w;
    return 0;
}

int pm_file_index_writer_add(pm_file_index_writer *w, pm_column *const *cols, int64_t first,
                             int64_t n, paimon_error *err)
{
    (void)err;
    for (size_t i = 0; i < w->c->count; i++) {
        const pm_column *col = cols[w->c->columns[i].column];
        const pm_type *t = col->type;
        for (int64_t r = first; r < first + n; r++) {
            pm_datum d;
            if (!pm_column_is_valid(col, r))
                continue;
            pm_column_get_datum(col, r, &d);
            pm_bloom_add(&w->blooms[i], pm_bloom_hash(t, &d));
        }
    }
    return 0;
}

int pm_file_index_writer_finish(pm_file_index_writer *w, pm_buf *out, paimon_error *err)
{
    pm_buf payloads;
    pm_file_index_item *items = pm_calloc(w->c->count + 1, sizeof(*items));
    size_t *offs = pm_calloc(w->c->count + 1, sizeof(size_t));
    int rc = 0;
    pm_buf_init(&payloads, 0);
    if (items == NULL || offs == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < w->c->count && rc == 0; i++) {
        offs[i] = payloads.len;
        rc = pm_bloom_serialize(&w->blooms[i], &payloads);
    }
    if (rc != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    for (size_t i = 0; i < w->c->count; i++) {
        items[i].column = w->c->columns[i].name;
        items[i].type = BLOOM;
        items[i].data = payloads.data + offs[i];
        items[i].len = (i + 1 < w->c->count ? offs[i + 1] : payloads.len) - offs[i];
    }
    rc = pm_file_index_serialize(items, w->c->count, out, err);
done:
    pm_buf_free(&payloads);
    pm_free(items);
    pm_free(offs);
    return rc;
}

void pm_file_index_writer_free(pm_file_index_writer *w)
{
    if (w == NULL)
        return;
    for (size_t i = 0; w->blooms != NULL && i < w->c->count; i++)
        pm_bloom_free(&w->blooms[i]);
    pm_free(w->blooms);
    pm_free(w);
}
