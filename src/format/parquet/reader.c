/* Reading Parquet files into batches: see reader.h. */
#include "format/parquet/reader.h"

#include <string.h>

#include "format/parquet/assemble.h"
#include "format/parquet/column.h"
#include "format/parquet/stats.h"
#include "util/alloc.h"
#include "util/bytes.h"

#define PQ_MAX_FOOTER (512u << 20)
#define PQ_TAIL_READ  ((size_t)64 << 10) /* bytes read from the end at open */

struct pm_pq_reader {
    pm_input *in;
    char *path;
    uint64_t size;
    uint8_t *footer; /* the FileMetaData bytes (padded); the metadata borrows them */
    pm_arena arena;  /* metadata arrays and names */
    pq_file_meta meta;
    pq_schema schema;
    pm_type *file_type; /* the file as a Paimon ROW type */
    pm_codec_ctx *codec;

    /* the planned read */
    bool started;
    pm_type *read_type; /* owned */
    pm_arena plan_arena;
    pq_plan *plans; /* one per read_type field */
    int64_t batch_rows;
    const pm_predicate *filter;
    int64_t *ranges; /* owned copy */
    size_t range_count;
    bool verify_crc;
    size_t stream_chunk, stream_window; /* see pm_pq_read_options */
    pm_pool *pool;                      /* see pm_pq_read_options */
    bool *leaf_used;                    /* per leaf: read in this plan */
    bool *leaf_bound;                   /* per leaf: has a column in the batch (else scratch) */
    const pq_plan **leaf_plan; /* per leaf: the LEAF plan, or a stand-in for structure leaves */
    pq_col_reader *cols;       /* per leaf */
    uint8_t **chunks;          /* per leaf: the current row group's chunk bytes */
    size_t *chunk_caps;        /* per leaf: bytes allocated for them (reused across groups) */
    pq_levels *levels;         /* per leaf */
    pm_column **leaf_cols;     /* per leaf, for the batch being read */
    pm_column **scratch;       /* per leaf: values of structure-only leaves */
    pq_plan *stand_in;         /* per leaf: plans for structure-only leaves */
    pm_type **stand_in_types;  /* per leaf: their types (owned) */
    pm_buf work;

    /* iteration */
    uint32_t rg; /* next row group to load */
    bool rg_loaded;
    int64_t rg_first; /* file row number of the loaded group's first row */
    int64_t rg_rows;
    int64_t *iv; /* intervals [start, end) within the loaded group */
    size_t iv_count, iv_cap, iv_idx;
    int64_t pos;                /* next row within the loaded group */
    pm_arena index_arena;       /* page indexes of the loaded group */
    const pq_column_index **ci; /* per leaf */
    const pq_offset_index **oi; /* per leaf */

    int64_t skipped_groups, skipped_rows;
};

int64_t pm_pq_reader_pages_ahead(const pm_pq_reader *r)
{
    int64_t n = 0;
    for (int i = 0; r->cols != NULL && i < r->schema.leaf_count; i++)
        n += r->cols[i].pages_ahead;
    return n;
}

const pq_file_meta *pm_pq_reader_meta(const pm_pq_reader *r)
{
    return &r->meta;
}

const pq_schema *pm_pq_reader_schema(const pm_pq_reader *r)
{
    return &r->schema;
}

const pm_type *pm_pq_reader_type(const pm_pq_reader *r)
{
    return r->file_type;
}

const char *pm_pq_reader_path(const pm_pq_reader *r)
{
    return r->path;
}

uint64_t pm_pq_reader_file_size(const pm_pq_reader *r)
{
    return r->size;
}

void pm_pq_reader_skipped(const pm_pq_reader *r, int64_t *row_groups, int64_t *rows)
{
    *row_groups = r->skipped_groups;
    *rows = r->skipped_rows;
}

/* ---- read state ------------------------------------------------------------------------ */

static void free_chunks(pm_pq_reader *r)
{
    if (r->chunks == NULL)
        return;
    for (int i = 0; i < r->schema.leaf_count; i++) {
        pm_free(r->chunks[i]);
        r->chunks[i] = NULL;
        if (r->chunk_caps != NULL) /* NULL when allocating it failed */
            r->chunk_caps[i] = 0;
    }
}

static void free_plan_state(pm_pq_reader *r)
{
    int n = r->schema.leaf_count;
    if (r->cols != NULL) /* jobs read the chunks: stopped before the chunks go */
        for (int i = 0; i < n; i++)
            pm_pq_col_drop_ahead(&r->cols[i]);
    free_chunks(r);
    if (r->cols != NULL)
        for (int i = 0; i < n; i++)
            pm_pq_col_free(&r->cols[i]);
    if (r->levels != NULL)
        for (int i = 0; i < n; i++) {
            pm_buf_free(&r->levels[i].def);
            pm_buf_free(&r->levels[i].rep);
        }
    if (r->scratch != NULL)
        for (int i = 0; i < n; i++)
            pm_column_free(r->scratch[i]);
    if (r->stand_in_types != NULL)
        for (int i = 0; i < n; i++)
            pm_type_free(r->stand_in_types[i]);
    pm_free(r->stand_in_types);
    r->stand_in_types = NULL;
    pm_free(r->cols);
    pm_free(r->chunks);
    pm_free(r->chunk_caps);
    r->chunk_caps = NULL;
    pm_free(r->levels);
    pm_free(r->leaf_cols);
    pm_free(r->scratch);
    pm_free(r->leaf_used);
    pm_free(r->leaf_bound);
    pm_free(r->leaf_plan);
    pm_free(r->stand_in);
    pm_free(r->ci);
    pm_free(r->oi);
    pm_free(r->ranges);
    pm_free(r->iv);
    pm_type_free(r->read_type);
    pm_arena_free(&r->plan_arena);
    pm_arena_free(&r->index_arena);
    r->cols = NULL;
    r->chunks = NULL;
    r->levels = NULL;
    r->leaf_cols = NULL;
    r->scratch = NULL;
    r->leaf_used = r->leaf_bound = NULL;
    r->leaf_plan = NULL;
    r->stand_in = NULL;
    r->ci = NULL;
    r->oi = NULL;
    r->ranges = NULL;
    r->iv = NULL;
    r->iv_cap = 0;
    r->read_type = NULL;
    r->plans = NULL;
    r->started = false;
}

void pm_pq_reader_free(pm_pq_reader *r)
{
    if (r == NULL)
        return;
    free_plan_state(r);
    pm_buf_free(&r->work);
    pm_type_free(r->file_type);
    pm_arena_free(&r->arena);
    pm_free(r->footer);
    pm_codec_ctx_free(r->codec);
    if (r->in != NULL)
        r->in->close(r->in);
    pm_free(r->path);
    pm_free(r);
}

/* ---- open ------------------------------------------------------------------------------ */

/* The byte range of a column chunk: from its dictionary page (when it has one) or first
 * data page, total_compressed_size bytes. */
static void chunk_range(const pq_column_chunk *c, int64_t *start, int64_t *len)
{
    const pq_column_meta *m = &c->meta;
    *start = m->data_page_offset;
    if (m->has_dictionary_page_offset && m->dictionary_page_offset > 0 &&
        m->dictionary_page_offset < *start)
        *start = m->dictionary_page_offset;
    *len = m->total_compressed_size;
}

PM_MUST_CHECK static int check_row_groups(pm_pq_reader *r, uint64_t data_end, paimon_error *err)
{
    for (uint32_t g = 0; g < r->meta.row_group_count; g++) {
        const pq_row_group *rg = &r->meta.row_groups[g];
        if (rg->column_count != (uint32_t)r->schema.leaf_count)
            return pm_corrupt(err, "%s: row group %u has %u columns, the schema %d", r->path, g,
                              rg->column_count, r->schema.leaf_count);
        if (rg->num_rows < 0)
            return pm_corrupt(err, "%s: row group %u has %lld rows", r->path, g,
                              (long long)rg->num_rows);
        for (uint32_t c = 0; c < rg->column_count; c++) {
            const pq_column_chunk *cc = &rg->columns[c];
            int64_t start, len, end;
            if (cc->encrypted)
                return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: encrypted columns", r->path);
            if (cc->file_path != NULL)
                return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: column data in another file (%s)",
                                  r->path, cc->file_path);
            if (!cc->has_meta)
                return pm_corrupt(err, "%s: row group %u column %u has no metadata", r->path, g, c);
            if (cc->meta.type != r->schema.leaves[c].type)
                return pm_corrupt(err, "%s: row group %u column %u has type %s, the schema %s",
                                  r->path, g, c, pm_pq_type_name(cc->meta.type),
                                  pm_pq_type_name(r->schema.leaves[c].type));
            if (cc->meta.num_values < 0)
                return pm_corrupt(err, "%s: row group %u column %u has %lld values", r->path, g, c,
                                  (long long)cc->meta.num_values);
            chunk_range(cc, &start, &len);
            if (start < 4 || len < 0 || __builtin_add_overflow(start, len, &end) ||
                (uint64_t)end > data_end)
                return pm_corrupt(err,
                                  "%s: row group %u column %u spans [%lld, +%lld), outside the "
                                  "data at offset %llu",
                                  r->path, g, c, (long long)start, (long long)len,
                                  (unsigned long long)start);
        }
    }
    return 0;
}

int pm_pq_reader_open(pm_pq_reader **out, pm_input *in, const char *path, paimon_error *err)
{
    pm_pq_reader *r = NULL;
    uint8_t tail[8], head[4];
    uint64_t flen, foff;
    pm_thrift_reader tr;
    uint8_t *end = NULL; /* the last PQ_TAIL_READ bytes (or the whole file), read at once */
    size_t end_len;
    int rc = 0;

    *out = NULL;
    if ((r = pm_calloc(1, sizeof(*r))) == NULL || (r->path = pm_strdup(path)) == NULL) {
        pm_free(r);
        in->close(in);
        return pm_nomem(err);
    }
    r->in = in;
    r->size = in->size;
    pm_arena_init(&r->arena, 64 * 1024);
    pm_arena_init(&r->plan_arena, 16 * 1024);
    pm_arena_init(&r->index_arena, 16 * 1024);
    pm_buf_init(&r->work, 0);
    if (r->size < 12) {
        rc = pm_corrupt(err, "%s: %llu bytes is too small for a Parquet file at offset 0", path,
                        (unsigned long long)r->size);
        goto done;
    }
    /* One read of the file's end usually holds the length, the magic and the whole footer:
     * on object storage that is one request instead of two. */
    end_len = r->size < PQ_TAIL_READ ? (size_t)r->size : PQ_TAIL_READ;
    if ((end = pm_malloc(end_len)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(in->read_at(in, 0, 4, head, err));
    PM_TRY(in->read_at(in, r->size - end_len, end_len, end, err));
    memcpy(tail, end + end_len - 8, 8);
    if (memcmp(tail + 4, "PARE", 4) == 0) {
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: encrypted Parquet files are not supported",
                        path);
        goto done;
    }
    if (memcmp(head, "PAR1", 4) != 0 || memcmp(tail + 4, "PAR1", 4) != 0) {
        rc = pm_corrupt(err, "%s: no PAR1 magic at offset %llu", path,
                        memcmp(head, "PAR1", 4) != 0 ? 0ull : (unsigned long long)r->size - 4);
        goto done;
    }
    flen = pm_load_le32(tail);
    if (flen > r->size - 12 || flen > PQ_MAX_FOOTER || flen == 0) {
        rc = pm_corrupt(err, "%s: footer length %llu does not fit the file at offset %llu", path,
                        (unsigned long long)flen, (unsigned long long)r->size - 8);
        goto done;
    }
    foff = r->size - 8 - flen;
    if ((r->footer = pm_malloc((size_t)flen + PM_PQ_PADDING)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    memset(r->footer + flen, 0, PM_PQ_PADDING);
    if (flen + 8 <= end_len)
        memcpy(r->footer, end + end_len - 8 - flen, (size_t)flen);
    else
        PM_TRY(in->read_at(in, foff, (size_t)flen, r->footer, err));
    pm_thrift_reader_init(&tr, r->footer, (size_t)flen, foff, path, err);
    PM_TRY(pm_pq_read_file_meta(&tr, &r->arena, &r->meta));
    if (r->meta.encrypted) {
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: encrypted Parquet files are not supported",
                        path);
        goto done;
    }
    if (r->meta.num_rows < 0) {
        rc = pm_corrupt(err, "%s: footer at offset %llu claims %lld rows", path,
                        (unsigned long long)foff, (long long)r->meta.num_rows);
        goto done;
    }
    PM_TRY(pm_pq_schema_build(&r->meta, &r->arena, &r->schema, path, err));
    PM_TRY(check_row_groups(r, foff, err));
    PM_TRY(pm_pq_file_type(&r->schema, &r->file_type, path, err));
    if ((r->codec = pm_codec_ctx_new()) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    *out = r;
    r = NULL;
done:
    pm_free(end);
    pm_pq_reader_free(r);
    return rc;
}

/* ---- planning -------------------------------------------------------------------------- */

static int mark_leaves(pm_pq_reader *r, const pq_plan *p)
{
    if (p->kind == PQ_PLAN_MISSING)
        return 0;
    if (p->kind == PQ_PLAN_LEAF) {
        if (r->leaf_bound[p->leaf])
            return PAIMON_EINVALID; /* the same file column twice */
        r->leaf_used[p->leaf] = true;
        r->leaf_bound[p->leaf] = true;
        r->leaf_plan[p->leaf] = p;
        return 0;
    }
    if (p->rep_leaf >= 0)
        r->leaf_used[p->rep_leaf] = true;
    for (int i = 0; i < p->child_count; i++) {
        int rc = mark_leaves(r, &p->children[i]);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int pm_pq_reader_start(pm_pq_reader *r, const pm_pq_read_options *o, paimon_error *err)
{
    pm_pq_read_options defaults = {0};
    int n = r->schema.leaf_count, rc = 0;

    free_plan_state(r);
    if (o == NULL)
        o = &defaults;
    pm_arena_init(&r->plan_arena, 16 * 1024);
    pm_arena_init(&r->index_arena, 16 * 1024);
    r->read_type = pm_type_clone(o->read_type != NULL ? o->read_type : r->file_type);
    r->batch_rows = o->batch_rows > 0 ? o->batch_rows : PM_PQ_DEFAULT_BATCH_ROWS;
    r->filter = o->filter;
    r->verify_crc = !o->skip_crc;
    r->stream_chunk = o->stream_chunk_bytes > 0 ? o->stream_chunk_bytes : PM_PQ_STREAM_CHUNK_BYTES;
    r->stream_window =
        o->stream_window_bytes > 0 ? o->stream_window_bytes : PM_PQ_STREAM_WINDOW_BYTES;
    r->pool = o->pool;
    if (r->read_type == NULL ||
        (r->cols = pm_calloc((size_t)n + 1, sizeof(pq_col_reader))) == NULL ||
        (r->chunks = pm_calloc((size_t)n + 1, sizeof(uint8_t *))) == NULL ||
        (r->chunk_caps = pm_calloc((size_t)n + 1, sizeof(size_t))) == NULL ||
        (r->levels = pm_calloc((size_t)n + 1, sizeof(pq_levels))) == NULL ||
        (r->leaf_cols = pm_calloc((size_t)n + 1, sizeof(pm_column *))) == NULL ||
        (r->scratch = pm_calloc((size_t)n + 1, sizeof(pm_column *))) == NULL ||
        (r->leaf_used = pm_calloc((size_t)n + 1, sizeof(bool))) == NULL ||
        (r->leaf_bound = pm_calloc((size_t)n + 1, sizeof(bool))) == NULL ||
        (r->leaf_plan = pm_calloc((size_t)n + 1, sizeof(pq_plan *))) == NULL ||
        (r->stand_in = pm_calloc((size_t)n + 1, sizeof(pq_plan))) == NULL ||
        (r->stand_in_types = pm_calloc((size_t)n + 1, sizeof(pm_type *))) == NULL ||
        (r->ci = pm_calloc((size_t)n + 1, sizeof(pq_column_index *))) == NULL ||
        (r->oi = pm_calloc((size_t)n + 1, sizeof(pq_offset_index *))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        pm_buf_init(&r->levels[i].def, 0);
        pm_buf_init(&r->levels[i].rep, 0);
    }
    if (o->range_count > 0) {
        if ((r->ranges = pm_malloc(o->range_count * 2 * sizeof(int64_t))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        memcpy(r->ranges, o->ranges, o->range_count * 2 * sizeof(int64_t));
        r->range_count = o->range_count;
        for (size_t i = 0; i < o->range_count; i++)
            if (r->ranges[2 * i] > r->ranges[2 * i + 1] ||
                (i > 0 && r->ranges[2 * i] < r->ranges[2 * i - 1])) {
                rc = pm_err_set(err, PAIMON_EINVALID, "%s: row ranges must be sorted and disjoint",
                                r->path);
                goto done;
            }
    } else if (o->ranges != NULL) {
        r->range_count = 0; /* an empty selection */
        if ((r->ranges = pm_malloc(sizeof(int64_t) * 2)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    if ((rc = pm_pq_plan_build(&r->schema, r->read_type, &r->plan_arena, &r->plans, r->path,
                               err)) != 0)
        goto done;
    for (size_t i = 0; i < r->read_type->field_count; i++)
        if (mark_leaves(r, &r->plans[i]) != 0) {
            rc = pm_err_set(err, PAIMON_EINVALID, "%s: a file column is requested twice", r->path);
            goto done;
        }
    for (int i = 0; i < n; i++) {
        if (!r->leaf_used[i])
            continue;
        if (r->leaf_plan[i] == NULL) {
            /* a leaf read only for the structure of its parents */
            if ((rc = pm_pq_leaf_value_plan(&r->schema, i, &r->stand_in[i], &r->stand_in_types[i],
                                            r->path, err)) != 0)
                goto done;
            r->leaf_plan[i] = &r->stand_in[i];
        }
    }
    r->started = true;
    r->rg = 0;
    r->rg_loaded = false;
    r->rg_first = 0;
    r->skipped_groups = r->skipped_rows = 0;
    return 0;
done:
    free_plan_state(r);
    return rc;
}

/* ---- page indexes ---------------------------------------------------------------------- */

PM_MUST_CHECK static int read_index(pm_pq_reader *r, int64_t off, int32_t len, bool column_index,
                                    const void **out, paimon_error *err)
{
    uint8_t *buf;
    pm_thrift_reader tr;
    int64_t end;
    int rc;
    *out = NULL;
    if (off < 4 || len <= 0 || __builtin_add_overflow(off, (int64_t)len, &end) ||
        (uint64_t)end > r->size - 8)
        return pm_corrupt(err, "%s: page index [%lld, +%d) is outside the file at offset %lld",
                          r->path, (long long)off, (int)len, (long long)off);
    if ((buf = pm_arena_alloc(&r->index_arena, (size_t)len + PM_PQ_PADDING)) == NULL)
        return pm_nomem(err);
    if ((rc = r->in->read_at(r->in, (uint64_t)off, (size_t)len, buf, err)) != 0)
        return rc;
    pm_thrift_reader_init(&tr, buf, (size_t)len, (uint64_t)off, r->path, err);
    if (column_index) {
        pq_column_index *ci = pm_arena_calloc(&r->index_arena, 1, sizeof(*ci));
        if (ci == NULL)
            return pm_nomem(err);
        if ((rc = pm_pq_read_column_index(&tr, &r->index_arena, ci)) != 0)
            return rc;
        *out = ci;
    } else {
        pq_offset_index *oi = pm_arena_calloc(&r->index_arena, 1, sizeof(*oi));
        if (oi == NULL)
            return pm_nomem(err);
        if ((rc = pm_pq_read_offset_index(&tr, &r->index_arena, oi)) != 0)
            return rc;
        for (uint32_t i = 0; i < oi->page_count; i++)
            if (oi->pages[i].first_row < 0 ||
                (i > 0 && oi->pages[i].first_row < oi->pages[i - 1].first_row))
                return pm_corrupt(err, "%s: offset index at offset %lld has bad first rows",
                                  r->path, (long long)off);
        *out = oi;
    }
    return 0;
}

int pm_pq_reader_page_index(pm_pq_reader *r, uint32_t row_group, int leaf,
                            const pq_column_index **ci, const pq_offset_index **oi,
                            paimon_error *err)
{
    const pq_column_chunk *cc;
    const void *p;
    int rc;
    *ci = NULL;
    *oi = NULL;
    if (row_group >= r->meta.row_group_count || leaf < 0 || leaf >= r->schema.leaf_count)
        return pm_err_set(err, PAIMON_EINVALID, "%s: no column %d in row group %u", r->path, leaf,
                          row_group);
    cc = &r->meta.row_groups[row_group].columns[leaf];
    if (cc->has_column_index && cc->column_index_length > 0) {
        if ((rc = read_index(r, cc->column_index_offset, cc->column_index_length, true, &p, err)) !=
            0)
            return rc;
        *ci = p;
    }
    if (cc->has_offset_index && cc->offset_index_length > 0) {
        if ((rc = read_index(r, cc->offset_index_offset, cc->offset_index_length, false, &p,
                             err)) != 0)
            return rc;
        *oi = p;
    }
    if (*ci != NULL && *oi != NULL && (*ci)->page_count != (*oi)->page_count)
        *ci = NULL; /* inconsistent: use neither bound */
    return 0;
}

/* ---- row selection --------------------------------------------------------------------- */

PM_MUST_CHECK static int iv_push(pm_pq_reader *r, int64_t a, int64_t b, paimon_error *err)
{
    if (a >= b)
        return 0;
    if (r->iv_count > 0 && r->iv[2 * r->iv_count - 1] >= a) {
        if (b > r->iv[2 * r->iv_count - 1])
            r->iv[2 * r->iv_count - 1] = b;
        return 0;
    }
    if (r->iv_count == r->iv_cap) {
        size_t cap = r->iv_cap < 8 ? 8 : r->iv_cap * 2;
        int64_t *grown = pm_realloc(r->iv, cap * 2 * sizeof(int64_t));
        if (grown == NULL)
            return pm_nomem(err);
        r->iv = grown;
        r->iv_cap = cap;
    }
    r->iv[2 * r->iv_count] = a;
    r->iv[2 * r->iv_count + 1] = b;
    r->iv_count++;
    return 0;
}

/* The top-level column `i` is a flat leaf whose statistics can be used. */
static const pq_plan *flat_leaf(pm_pq_reader *r, int i)
{
    const pq_plan *p = &r->plans[i];
    return p->kind == PQ_PLAN_LEAF ? p : NULL;
}

/* Row-group and page pruning by the filter, then the caller's ranges: fills r->iv. */
PM_MUST_CHECK static int select_rows(pm_pq_reader *r, const pq_row_group *rg, paimon_error *err)
{
    size_t ncols = r->read_type->field_count;
    pm_col_stats *stats = NULL;
    const pm_col_stats **ptrs = NULL;
    int64_t *cuts = NULL;
    size_t ncuts = 0, cap = 0;
    int rc = 0;

    r->iv_count = 0;
    if (r->filter != NULL && ncols > 0) {
        stats = pm_calloc(ncols, sizeof(*stats));
        ptrs = pm_calloc(ncols, sizeof(*ptrs));
        if (stats == NULL || ptrs == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        for (size_t i = 0; i < ncols; i++) {
            const pq_plan *p = flat_leaf(r, (int)i);
            if (p == NULL)
                continue;
            pm_pq_stats_convert(
                p, &r->schema.leaves[p->leaf],
                rg->columns[p->leaf].meta.has_stats ? &rg->columns[p->leaf].meta.stats : NULL,
                &stats[i]);
            ptrs[i] = &stats[i];
        }
        if (!pm_predicate_eval_stats(r->filter, ptrs, rg->num_rows)) {
            r->skipped_groups++;
            r->skipped_rows += rg->num_rows;
            goto done;
        }
        /* page level: cut the group at every page boundary of the filtered columns that
         * have both indexes, and test each piece with its pages' bounds */
        for (size_t i = 0; i < ncols; i++) {
            const pq_plan *p = flat_leaf(r, (int)i);
            if (p == NULL || r->ci[p->leaf] == NULL || r->oi[p->leaf] == NULL)
                continue;
            for (uint32_t k = 0; k < r->oi[p->leaf]->page_count; k++) {
                if (ncuts == cap) {
                    size_t nc = cap < 16 ? 16 : cap * 2;
                    int64_t *g = pm_realloc(cuts, nc * sizeof(int64_t));
                    if (g == NULL) {
                        rc = pm_nomem(err);
                        goto done;
                    }
                    cuts = g;
                    cap = nc;
                }
                cuts[ncuts++] = r->oi[p->leaf]->pages[k].first_row;
            }
        }
    }
    if (ncuts > 0) {
        /* sort and deduplicate the cut points (insertion sort: page counts are small) */
        for (size_t i = 1; i < ncuts; i++)
            for (size_t j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
                int64_t t = cuts[j];
                cuts[j] = cuts[j - 1];
                cuts[j - 1] = t;
            }
        for (size_t i = 0; i < ncuts; i++) {
            int64_t a = i == 0 ? 0 : cuts[i], b = i + 1 < ncuts ? cuts[i + 1] : rg->num_rows;
            if (i + 1 < ncuts && cuts[i + 1] == cuts[i])
                continue;
            if (a >= rg->num_rows)
                break;
            if (b > rg->num_rows)
                b = rg->num_rows;
            for (size_t c = 0; c < ncols; c++) {
                const pq_plan *p = flat_leaf(r, (int)c);
                const pq_offset_index *oi;
                uint32_t k;
                int64_t end;
                if (p == NULL || r->ci[p->leaf] == NULL || r->oi[p->leaf] == NULL)
                    continue;
                oi = r->oi[p->leaf];
                for (k = 0; k + 1 < oi->page_count && oi->pages[k + 1].first_row <= a; k++)
                    ;
                end = k + 1 < oi->page_count ? oi->pages[k + 1].first_row : rg->num_rows;
                pm_pq_page_stats(p, &r->schema.leaves[p->leaf], r->ci[p->leaf], k,
                                 end - oi->pages[k].first_row, &stats[c]);
            }
            if (pm_predicate_eval_stats(r->filter, ptrs, b - a)) {
                if ((rc = iv_push(r, a, b, err)) != 0)
                    goto done;
            } else {
                r->skipped_rows += b - a;
            }
        }
    } else if ((rc = iv_push(r, 0, rg->num_rows, err)) != 0) {
        goto done;
    }
    /* intersect with the caller's ranges */
    if (r->ranges != NULL) {
        int64_t *mine = r->iv;
        size_t count = r->iv_count, kept = 0;
        r->iv = NULL;
        r->iv_cap = 0;
        r->iv_count = 0;
        for (size_t i = 0; i < count && rc == 0; i++)
            for (size_t j = 0; j < r->range_count && rc == 0; j++) {
                int64_t a = r->ranges[2 * j] - r->rg_first, b = r->ranges[2 * j + 1] - r->rg_first;
                if (a < mine[2 * i])
                    a = mine[2 * i];
                if (b > mine[2 * i + 1])
                    b = mine[2 * i + 1];
                if (a < b) {
                    rc = iv_push(r, a, b, err);
                    kept += (size_t)(b - a);
                }
            }
        pm_free(mine);
        (void)kept;
    }
done:
    pm_free(stats);
    pm_free(ptrs);
    pm_free(cuts);
    return rc;
}

/* ---- row groups ------------------------------------------------------------------------ */

/* Tells the input which bytes the group's read needs: the chunks of the projected columns
 * that are read whole (streamed ones are read a window at a time, to bound memory).  A
 * remote input fetches them at once, near ones coalesced; a local one has nothing to do. */
PM_MUST_CHECK static int prefetch_chunks(pm_pq_reader *r, const pq_row_group *rg, paimon_error *err)
{
    pm_range *ranges;
    size_t n = 0;
    int rc;
    if (r->in->prefetch == NULL)
        return 0;
    if ((ranges = pm_calloc((size_t)r->schema.leaf_count + 1, sizeof(*ranges))) == NULL)
        return pm_nomem(err);
    for (int i = 0; i < r->schema.leaf_count; i++) {
        int64_t start, len;
        if (!r->leaf_used[i])
            continue;
        chunk_range(&rg->columns[i], &start, &len);
        if ((uint64_t)len > r->stream_chunk)
            continue;
        ranges[n].off = (uint64_t)start;
        ranges[n++].len = (uint64_t)len;
    }
    rc = pm_input_prefetch(r->in, ranges, n, err);
    pm_free(ranges);
    return rc;
}

PM_MUST_CHECK static int load_group(pm_pq_reader *r, paimon_error *err)
{
    const pq_row_group *rg = &r->meta.row_groups[r->rg];
    bool need_index = r->filter != NULL || r->ranges != NULL;
    int rc;

    /* chunk buffers are kept for the next group: fresh large allocations cost page faults */
    pm_arena_free(&r->index_arena);
    pm_arena_init(&r->index_arena, 16 * 1024);
    for (int i = 0; i < r->schema.leaf_count; i++) {
        r->ci[i] = NULL;
        r->oi[i] = NULL;
        if (need_index && r->leaf_used[i] &&
            (rc = pm_pq_reader_page_index(r, r->rg, i, &r->ci[i], &r->oi[i], err)) != 0)
            return rc;
    }
    r->rg_rows = rg->num_rows;
    if ((rc = select_rows(r, rg, err)) != 0)
        return rc;
    r->iv_idx = 0;
    r->pos = 0;
    if (r->iv_count == 0)
        return 0; /* nothing to read: the caller moves on */
    if ((rc = prefetch_chunks(r, rg, err)) != 0)
        return rc;
    for (int i = 0; i < r->schema.leaf_count; i++) {
        const pq_column_chunk *cc = &rg->columns[i];
        int64_t start, len;
        if (!r->leaf_used[i])
            continue;
        chunk_range(cc, &start, &len);
        if (r->cols[i].leaf == NULL)
            pm_pq_col_init(&r->cols[i], r->path, &r->schema.leaves[i], r->leaf_plan[i],
                           cc->meta.codec, r->codec);
        pm_pq_col_drop_ahead(&r->cols[i]); /* its jobs read the chunk's buffer, reused below */
        r->cols[i].pool = r->pool;
        r->cols[i].codec = cc->meta.codec;
        r->cols[i].verify_crc = r->verify_crc;
        if ((uint64_t)len > r->stream_chunk) {
            /* a large chunk: read page by page, not held whole */
            pm_free(r->chunks[i]);
            r->chunks[i] = NULL;
            r->chunk_caps[i] = 0;
            pm_pq_col_start_stream(&r->cols[i], r->in, r->stream_window, (size_t)len,
                                   (uint64_t)start, cc->meta.num_values, r->oi[i]);
            continue;
        }
        if ((size_t)len + PM_PQ_PADDING > r->chunk_caps[i]) {
            size_t cap = (size_t)len + PM_PQ_PADDING;
            pm_free(r->chunks[i]);
            r->chunk_caps[i] = 0;
            if ((r->chunks[i] = pm_malloc(cap)) == NULL)
                return pm_nomem(err);
            r->chunk_caps[i] = cap;
        }
        memset(r->chunks[i] + len, 0, PM_PQ_PADDING);
        if ((rc = r->in->read_at(r->in, (uint64_t)start, (size_t)len, r->chunks[i], err)) != 0)
            return rc;
        pm_pq_col_start(&r->cols[i], r->chunks[i], (size_t)len, (uint64_t)start,
                        cc->meta.num_values, r->oi[i]);
    }
    r->rg_loaded = true;
    return 0;
}

/* ---- batches --------------------------------------------------------------------------- */

static void bind_leaves(pm_pq_reader *r, const pq_plan *p, pm_column *c)
{
    if (p->kind == PQ_PLAN_LEAF) {
        r->leaf_cols[p->leaf] = c;
        return;
    }
    for (int i = 0; i < p->child_count; i++)
        bind_leaves(r, &p->children[i], c->children[i]);
}

/* Leaves under plan `p` that are read: bound ones and structure-only ones. */
static void collect_leaves(pm_pq_reader *r, const pq_plan *p, int *out, int *n)
{
    if (p->kind == PQ_PLAN_MISSING)
        return;
    if (p->kind == PQ_PLAN_LEAF) {
        out[(*n)++] = p->leaf;
        return;
    }
    if (p->rep_leaf >= 0 && !r->leaf_bound[p->rep_leaf]) {
        bool seen = false;
        for (int i = 0; i < *n; i++)
            seen |= out[i] == p->rep_leaf;
        if (!seen)
            out[(*n)++] = p->rep_leaf;
    }
    for (int i = 0; i < p->child_count; i++)
        collect_leaves(r, &p->children[i], out, n);
}

PM_MUST_CHECK static int skip_rows(pm_pq_reader *r, int64_t n, paimon_error *err)
{
    for (int i = 0; i < r->schema.leaf_count; i++) {
        int rc;
        if (!r->leaf_used[i])
            continue;
        if ((rc = pm_pq_col_skip_rows(&r->cols[i], n, err)) != 0)
            return rc;
    }
    return 0;
}

PM_MUST_CHECK static int read_rows(pm_pq_reader *r, pm_batch *b, int64_t rows, paimon_error *err)
{
    int *leaves = NULL, rc = 0;

    for (size_t i = 0; i < b->column_count && rc == 0; i++) {
        const pq_plan *p = &r->plans[i];
        pm_column *col = b->columns[i];
        int n = 0;
        if (p->kind == PQ_PLAN_MISSING) {
            for (int64_t k = 0; k < rows && rc == 0; k++)
                rc = pm_column_append_null(col);
            if (rc != 0)
                rc = pm_buf_error(err, rc);
            continue;
        }
        if (p->kind == PQ_PLAN_LEAF) {
            if ((rc = pm_column_reserve(col, rows)) != 0) {
                rc = pm_buf_error(err, rc);
                break;
            }
            rc = pm_pq_col_read_flat(&r->cols[p->leaf], rows, col, err);
            continue;
        }
        if (leaves == NULL &&
            (leaves = pm_malloc(((size_t)r->schema.leaf_count + 1) * sizeof(int))) == NULL) {
            rc = pm_nomem(err);
            break;
        }
        bind_leaves(r, p, col);
        collect_leaves(r, p, leaves, &n);
        for (int k = 0; k < n && rc == 0; k++) {
            int l = leaves[k];
            pm_column *dst = r->leaf_bound[l] ? r->leaf_cols[l] : NULL;
            if (dst == NULL) {
                if (r->scratch[l] == NULL &&
                    (r->scratch[l] = pm_column_new(r->stand_in_types[l])) == NULL) {
                    rc = pm_nomem(err);
                    break;
                }
                pm_column_reset(r->scratch[l]);
                dst = r->scratch[l];
            }
            r->levels[l].def.len = 0;
            r->levels[l].rep.len = 0;
            rc = pm_pq_col_read_levels(&r->cols[l], rows, &r->levels[l].def, &r->levels[l].rep, dst,
                                       err);
        }
        if (rc == 0) {
            rc = pm_pq_assemble(p, col, r->levels, &r->work, rows, err);
            if (rc != 0)
                rc = pm_err_prefix(err, rc, "%s: row group %u: ", r->path, r->rg - 1);
        }
    }
    pm_free(leaves);
    return rc;
}

int pm_pq_reader_next_into(pm_pq_reader *r, pm_batch *b, paimon_error *err)
{
    int64_t rows;
    int rc;

    if (!r->started && (rc = pm_pq_reader_start(r, NULL, err)) != 0)
        return rc;
    if (b->column_count != r->read_type->field_count)
        return pm_err_set(err, PAIMON_EINVALID, "%s: the batch has %zu columns, the read %zu",
                          r->path, b->column_count, r->read_type->field_count);
    for (;;) {
        if (r->rg_loaded && r->iv_idx < r->iv_count)
            break;
        if (r->rg_loaded) {
            r->rg_first += r->rg_rows;
            r->rg_loaded = false;
        }
        if (r->rg >= r->meta.row_group_count)
            return PAIMON_ITEROVER;
        if ((rc = load_group(r, err)) != 0)
            return rc;
        r->rg++;
        if (!r->rg_loaded) {
            r->rg_first += r->rg_rows;
            continue;
        }
    }
    {
        int64_t a = r->iv[2 * r->iv_idx], e = r->iv[2 * r->iv_idx + 1];
        if (r->pos < a) {
            if ((rc = skip_rows(r, a - r->pos, err)) != 0)
                return rc;
            r->pos = a;
        }
        rows = e - r->pos < r->batch_rows ? e - r->pos : r->batch_rows;
    }
    pm_batch_reset(b);
    if ((rc = read_rows(r, b, rows, err)) != 0)
        return rc;
    b->row_count = rows;
    r->pos += rows;
    if (r->pos >= r->iv[2 * r->iv_idx + 1])
        r->iv_idx++;
    return 0;
}

int pm_pq_reader_next(pm_pq_reader *r, pm_batch **out, paimon_error *err)
{
    pm_batch *b = NULL;
    int rc;

    *out = NULL;
    if (!r->started && (rc = pm_pq_reader_start(r, NULL, err)) != 0)
        return rc;
    if ((rc = pm_batch_new(&b, r->read_type, err)) != 0)
        return rc;
    if ((rc = pm_pq_reader_next_into(r, b, err)) != 0) {
        pm_batch_free(b);
        return rc;
    }
    *out = b;
    return 0;
}
