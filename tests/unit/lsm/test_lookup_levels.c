/* Lookup over levels (lsm/lookup_levels.h) against a reference made by reading every data
 * file whole: a primary-key table is written with the public writer API (twelve commits of
 * inserts, updates and deletes, one data file each), its files are placed in levels by hand
 * (level 3 oldest .. level 0 newest, several non-overlapping files per level above 0), and
 * every key of the range (present, absent, deleted) is looked up from each start level in
 * each mode.  Then: a tiny disk bound (evictions, results unchanged), a tiny memory bound,
 * deletion vectors, level updates, and missing or damaged data files. */
#include <dirent.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "lsm/deletion_vector.h"
#include "lsm/lookup_levels.h"
#include "lsm/merge_function.h"
#include "paimon.h"
#include "table/file_reader.h"
#include "table/scan.h"
#include "table/table.h"
#include "util/alloc.h"

#define KEYS  1700 /* keys 0..KEYS-1 are looked up; the files hold keys below 1600 */
#define FILES 12

/* What one data file holds for one key. */
typedef struct ref_rec {
    bool present;
    int64_t pos, seq;
    int8_t kind;
    char *json; /* the row's canonical JSON */
} ref_rec;

typedef struct fixture {
    char *dir, *table, *local;
    paimon_table *t;
    pm_scan_plan *plan;
    const char *bucket_dir;
    pm_data_file_meta metas[FILES]; /* copies with the levels set by hand */
    const pm_data_file_meta *ptrs[FILES];
    ref_rec *ref[FILES]; /* KEYS entries per file */
} fixture;

static fixture fx;

/* Which keys commit c writes, its level, and the kinds: see place(). */
static int level_of_commit(int c)
{
    return c < 4 ? 3 : c < 7 ? 2 : c < 10 ? 1 : 0;
}

static void key_range(int c, int *lo, int *hi)
{
    if (c < 4) { /* level 3: [0,400) [400,800) [800,1200) [1200,1600) */
        *lo = c * 400;
        *hi = *lo + 400;
    } else if (c < 7) { /* level 2: [200,600) [600,1000) [1000,1400) */
        *lo = 200 + (c - 4) * 400;
        *hi = *lo + 400;
    } else if (c < 10) { /* level 1: [100,400) [600,900) [1100,1400) */
        *lo = 100 + (c - 7) * 500;
        *hi = *lo + 300;
    } else { /* level 0: anywhere, the two files overlapping */
        *lo = 0;
        *hi = 1600;
    }
}

static paimon_value ival(int64_t i)
{
    paimon_value v;
    v.type = PAIMON_VALUE_INT;
    v.v.i = i;
    return v;
}

static void write_table(void)
{
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"id"};
    const char *keys[2] = {"bucket", "write-only"}, *vals[2] = {"1", "true"};
    paimon_error err;
    unsigned seed = 7;
    fx.dir = pm_test_tmpdir("lookup-levels");
    fx.table = pm_malloc(strlen(fx.dir) + 16);
    fx.local = pm_malloc(strlen(fx.dir) + 16);
    sprintf(fx.table, "%s/t", fx.dir);
    sprintf(fx.local, "%s/local", fx.dir);
    assert_int_equal(mkdir(fx.local, 0700), 0);
    co.columns = "id BIGINT NOT NULL, v STRING, n INT, d DECIMAL(20, 3), ts TIMESTAMP(6)";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 2;
    if (paimon_table_create(fx.table, &co, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(paimon_table_open(&fx.t, fx.table, &err), 0);
    for (int c = 0; c < FILES; c++) {
        paimon_writer *w;
        paimon_commit_messages *m;
        paimon_commit_options cm = PAIMON_COMMIT_OPTIONS_INIT;
        int lo, hi;
        key_range(c, &lo, &hi);
        assert_int_equal(paimon_writer_open(&w, fx.t, NULL, &err), 0);
        for (int k = lo; k < hi; k++) {
            paimon_value row[5];
            char text[48];
            int r = (int)(rand_r(&seed) % 100);
            int8_t kind = PAIMON_ROW_INSERT;
            if (r >= (c < 10 ? 60 : 20))
                continue; /* not in this file */
            if (c >= 4 && r < 12)
                kind = PAIMON_ROW_DELETE;
            snprintf(text, sizeof(text), "c%d-k%d-%s", c, k, r % 3 ? "long enough to spill" : "s");
            row[0] = ival(k);
            row[1].type = PAIMON_VALUE_TEXT;
            row[1].v.s.ptr = text;
            row[1].v.s.len = strlen(text);
            row[2] = r % 5 == 0 ? (paimon_value){.type = PAIMON_VALUE_NULL} : ival(r * c);
            row[3] = ival(k * 1000 + c);
            row[4].type = PAIMON_VALUE_TIMESTAMP;
            row[4].v.ts.millis = 1700000000000 + k;
            row[4].v.ts.nanos = c * 1000;
            if (paimon_writer_write_row(w, row, 5, kind, &err) != 0)
                fail_msg("%s", err.message);
        }
        assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
        if (paimon_writer_prepare_commit(w, m, &err) != 0 ||
            paimon_table_commit(fx.t, m, &cm, NULL, &err) != 0)
            fail_msg("%s", err.message);
        paimon_commit_messages_free(m);
        paimon_writer_free(w);
    }
}

/* Reads every data file whole into fx.ref; `dvs[i]` skips positions of file i. */
static void read_reference(void)
{
    pm_scan_options so;
    paimon_error err;
    const pm_split *sp;
    memset(&so, 0, sizeof(so));
    so.snapshot.by = PM_SNAPSHOT_LATEST;
    so.keep_level0 = true;
    if (pm_scan_plan_build(fx.t, &so, &fx.plan, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(fx.plan->split_count, 1);
    sp = &fx.plan->splits[0];
    assert_int_equal(sp->file_count, FILES);
    {
        char *slash = strrchr(sp->paths[0], '/');
        fx.bucket_dir = pm_strndup(sp->paths[0], (size_t)(slash - sp->paths[0]));
    }
    for (size_t i = 0; i < FILES; i++) {
        const pm_manifest_entry *e = sp->files[i];
        /* commit order = sequence order */
        int c = 0;
        for (size_t j = 0; j < FILES; j++)
            c += sp->files[j]->file.min_sequence_number < e->file.min_sequence_number;
        fx.metas[c] = e->file;
        fx.metas[c].level = level_of_commit(c);
    }
    for (int c = 0; c < FILES; c++) {
        pm_file_reader *r;
        pm_file_reader_options o;
        pm_manifest_entry e;
        pm_batch *b;
        int64_t pos = 0;
        char path[1024];
        fx.ptrs[c] = &fx.metas[c];
        fx.ref[c] = pm_calloc(KEYS, sizeof(ref_rec));
        memset(&e, 0, sizeof(e));
        e.file = fx.metas[c];
        memset(&o, 0, sizeof(o));
        o.out_type = fx.t->schema->row;
        o.system_fields = true;
        snprintf(path, sizeof(path), "%s/%s", fx.bucket_dir, fx.metas[c].file_name);
        if (pm_file_reader_open(&r, fx.t->fs, path, &e, fx.t->schema, &o, &err) != 0)
            fail_msg("%s", err.message);
        while (pm_file_reader_next(r, &b, &err) == 0) {
            for (int64_t i = 0; i < b->row_count; i++, pos++) {
                int64_t k = ((const int64_t *)(const void *)b->columns[0]->values.data)[i];
                ref_rec *rr = &fx.ref[c][k];
                pm_buf j;
                pm_batch *one;
                int64_t idx = i;
                assert_true(k >= 0 && k < KEYS && !rr->present);
                rr->present = true;
                rr->pos = pos;
                rr->seq = ((const int64_t *)(const void *)b->columns[5]->values.data)[i];
                rr->kind = ((const int8_t *)b->columns[6]->values.data)[i];
                /* the JSON of the value columns only */
                assert_int_equal(pm_batch_new(&one, fx.t->schema->row, &err), 0);
                for (size_t col = 0; col < 5; col++)
                    assert_int_equal(pm_column_take(one->columns[col], b->columns[col], &idx, 1),
                                     0);
                assert_int_equal(pm_batch_set_rows(one, 1, &err), 0);
                pm_buf_init(&j, 0);
                assert_int_equal(pm_batch_row_json(&j, one, 0, &err), 0);
                rr->json = pm_strdup(pm_buf_cstr(&j));
                pm_buf_free(&j);
                pm_batch_free(one);
            }
            pm_batch_free(b);
        }
        pm_file_reader_free(r);
    }
}

static int setup(void **state)
{
    (void)state;
    write_table();
    read_reference();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int c = 0; c < FILES; c++) {
        for (int k = 0; k < KEYS; k++)
            pm_free(fx.ref[c][k].json);
        pm_free(fx.ref[c]);
    }
    pm_scan_plan_free(fx.plan);
    paimon_table_free(fx.t);
    pm_free((char *)fx.bucket_dir);
    pm_test_rmtree(fx.dir);
    pm_free(fx.dir);
    pm_free(fx.table);
    pm_free(fx.local);
    return 0;
}

/* ---- the reference lookup ------------------------------------------------------------------ */

typedef struct dv_set {
    pm_dv *dv[FILES];
} dv_set;

static const pm_dv *dv_of(void *ctx, const char *name)
{
    dv_set *s = ctx;
    for (int c = 0; c < FILES; c++)
        if (strcmp(fx.metas[c].file_name, name) == 0)
            return s->dv[c];
    return NULL;
}

/* The commit whose file answers key k from `start`, or -1.  `gone[c]` removes file c. */
static int expected(int k, int start, const dv_set *dvs, const bool *gone)
{
    for (int lvl = start; lvl <= 3; lvl++) {
        int best = -1;
        for (int c = FILES - 1; c >= 0; c--) { /* level 0: newest first */
            const ref_rec *r = &fx.ref[c][k];
            if (level_of_commit(c) != lvl || (gone != NULL && gone[c]) || !r->present)
                continue;
            if (dvs != NULL && dvs->dv[c] != NULL && pm_dv_contains(dvs->dv[c], (uint64_t)r->pos))
                continue;
            best = c;
            break;
        }
        if (best >= 0)
            return best;
    }
    return -1;
}

static pm_lookup_config config(pm_lookup_mode mode)
{
    pm_lookup_config c;
    paimon_error err;
    memset(&c, 0, sizeof(c));
    c.fs = fx.t->fs;
    c.bucket_dir = fx.bucket_dir;
    c.schema = fx.t->schema;
    c.open_file = pm_file_reader_open_source;
    c.local_dir = fx.local;
    c.local_prefix = "0-";
    c.mode = mode;
    c.num_levels = 4;
    assert_int_equal(pm_lookup_options_read(&c.options, &fx.t->schema->options, &err), 0);
    return c;
}

static size_t local_files(void)
{
    DIR *d = opendir(fx.local);
    struct dirent *e;
    size_t n = 0;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Looks every key up from every start level and compares with the reference. */
static void check_all(pm_lookup_levels *l, pm_lookup_mode mode, const dv_set *dvs, const bool *gone,
                      int rounds)
{
    paimon_error err;
    unsigned seed = 11;
    for (int round = 0; round < rounds; round++) {
        for (int start = 0; start <= 3; start++) {
            for (int i = 0; i < KEYS; i++) {
                int k = round == 0 ? i : (int)(rand_r(&seed) % KEYS);
                pm_datum key = pm_datum_int(k);
                pm_lookup_result res;
                int c = expected(k, start, dvs, gone);
                if (pm_lookup_levels_get(l, &key, start, &res, &err) != 0)
                    fail_msg("key %d: %s", k, err.message);
                if (c < 0) {
                    if (res.found)
                        fail_msg("key %d from level %d: found in %s, expected nothing", k, start,
                                 res.file_name);
                    continue;
                }
                if (!res.found)
                    fail_msg("key %d from level %d: not found, expected in commit %d", k, start, c);
                assert_int_equal(res.level, level_of_commit(c));
                assert_string_equal(res.file_name, fx.metas[c].file_name);
                if (mode == PM_LOOKUP_POSITION || mode == PM_LOOKUP_VALUE_POSITION)
                    assert_int_equal(res.position, fx.ref[c][k].pos);
                else
                    assert_int_equal(res.position, -1);
                if (mode == PM_LOOKUP_VALUE || mode == PM_LOOKUP_VALUE_POSITION) {
                    pm_buf j;
                    assert_int_equal(res.sequence_number, fx.ref[c][k].seq);
                    assert_int_equal(res.value_kind, fx.ref[c][k].kind);
                    assert_non_null(res.row);
                    pm_buf_init(&j, 0);
                    assert_int_equal(pm_batch_row_json(&j, res.row, 0, &err), 0);
                    assert_string_equal(pm_buf_cstr(&j), fx.ref[c][k].json);
                    pm_buf_free(&j);
                } else {
                    assert_null(res.row);
                    assert_int_equal(res.value_kind, -1);
                }
            }
        }
    }
}

/* ---- tests --------------------------------------------------------------------------------- */

static void test_reference_is_interesting(void **state)
{
    int deleted = 0, l0_over_l1 = 0, absent = 0;
    (void)state;
    for (int k = 0; k < KEYS; k++) {
        int c = expected(k, 0, NULL, NULL);
        if (c < 0)
            absent++;
        else if (fx.ref[c][k].kind == PM_KIND_DELETE)
            deleted++;
        if (c >= 10 && expected(k, 1, NULL, NULL) >= 0)
            l0_over_l1++;
    }
    /* the data covers deletes found as such, shadowed keys and absent keys */
    assert_true(deleted > 20);
    assert_true(l0_over_l1 > 50);
    assert_true(absent > 100);
}

static void test_every_mode(void **state)
{
    pm_lookup_mode modes[4] = {PM_LOOKUP_VALUE, PM_LOOKUP_VALUE_POSITION, PM_LOOKUP_POSITION,
                               PM_LOOKUP_EXISTS};
    (void)state;
    for (int m = 0; m < 4; m++) {
        pm_lookup_config c = config(modes[m]);
        pm_lookup_levels *l;
        pm_lookup_stats st;
        paimon_error err;
        if (pm_lookup_levels_new(&l, &c, fx.ptrs, FILES, &err) != 0)
            fail_msg("%s", err.message);
        check_all(l, modes[m], NULL, NULL, 2);
        pm_lookup_levels_stats(l, &st);
        assert_int_equal(st.builds, FILES); /* each file built once, never evicted */
        assert_int_equal(st.evictions, 0);
        assert_int_equal(st.local_files, FILES);
        assert_true(st.bloom_skips > 0);
        assert_int_equal(local_files(), FILES);
        pm_lookup_levels_free(l);
        assert_int_equal(local_files(), 0); /* close removes the local files */
    }
}

static void test_key_forms(void **state)
{
    pm_lookup_config c = config(PM_LOOKUP_VALUE_POSITION);
    pm_lookup_levels *l;
    paimon_error err;
    pm_lookup_result a, b;
    (void)state;
    assert_int_equal(pm_lookup_levels_new(&l, &c, fx.ptrs, FILES, &err), 0);
    /* a file's max key as BinaryRow bytes (without the arity prefix) finds the key */
    for (int f = 0; f < FILES; f++) {
        const pm_avro_bytes *mk = &fx.metas[f].max_key;
        pm_datum key;
        int64_t k;
        assert_int_equal(pm_lookup_levels_get_binrow(l, mk->ptr + 4, mk->len - 4, 0, &a, &err), 0);
        memcpy(&k, mk->ptr + 4 + 8, 8);
        key = pm_datum_int(k);
        assert_int_equal(pm_lookup_levels_get(l, &key, 0, &b, &err), 0);
        assert_true(a.found && b.found);
        assert_string_equal(a.file_name, b.file_name);
        assert_int_equal(a.position, b.position);
    }
    /* from a batch row */
    {
        pm_batch *bt;
        int cols[1] = {0};
        int64_t k = expected(5, 0, NULL, NULL) >= 0 ? 5 : 6;
        assert_int_equal(pm_batch_new(&bt, fx.t->schema->row, &err), 0);
        for (size_t i = 0; i < bt->column_count; i++) {
            pm_datum d = i == 0 ? pm_datum_int(k) : pm_datum_null();
            assert_int_equal(pm_column_append_datum(bt->columns[i], &d), 0);
        }
        assert_int_equal(pm_batch_set_rows(bt, 1, &err), 0);
        assert_int_equal(pm_lookup_levels_get_row(l, bt, 0, cols, 0, &a, &err), 0);
        assert_true(a.found);
        assert_string_equal(a.file_name, fx.metas[expected((int)k, 0, NULL, NULL)].file_name);
        pm_batch_free(bt);
    }
    /* bytes that are not a key row */
    assert_int_equal(pm_lookup_levels_get_binrow(l, (const uint8_t *)"xy", 2, 0, &a, &err),
                     PAIMON_EINVALID);
    pm_lookup_levels_free(l);
}

static void test_tiny_bounds(void **state)
{
    pm_lookup_config c = config(PM_LOOKUP_VALUE_POSITION);
    pm_lookup_levels *l;
    pm_lookup_stats st;
    paimon_error err;
    pm_options o;
    (void)state;
    pm_options_init(&o);
    pm_options_set(&o, "lookup.cache-max-disk-size", "300 kb");
    pm_options_set(&o, "lookup.cache-max-memory-size", "3 kb");
    pm_options_set(&o, "cache-page-size", "1 kb");
    pm_options_set(&o, "lookup.cache.bloom.filter.enabled", "false");
    assert_int_equal(pm_lookup_options_read(&c.options, &o, &err), 0);
    pm_options_free(&o);
    assert_int_equal(c.options.max_disk_size, 300 << 10);
    assert_false(c.options.bloom_filter);
    assert_int_equal(pm_lookup_levels_new(&l, &c, fx.ptrs, FILES, &err), 0);
    check_all(l, PM_LOOKUP_VALUE_POSITION, NULL, NULL, 1);
    pm_lookup_levels_stats(l, &st);
    /* local files (about 42 KB each) were dropped and rebuilt, the answers unchanged */
    assert_true(st.evictions > FILES);
    assert_true(st.local_files < FILES);
    assert_int_equal(st.builds - st.evictions, st.local_files);
    assert_true(st.local_files >= 1 && (st.local_bytes >> 10) <= 300 + st.local_files);
    assert_int_equal((int64_t)local_files(), st.local_files);
    assert_true(st.page_evictions > 0);
    assert_int_equal(st.bloom_skips, 0);
    pm_lookup_levels_free(l);
    assert_int_equal(local_files(), 0);
}

/* Two buckets' levels under one pm_lookup_shared: the disk bound holds for both together, as
 * Java's lookup file cache per table write does; lookups in one evict the other's files. */
static void test_shared_bounds(void **state)
{
    pm_lookup_config ca = config(PM_LOOKUP_VALUE), cb = config(PM_LOOKUP_VALUE);
    pm_lookup_levels *a, *b;
    pm_lookup_shared *sh;
    pm_lookup_stats sa, sb;
    paimon_error err;
    pm_options o;
    (void)state;
    pm_options_init(&o);
    pm_options_set(&o, "lookup.cache-max-disk-size", "300 kb");
    assert_int_equal(pm_lookup_options_read(&ca.options, &o, &err), 0);
    pm_options_free(&o);
    assert_int_equal(pm_lookup_shared_new(&sh, &ca.options, &err), 0);
    ca.shared = cb.shared = sh;
    cb.local_prefix = "1-"; /* another bucket's names */
    assert_int_equal(pm_lookup_levels_new(&a, &ca, fx.ptrs, FILES, &err), 0);
    assert_int_equal(pm_lookup_levels_new(&b, &cb, fx.ptrs, FILES, &err), 0);
    check_all(a, PM_LOOKUP_VALUE, NULL, NULL, 1);
    pm_lookup_levels_stats(a, &sa);
    assert_true(sa.local_files > 1);
    check_all(b, PM_LOOKUP_VALUE, NULL, NULL, 1);
    pm_lookup_levels_stats(a, &sa);
    pm_lookup_levels_stats(b, &sb);
    assert_int_equal(sa.local_files, 0); /* b's lookups pushed a's files out */
    assert_true(sb.local_files > 1);
    assert_int_equal((int64_t)local_files(), sa.local_files + sb.local_files);
    assert_true(((sa.local_bytes + sb.local_bytes) >> 10) <= 300 + sb.local_files);
    pm_lookup_levels_free(b);
    assert_int_equal(local_files(), 0);
    check_all(a, PM_LOOKUP_VALUE, NULL, NULL, 1); /* rebuilt on demand */
    pm_lookup_levels_free(a);
    pm_lookup_shared_free(sh);
    assert_int_equal(local_files(), 0);
}

/* lookup.cache-file-retention: a local file unused for longer is dropped at the next lookup. */
static void test_retention(void **state)
{
    pm_lookup_config c = config(PM_LOOKUP_EXISTS);
    pm_lookup_levels *l;
    pm_lookup_stats st;
    pm_lookup_result res;
    paimon_error err;
    int k0 = 0, k3 = 1200;
    pm_datum key;
    pm_options o;
    (void)state;
    while (!fx.ref[0][k0].present) /* commit 0: level 3, keys [0, 400) */
        k0++;
    while (!fx.ref[3][k3].present) /* commit 3: level 3, keys [1200, 1600) */
        k3++;
    key = pm_datum_int(k0);
    pm_options_init(&o);
    pm_options_set(&o, "lookup.cache-file-retention", "50 ms");
    assert_int_equal(pm_lookup_options_read(&c.options, &o, &err), 0);
    pm_options_free(&o);
    assert_int_equal(pm_lookup_levels_new(&l, &c, fx.ptrs, FILES, &err), 0);
    assert_int_equal(pm_lookup_levels_get(l, &key, 3, &res, &err), 0); /* level 3 only */
    assert_true(res.found);
    assert_int_equal(pm_lookup_levels_get(l, &key, 3, &res, &err), 0);
    pm_lookup_levels_stats(l, &st);
    assert_int_equal(st.builds, 1);
    assert_int_equal(st.evictions, 0);
    usleep(120 * 1000);
    key = pm_datum_int(k3); /* another level-3 file; the first one expired meanwhile */
    assert_int_equal(pm_lookup_levels_get(l, &key, 3, &res, &err), 0);
    pm_lookup_levels_stats(l, &st);
    assert_int_equal(st.builds, 2);
    assert_int_equal(st.evictions, 1);
    assert_int_equal(st.local_files, 1);
    assert_int_equal(local_files(), 1);
    pm_lookup_levels_free(l);
}

static void test_deletion_vectors(void **state)
{
    pm_lookup_config c = config(PM_LOOKUP_VALUE_POSITION);
    pm_lookup_levels *l;
    paimon_error err;
    dv_set dvs;
    (void)state;
    memset(&dvs, 0, sizeof(dvs));
    /* every third row of a level-1 file and of a level-2 file is deleted */
    for (int c2 = 7; c2 <= 8; c2 += 1) {
        int f = c2 == 7 ? 7 : 5;
        dvs.dv[f] = pm_dv_new();
        for (int64_t p = 0; p < fx.metas[f].row_count; p += 3)
            assert_int_equal(pm_dv_add(dvs.dv[f], (uint64_t)p), 0);
    }
    c.dv_of = dv_of;
    c.dv_ctx = &dvs;
    assert_int_equal(pm_lookup_levels_new(&l, &c, fx.ptrs, FILES, &err), 0);
    check_all(l, PM_LOOKUP_VALUE_POSITION, &dvs, NULL, 1);
    pm_lookup_levels_free(l);
    for (int f = 0; f < FILES; f++)
        pm_dv_free(dvs.dv[f]);
}

static void test_update_levels(void **state)
{
    pm_lookup_config c = config(PM_LOOKUP_VALUE);
    pm_lookup_levels *l;
    paimon_error err;
    bool gone[FILES] = {false};
    const pm_data_file_meta *rm[2] = {&fx.metas[8], &fx.metas[11]};
    pm_data_file_meta moved = fx.metas[10];
    const pm_data_file_meta *mv_old[1] = {&fx.metas[10]}, *mv_new[1] = {&moved};
    (void)state;
    assert_int_equal(pm_lookup_levels_new(&l, &c, fx.ptrs, FILES, &err), 0);
    check_all(l, PM_LOOKUP_VALUE, NULL, NULL, 1);
    assert_int_equal(local_files(), FILES);
    /* a level-1 file and a level-0 file leave: their local files go, lookups fall through */
    assert_int_equal(pm_lookup_levels_update(l, rm, 2, NULL, 0, &err), 0);
    gone[8] = gone[11] = true;
    assert_int_equal(local_files(), FILES - 2);
    check_all(l, PM_LOOKUP_VALUE, NULL, gone, 1);
    /* removing an absent file changes nothing */
    assert_int_equal(pm_lookup_levels_update(l, rm, 1, NULL, 0, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, fx.metas[8].file_name));
    /* files come back (the level-0 one upgraded to level 0 again, as its meta says) */
    assert_int_equal(pm_lookup_levels_update(l, mv_old, 1, mv_new, 1, &err), 0);
    assert_int_equal(pm_lookup_levels_update(l, NULL, 0, rm, 2, &err), 0);
    check_all(l, PM_LOOKUP_VALUE, NULL, NULL, 1);
    pm_lookup_levels_free(l);
}

static void copy_file(const char *from, const char *to)
{
    size_t len;
    uint8_t *data = pm_test_read_file(from, &len);
    pm_test_write_file(to, data, len);
    pm_free(data);
}

static void test_missing_and_damaged_files(void **state)
{
    pm_lookup_config c = config(PM_LOOKUP_VALUE);
    pm_lookup_levels *l;
    paimon_error err;
    pm_lookup_result res;
    char path[1024], saved[1100];
    int victim = 7; /* level 1, keys [100, 400); looked up from level 1 on */
    pm_datum key;
    int k = 100;
    (void)state;
    while (!fx.ref[victim][k].present)
        k++;
    key = pm_datum_int(k);
    snprintf(path, sizeof(path), "%s/%s", fx.bucket_dir, fx.metas[victim].file_name);
    snprintf(saved, sizeof(saved), "%s/saved", fx.dir);
    copy_file(path, saved);
    assert_int_equal(pm_lookup_levels_new(&l, &c, fx.ptrs, FILES, &err), 0);

    assert_int_equal(unlink(path), 0);
    assert_int_not_equal(pm_lookup_levels_get(l, &key, 1, &res, &err), 0);
    assert_non_null(strstr(err.message, fx.metas[victim].file_name));
    assert_int_equal(local_files(), 0); /* nothing half-built stays */

    /* damaged: the middle of the file overwritten */
    {
        size_t len;
        uint8_t *data = pm_test_read_file(saved, &len);
        memset(data + len / 4, 0xA5, len / 2);
        pm_test_write_file(path, data, len);
        pm_free(data);
    }
    assert_int_not_equal(pm_lookup_levels_get(l, &key, 1, &res, &err), 0);
    assert_non_null(strstr(err.message, fx.metas[victim].file_name));
    /* truncated */
    {
        size_t len;
        uint8_t *data = pm_test_read_file(saved, &len);
        pm_test_write_file(path, data, len / 2);
        pm_free(data);
    }
    assert_int_not_equal(pm_lookup_levels_get(l, &key, 1, &res, &err), 0);
    assert_non_null(strstr(err.message, fx.metas[victim].file_name));
    assert_int_equal(local_files(), 0);

    /* restored: the lookup works again */
    copy_file(saved, path);
    assert_int_equal(pm_lookup_levels_get(l, &key, 1, &res, &err), 0);
    assert_true(res.found);
    assert_string_equal(res.file_name, fx.metas[victim].file_name);
    pm_lookup_levels_free(l);
}

static void test_options(void **state)
{
    pm_lookup_options o;
    pm_options opts;
    paimon_error err;
    (void)state;
    pm_options_init(&opts);
    assert_int_equal(pm_lookup_options_read(&o, &opts, &err), 0);
    assert_true(o.max_disk_size == INT64_MAX);
    assert_true(o.max_memory_size == 256ll << 20);
    assert_int_equal(o.page_size, 64 << 10);
    assert_int_equal(o.file_retention_ms, 3600000);
    assert_true(o.bloom_filter);
    assert_true(o.bloom_fpp == 0.05);
    assert_true(o.hash_load_factor == 0.75);
    pm_options_set(&opts, "lookup.cache-file-retention", "90 min");
    assert_int_equal(pm_lookup_options_read(&o, &opts, &err), 0);
    assert_int_equal(o.file_retention_ms, 90 * 60000);
    pm_options_set(&opts, "lookup.cache-file-retention", "soon");
    assert_int_equal(pm_lookup_options_read(&o, &opts, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "lookup.cache-file-retention"));
    pm_options_remove(&opts, "lookup.cache-file-retention");
    pm_options_set(&opts, "lookup.hash-load-factor", "1.5");
    assert_int_equal(pm_lookup_options_read(&o, &opts, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "lookup.hash-load-factor"));
    pm_options_remove(&opts, "lookup.hash-load-factor");
    pm_options_set(&opts, "lookup.cache-max-disk-size", "lots");
    assert_int_equal(pm_lookup_options_read(&o, &opts, &err), PAIMON_EINVALID);
    pm_options_free(&opts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),       cmocka_unit_test(test_reference_is_interesting),
        cmocka_unit_test(test_every_mode),    cmocka_unit_test(test_key_forms),
        cmocka_unit_test(test_tiny_bounds),   cmocka_unit_test(test_shared_bounds),
        cmocka_unit_test(test_retention),     cmocka_unit_test(test_deletion_vectors),
        cmocka_unit_test(test_update_levels), cmocka_unit_test(test_missing_and_damaged_files),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
