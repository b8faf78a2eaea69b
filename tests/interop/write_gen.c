/* Writes random rows into an existing table through the table writer and the commit layer,
 * and prints the rows the last snapshot must hold (canonical JSON lines):
 *
 *   interop_write_gen TABLE [--seed S] [--rows N] [--batch B] [--commit-every M]
 *                     [--keys K] [--parts P] [--deletes] [--overwrite-last]
 *                     [--user U] [--id-base I] [--part-value V] [--quiet]
 *
 * Values of every column type are drawn at random, a tenth of them null where the column
 * allows it.  Primary-key tables: the key columns (and partition columns) take K (P)
 * distinct values, rows are +I, +U, and with --deletes also -U and -D; the expected rows
 * follow a deduplicate model (the last record of a key wins; -U/-D delete it).  Append
 * tables keep every row.  A commit follows every M rows (and the last row); with
 * --overwrite-last the last commit is an overwrite of the partitions it writes (dynamic
 * partition overwrite), and the model forgets those partitions first.  --quiet prints
 * nothing.  --id-base offsets keys (and append ids); --part-value fixes the partition value
 * (concurrent writers each write their own).  Exit 0 on success. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/batch.h"
#include "io/fs.h"
#include "lsm/merge_function.h"
#include "meta/schema.h"
#include "table/commit.h"
#include "table/write/table_write.h"
#include "util/alloc.h"
#include "util/bytes_map.h"

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int64_t rnd_range(int64_t lo, int64_t hi) /* [lo, hi] */
{
    return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static void die(const char *what, const paimon_error *err)
{
    fprintf(stderr, "write_gen: %s: %s\n", what, err != NULL ? err->message : "");
    exit(1);
}

static const char *const PIECES[] = {"a", "b", "z", "A", "0", "9", " ", "é", "中", "😀", "-", "~"};

static int append_value(pm_column *c, const pm_type *t, int depth);

static void rnd_text(char *buf, size_t cap, int max_chars)
{
    int n = (int)rnd_range(0, max_chars);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *p = PIECES[rnd() % (sizeof(PIECES) / sizeof(PIECES[0]))];
        size_t l = strlen(p);
        if (len + l + 1 >= cap)
            break;
        memcpy(buf + len, p, l);
        len += l;
    }
    buf[len] = '\0';
}

static int append_scalar(pm_column *c, const pm_type *t)
{
    pm_datum d;
    char text[256];
    memset(&d, 0, sizeof(d));
    switch (t->id) {
    case PM_TYPE_BOOLEAN: d.v.b = rnd() & 1; break;
    case PM_TYPE_TINYINT: d.v.i = rnd_range(-128, 127); break;
    case PM_TYPE_SMALLINT: d.v.i = rnd_range(-32768, 32767); break;
    case PM_TYPE_INT: d.v.i = (int32_t)rnd(); break;
    case PM_TYPE_BIGINT:
        d.v.i = rnd() % 7 == 0 ? (int64_t)rnd() : rnd_range(-1000000, 1000000);
        break;
    case PM_TYPE_FLOAT:
        d.v.f = rnd() % 50 == 0 ? (float)NAN : (float)rnd_range(-100000, 100000) / 1000.0f;
        break;
    case PM_TYPE_DOUBLE:
        d.v.d = rnd() % 50 == 0 ? (double)NAN : (double)rnd_range(-100000000, 100000000) / 1024.0;
        break;
    case PM_TYPE_DECIMAL: {
        pm_int128 lim = 1;
        for (int i = 0; i < t->precision && i < 38; i++)
            lim *= 10;
        d.v.dec = (pm_int128)(((unsigned __int128)rnd() << 64 | rnd()) % (unsigned __int128)lim);
        if (rnd() & 1)
            d.v.dec = -d.v.dec;
        break;
    }
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: {
        int max = t->length < 40 ? t->length : 40;
        rnd_text(text, sizeof(text), max);
        /* keep within the declared length in characters */
        d = pm_datum_bytes(text, strlen(text));
        return pm_column_append_datum(c, &d);
    }
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: {
        int n = (int)rnd_range(0, t->length < 24 ? t->length : 24);
        for (int i = 0; i < n; i++)
            text[i] = (char)rnd();
        d = pm_datum_bytes(text, (size_t)n);
        return pm_column_append_datum(c, &d);
    }
    case PM_TYPE_DATE: d.v.i = rnd_range(-30000, 60000); break;
    case PM_TYPE_TIME: d.v.i = rnd_range(0, 86399999); break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        int p = t->precision;
        int64_t ms = rnd_range(-2208988800000ll, 4102444800000ll);
        int32_t ns = 0;
        if (p < 3) {
            int64_t g = p == 0 ? 1000 : p == 1 ? 100 : 10;
            ms -= ((ms % g) + g) % g;
        } else if (p > 3) {
            int32_t g = 1;
            for (int i = p; i < 9; i++)
                g *= 10;
            ns = (int32_t)rnd_range(0, 999999);
            ns -= ns % g;
        }
        d.v.ts.millis = ms;
        d.v.ts.nanos = ns;
        break;
    }
    default: return PAIMON_EINVALID;
    }
    return pm_column_append_datum(c, &d);
}

static int append_value(pm_column *c, const pm_type *t, int depth)
{
    int rc = 0;
    if (t->nullable && rnd() % 10 == 0)
        return pm_column_append_null(c);
    switch (t->id) {
    case PM_TYPE_ARRAY: {
        int n = (int)rnd_range(0, 3);
        for (int i = 0; i < n && rc == 0; i++)
            rc = append_value(c->children[0], t->element, depth + 1);
        return rc != 0 ? rc : pm_column_list_end(c, true);
    }
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        /* distinct keys: integers as such, other types one entry at most */
        int n = (int)rnd_range(0, 3);
        const pm_type *kt = t->element;
        const pm_type *vt = t->id == PM_TYPE_MAP ? t->value : &pm_multiset_count_type;
        if (kt->id != PM_TYPE_INT && kt->id != PM_TYPE_BIGINT && n > 1)
            n = 1;
        for (int i = 0; i < n && rc == 0; i++) {
            if (kt->id == PM_TYPE_INT || kt->id == PM_TYPE_BIGINT) {
                pm_datum k = pm_datum_int(i * 7 + (int64_t)rnd_range(0, 6));
                rc = pm_column_append_datum(c->children[0], &k);
            } else {
                pm_type nn = *kt;
                nn.nullable = false;
                rc = append_scalar(c->children[0], &nn);
            }
            if (rc == 0) {
                if (t->id == PM_TYPE_MULTISET) {
                    pm_datum cnt = pm_datum_int(rnd_range(1, 5));
                    rc = pm_column_append_datum(c->children[1], &cnt);
                } else {
                    rc = append_value(c->children[1], vt, depth + 1);
                }
            }
        }
        return rc != 0 ? rc : pm_column_list_end(c, true);
    }
    case PM_TYPE_ROW:
        for (size_t i = 0; i < t->field_count && rc == 0; i++)
            rc = append_value(c->children[i], t->fields[i].type, depth + 1);
        return rc != 0 ? rc : pm_column_struct_end(c, true);
    default: return append_scalar(c, t);
    }
}

/* A key-like value from a small domain: integers i, strings "k<i>", etc. */
static int append_small(pm_column *c, const pm_type *t, int64_t i)
{
    pm_datum d = pm_datum_int(i);
    char text[32];
    switch (t->id) {
    case PM_TYPE_BOOLEAN: d.v.b = i & 1; break;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
        snprintf(text, sizeof(text), "k%lld", (long long)i);
        d = pm_datum_bytes(text, strlen(text));
        break;
    case PM_TYPE_DECIMAL: d.v.dec = i; break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        d.v.ts.millis = i * 1000;
        d.v.ts.nanos = 0;
        break;
    case PM_TYPE_FLOAT: d.v.f = (float)i; break;
    case PM_TYPE_DOUBLE: d.v.d = (double)i; break;
    default: break;
    }
    return pm_column_append_datum(c, &d);
}

typedef struct row_ref {
    pm_batch *batch;
    int64_t row;
    size_t batch_no; /* index of the batch in `batches` */
} row_ref;

int main(int argc, char **argv)
{
    const char *table = NULL, *user = "write-gen";
    long long seed = 1, rows = 1000, batch_rows = 500, commit_every = 0, keys = 100, parts = 3;
    long long id_base = 0, part_value = -1;
    bool deletes = false, overwrite_last = false, quiet = false;
    paimon_error err;
    pm_fs *fs;
    pm_schema *s = NULL;
    pm_table_write *tw = NULL;
    pm_table_write_opts wo = {false, NULL, false};
    pm_bytes_map model, keyidx;
    row_ref *refs = NULL;
    size_t ref_count = 0, ref_cap = 0;
    pm_batch **batches = NULL;
    size_t batch_count = 0;
    int8_t *kinds;
    bool pk;
    long long written = 0, since_commit = 0;
    size_t cycle_start = 0;
    int64_t commit_id = 0;
    pm_buf key;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = atoll(argv[++i]);
        else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc)
            rows = atoll(argv[++i]);
        else if (strcmp(argv[i], "--batch") == 0 && i + 1 < argc)
            batch_rows = atoll(argv[++i]);
        else if (strcmp(argv[i], "--commit-every") == 0 && i + 1 < argc)
            commit_every = atoll(argv[++i]);
        else if (strcmp(argv[i], "--keys") == 0 && i + 1 < argc)
            keys = atoll(argv[++i]);
        else if (strcmp(argv[i], "--parts") == 0 && i + 1 < argc)
            parts = atoll(argv[++i]);
        else if (strcmp(argv[i], "--user") == 0 && i + 1 < argc)
            user = argv[++i];
        else if (strcmp(argv[i], "--part-value") == 0 && i + 1 < argc)
            part_value = atoll(argv[++i]);
        else if (strcmp(argv[i], "--id-base") == 0 && i + 1 < argc)
            id_base = atoll(argv[++i]);
        else if (strcmp(argv[i], "--deletes") == 0)
            deletes = true;
        else if (strcmp(argv[i], "--overwrite-last") == 0)
            overwrite_last = true;
        else if (strcmp(argv[i], "--quiet") == 0)
            quiet = true;
        else if (table == NULL)
            table = argv[i];
        else {
            fprintf(stderr, "write_gen: bad argument %s\n", argv[i]);
            return 2;
        }
    }
    if (table == NULL)
        return 2;
    if (commit_every <= 0)
        commit_every = rows;
    rng_state ^= (uint64_t)seed * 0x9E3779B97F4A7C15ull;
    fs = pm_fs_local_new(true);
    if (pm_schema_read_latest(fs, table, &s, &err))
        die("schema", &err);
    pk = s->primary_keys.count > 0;
    pm_bytes_map_init(&model);
    pm_bytes_map_init(&keyidx);
    pm_buf_init(&key, 0);
    kinds = pm_malloc((size_t)batch_rows + 1);
    wo.commit_user = user;

    while (written < rows) {
        long long n = rows - written < batch_rows ? rows - written : batch_rows;
        pm_batch *b;
        if (tw == NULL) {
            wo.overwrite = overwrite_last && written > 0 && rows - written <= commit_every;
            if (wo.overwrite)
                cycle_start = batch_count;
            if (pm_table_write_new(&tw, fs, table, &wo, &err))
                die("open write", &err);
        }
        if (pm_batch_new(&b, s->row, &err))
            die("batch", &err);
        for (long long r = 0; r < n; r++) {
            int64_t k = rnd_range(0, keys - 1) + id_base, pv = rnd_range(0, parts - 1);
            if (part_value >= 0)
                pv = part_value;
            for (size_t c = 0; c < s->row->field_count; c++) {
                const pm_field *f = &s->row->fields[c];
                bool is_key = pm_strlist_find(&s->primary_keys, f->name) >= 0;
                bool is_part = pm_strlist_find(&s->partition_keys, f->name) >= 0;
                int rc;
                if (is_part)
                    rc = append_small(b->columns[c], f->type, pv);
                else if (is_key)
                    rc = append_small(b->columns[c], f->type, k);
                else if (!pk && c == 0 && f->type->id == PM_TYPE_BIGINT)
                    rc = append_small(b->columns[c], f->type, id_base + written + r);
                else
                    rc = append_value(b->columns[c], f->type, 0);
                if (rc != 0) {
                    fprintf(stderr, "write_gen: cannot generate %s (%d)\n", f->name, rc);
                    return 1;
                }
            }
            kinds[r] = PM_KIND_INSERT;
            if (pk) {
                uint64_t x = rnd() % 10;
                kinds[r] = x < 6               ? PM_KIND_INSERT
                           : x < 8 || !deletes ? PM_KIND_UPDATE_AFTER
                           : x < 9             ? PM_KIND_UPDATE_BEFORE
                                               : PM_KIND_DELETE;
            }
        }
        if (pm_batch_set_rows(b, n, &err))
            die("batch rows", &err);
        if (pm_table_write_batch(tw, b, kinds, &err))
            die("write", &err);
        /* the model */
        for (long long r = 0; r < n; r++) {
            int64_t id;
            bool ins;
            if (ref_count == ref_cap) {
                ref_cap = ref_cap == 0 ? 1024 : ref_cap * 2;
                refs = pm_realloc(refs, ref_cap * sizeof(*refs));
            }
            if (!pk) {
                refs[ref_count++] = (row_ref){b, r, batch_count};
                continue;
            }
            key.len = 0;
            for (size_t c = 0; c < s->row->field_count; c++)
                if (pm_strlist_find(&s->primary_keys, s->row->fields[c].name) >= 0)
                    if (pm_column_json(&key, b->columns[c], r, NULL) != 0)
                        die("row as JSON", NULL);
            if (pm_bytes_map_put(&model, key.data, key.len, (int64_t)ref_count, &id, &ins) != 0)
                die("out of memory", NULL);
            if (ins)
                refs[ref_count++] = (row_ref){NULL, 0, 0};
            refs[model.values[id]] = pm_kind_is_add(kinds[r]) ? (row_ref){b, r, batch_count}
                                                              : (row_ref){NULL, 0, batch_count};
        }
        batches = pm_realloc(batches, (batch_count + 1) * sizeof(*batches));
        batches[batch_count++] = b;
        written += n;
        since_commit += n;
        if (since_commit >= commit_every || written >= rows) {
            pm_commit_messages m;
            pm_commit_opts co;
            int64_t sid;
            pm_commit_messages_init(&m);
            if (pm_table_write_prepare(tw, &m, &err))
                die("prepare", &err);
            memset(&co, 0, sizeof(co));
            co.commit_user = user;
            co.identifier = commit_id++;
            co.kind = PM_COMMIT_APPEND;
            co.overwrite = wo.overwrite;
            if (pm_commit(fs, table, &m, &co, &sid, &err))
                die("commit", &err);
            if (wo.overwrite) {
                /* dynamic partition overwrite: partitions written by this commit lose every
                 * row committed before it */
                pm_buf pk2;
                bool ins;
                pm_buf_init(&pk2, 0);
                for (size_t bi = cycle_start; bi < batch_count; bi++)
                    for (int64_t r = 0; r < batches[bi]->row_count; r++) {
                        pk2.len = 0;
                        for (size_t c = 0; c < s->row->field_count; c++)
                            if (pm_strlist_find(&s->partition_keys, s->row->fields[c].name) >= 0)
                                if (pm_column_json(&pk2, batches[bi]->columns[c], r, NULL) != 0)
                                    die("row as JSON", NULL);
                        int64_t pid;
                        if (pm_bytes_map_put(&keyidx, pk2.data, pk2.len, 1, &pid, &ins) != 0)
                            die("out of memory", NULL);
                    }
                for (size_t i = 0; i < ref_count; i++) {
                    if (refs[i].batch == NULL || refs[i].batch_no >= cycle_start)
                        continue;
                    pk2.len = 0;
                    for (size_t c = 0; c < s->row->field_count; c++)
                        if (pm_strlist_find(&s->partition_keys, s->row->fields[c].name) >= 0)
                            if (pm_column_json(&pk2, refs[i].batch->columns[c], refs[i].row,
                                               NULL) != 0)
                                die("row as JSON", NULL);
                    if (pm_bytes_map_find(&keyidx, pk2.data, pk2.len) >= 0)
                        refs[i].batch = NULL;
                }
                pm_buf_free(&pk2);
            }
            pm_commit_messages_release(&m);
            since_commit = 0;
            if (overwrite_last && !wo.overwrite && rows - written <= commit_every) {
                /* the next (last) commit overwrites: a fresh write ignoring previous files */
                pm_table_write_free(tw);
                tw = NULL;
            }
        }
    }
    if (!quiet) {
        pm_buf line;
        pm_buf_init(&line, 0);
        for (size_t i = 0; i < ref_count; i++) {
            if (refs[i].batch == NULL)
                continue;
            line.len = 0;
            if (pm_batch_row_json(&line, refs[i].batch, refs[i].row, &err))
                die("json", &err);
            pm_buf_putc(&line, '\n');
            fwrite(line.data, 1, line.len, stdout);
        }
        pm_buf_free(&line);
    }
    pm_table_write_free(tw);
    for (size_t i = 0; i < batch_count; i++)
        pm_batch_free(batches[i]);
    pm_free(batches);
    pm_free(refs);
    pm_free(kinds);
    pm_bytes_map_free(&model);
    pm_bytes_map_free(&keyidx);
    pm_buf_free(&key);
    pm_schema_free(s);
    pm_fs_free(fs);
    return 0;
}
