/* Partition expiration: see partition_expire.h. */
#include "table/partition_expire.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "meta/file_entry.h"
#include "meta/manifest.h"
#include "meta/options.h"
#include "meta/partition.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "table/commit.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/time.h"

#define MS_PER_DAY 86400000LL

/* ---- parsing partition times ------------------------------------------------------------- */

typedef struct civil {
    int64_t year, month, day, hour, minute, second, nanos;
    bool has_year, has_month, has_day, has_hour;
} civil;

/* Reads between `min` and `max` digits at *p (fewer than `min`: false). */
static bool digits(const char **p, int min, int max, int64_t *out)
{
    int n = 0;
    int64_t v = 0;
    while (n < max && (*p)[n] >= '0' && (*p)[n] <= '9') {
        v = v * 10 + ((*p)[n] - '0');
        n++;
    }
    if (n < min)
        return false;
    *p += n;
    *out = v;
    return true;
}

/* Java's default partition formatter: y-M-d[ H:m:s[.S{1,9}]], lenient (out-of-range fields
 * roll over). */
static int parse_default(const char *s, int64_t *out)
{
    const char *p = s;
    int64_t y, mo, d, h = 0, mi = 0, se = 0, nanos = 0, months, days;
    if (!digits(&p, 1, 10, &y) || *p++ != '-' || !digits(&p, 1, 2, &mo) || *p++ != '-' ||
        !digits(&p, 1, 2, &d))
        return 1;
    if (*p == ' ') {
        const char *q = p + 1;
        int64_t hh, mm, ss;
        if (digits(&q, 1, 2, &hh) && *q == ':' && (q++, digits(&q, 1, 2, &mm)) && *q == ':' &&
            (q++, digits(&q, 1, 2, &ss))) {
            h = hh;
            mi = mm;
            se = ss;
            p = q;
            if (*p == '.') {
                const char *f = p + 1;
                int64_t frac;
                int n;
                if (digits(&f, 1, 9, &frac)) {
                    for (n = (int)(f - p - 1); n < 9; n++)
                        frac *= 10;
                    nanos = frac;
                    p = f;
                }
            }
        }
    }
    if (*p != '\0')
        return 1;
    months = y * 12 + (mo - 1);
    days =
        pm_days_from_civil(pm_floor_div(months, 12), (unsigned)(pm_floor_mod(months, 12) + 1), 1) +
        (d - 1);
    *out = days * MS_PER_DAY + h * 3600000LL + mi * 60000LL + se * 1000LL + nanos / 1000000;
    return 0;
}

/* One token of a DateTimeFormatter pattern: a letter run, or literal text. */
typedef struct token {
    char letter; /* 0: literal */
    int count;
    const char *lit;
    size_t lit_len;
} token;

static bool fixed_width(const token *t, int *width)
{
    if (t->letter == 0)
        return false;
    if (t->letter == 'S' || ((t->letter == 'y' || t->letter == 'u') && t->count == 2) ||
        (t->letter != 'y' && t->letter != 'u' && t->count == 2)) {
        *width = t->count;
        return true;
    }
    return false;
}

/* Splits a pattern into tokens (at most `cap`); PAIMON_EUNSUPPORTED for letters outside
 * y u M d H m s S or a pattern too long. */
PM_MUST_CHECK static int tokenize(const char *pattern, token *toks, size_t cap, size_t *n,
                                  paimon_error *err)
{
    const char *p = pattern;
    *n = 0;
    while (*p != '\0') {
        token t = {0, 0, NULL, 0};
        if (*n == cap)
            return pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "partition timestamp formatter '%s' is "
                              "too long",
                              pattern);
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
            if (strchr("yuMdHmsS", *p) == NULL || ((*p == 'M') && p[1] == 'M' && p[2] == 'M'))
                return pm_err_set(err, PAIMON_EUNSUPPORTED,
                                  "partition timestamp formatter '%s': pattern letter '%c' is not "
                                  "supported by paimon-c (y, u, M, d, H, m, s, S are)",
                                  pattern, *p);
            t.letter = *p;
            while (*p == t.letter) {
                t.count++;
                p++;
            }
            if (t.letter != 'S' && t.letter != 'y' && t.letter != 'u' && t.count > 2)
                return pm_err_set(err, PAIMON_EUNSUPPORTED,
                                  "partition timestamp formatter '%s': '%c' repeated %d times",
                                  pattern, t.letter, t.count);
        } else if (*p == '\'') {
            const char *q = ++p;
            while (*q != '\0' && *q != '\'')
                q++;
            if (q == p) { /* '' is a quote */
                t.lit = "'";
                t.lit_len = 1;
            } else {
                t.lit = p;
                t.lit_len = (size_t)(q - p);
            }
            p = *q == '\'' ? q + 1 : q;
        } else {
            t.lit = p++;
            t.lit_len = 1;
        }
        toks[(*n)++] = t;
    }
    return 0;
}

static int parse_pattern(const char *s, const token *toks, size_t n, int64_t *out)
{
    const char *p = s;
    civil c;
    memset(&c, 0, sizeof(c));
    for (size_t i = 0; i < n; i++) {
        const token *t = &toks[i];
        int64_t v;
        int width, reserve = 0, min, max;
        size_t run = 0;
        if (t->letter == 0) {
            if (strncmp(p, t->lit, t->lit_len) != 0)
                return 1;
            p += t->lit_len;
            continue;
        }
        if (fixed_width(t, &width)) {
            min = max = width;
        } else {
            /* Java's adjacent value parsing: a variable-width field leaves the digits of the
             * fixed-width fields that follow it directly. */
            min = t->count;
            max = t->letter == 'y' || t->letter == 'u' ? 19 : 2;
            for (size_t k = i + 1; k < n && fixed_width(&toks[k], &width); k++)
                reserve += width;
            while (p[run] >= '0' && p[run] <= '9')
                run++;
            if (reserve > 0 && (int)run - reserve < max)
                max = (int)run - reserve;
        }
        if (max < min || !digits(&p, min, max, &v))
            return 1;
        switch (t->letter) {
        case 'y':
        case 'u':
            c.year = t->count == 2 ? 2000 + v : v;
            c.has_year = true;
            break;
        case 'M':
            c.month = v;
            c.has_month = true;
            break;
        case 'd':
            c.day = v;
            c.has_day = true;
            break;
        case 'H':
            c.hour = v;
            c.has_hour = true;
            break;
        case 'm': c.minute = v; break;
        case 's': c.second = v; break;
        case 'S':
            for (int k = t->count; k < 9; k++)
                v *= 10;
            c.nanos = v;
            break;
        }
    }
    if (*p != '\0' || !c.has_year || !c.has_month || !c.has_day)
        return 1;
    /* SMART resolution: fields in range, a day past the month's end clamped to it. */
    if (c.month < 1 || c.month > 12 || c.day < 1 || c.day > 31 || c.hour > 23 || c.minute > 59 ||
        c.second > 59)
        return 1;
    {
        int64_t next = c.month == 12 ? pm_days_from_civil(c.year + 1, 1, 1)
                                     : pm_days_from_civil(c.year, (unsigned)c.month + 1, 1);
        int64_t first = pm_days_from_civil(c.year, (unsigned)c.month, 1);
        int64_t day = c.day - 1 < next - first ? c.day - 1 : next - first - 1;
        if (!c.has_hour)
            c.hour = c.minute = c.second = c.nanos = 0; /* LocalDate.parse: midnight */
        *out = (first + day) * MS_PER_DAY + c.hour * 3600000LL + c.minute * 60000LL +
               c.second * 1000LL + c.nanos / 1000000;
    }
    return 0;
}

int pm_partition_time_parse(const char *text, const char *pattern, int64_t *out_ms,
                            paimon_error *err)
{
    token toks[64];
    size_t n = 0;
    int rc;
    if (pattern == NULL)
        return parse_default(text, out_ms);
    if ((rc = tokenize(pattern, toks, 64, &n, err)) != 0)
        return rc;
    return parse_pattern(text, toks, n, out_ms);
}

/* ---- selecting ---------------------------------------------------------------------------- */

typedef struct part {
    const pm_avro_bytes *row; /* serialized partition */
    char *joined;             /* values joined with ',' (the sort key) */
    char *display;            /* "k=v, k2=v2" */
    char **values;            /* per partition key, Java's toString() (default name: null) */
    int64_t last_creation;    /* local wall clock, as if UTC */
    bool expired;
} part;

typedef struct expire_ctx {
    pm_fs *fs;
    const char *table;
    pm_schema *schema;
    pm_options opts; /* the schema's options with the overrides */
    const pm_field *fields[64];
    size_t field_count;
    pm_snapshot *latest;
    pm_arena arena;
    const pm_manifest_entry **live;
    size_t live_count;
    part *parts;
    size_t part_count;
} expire_ctx;

static int cmp_entry_partition(const void *a, const void *b)
{
    const pm_manifest_entry *x = *(const pm_manifest_entry *const *)a;
    const pm_manifest_entry *y = *(const pm_manifest_entry *const *)b;
    size_t n = x->partition.len < y->partition.len ? x->partition.len : y->partition.len;
    int c = memcmp(x->partition.ptr, y->partition.ptr, n);
    if (c != 0)
        return c;
    return x->partition.len < y->partition.len ? -1 : x->partition.len > y->partition.len;
}

static bool same_partition(const pm_avro_bytes *a, const pm_avro_bytes *b)
{
    return a->len == b->len && memcmp(a->ptr, b->ptr, a->len) == 0;
}

static int cmp_part_joined(const void *a, const void *b)
{
    return strcmp(((const part *)a)->joined, ((const part *)b)->joined);
}

/* The values of partition `row` as Java's toString() writes them (pm_partition_path's
 * legacy text, unescaped), the sort key and the display form. */
PM_MUST_CHECK static int describe(expire_ctx *c, part *pt, paimon_error *err)
{
    pm_partition_naming naming = {pm_options_get_str(&c->opts, "partition.default-name"), true};
    pm_binrow row;
    pm_buf path, v, joined, display;
    const char *s;
    int rc = 0;
    pm_buf_init(&path, 0);
    pm_buf_init(&v, 0);
    pm_buf_init(&joined, 0);
    pm_buf_init(&display, 0);
    if (naming.default_name == NULL)
        naming.default_name = PM_DEFAULT_PARTITION_NAME;
    if ((pt->values = pm_calloc(c->field_count + 1, sizeof(char *))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_binrow_deserialize(&row, pt->row->ptr, pt->row->len, err));
    PM_TRY(pm_partition_path(&path, c->fields, c->field_count, &row, &naming, err));
    pm_buf_cstr(&path);
    s = (const char *)path.data;
    for (size_t i = 0; i < c->field_count; i++) {
        const char *eq = strchr(s, '='), *slash = eq != NULL ? strchr(eq, '/') : NULL;
        if (eq == NULL || slash == NULL) {
            rc = pm_corrupt(err, "%s: malformed partition path", c->table);
            goto done;
        }
        pm_buf_reset(&v);
        if (pm_partition_unescape(&v, eq + 1, (size_t)(slash - eq - 1)) != 0 ||
            pm_buf_cstr(&v) == NULL || (pt->values[i] = pm_strdup((const char *)v.data)) == NULL ||
            (i > 0 && (pm_buf_putc(&joined, ',') != 0 || pm_buf_puts(&display, ", ") != 0)) ||
            pm_buf_puts(&joined, pt->values[i]) != 0 ||
            pm_buf_printf(&display, "%s=%s", c->fields[i]->name, pt->values[i]) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
        s = slash + 1;
    }
    if (pm_buf_cstr(&joined) == NULL || pm_buf_cstr(&display) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    pt->joined = (char *)pm_buf_detach(&joined, NULL);
    pt->display = (char *)pm_buf_detach(&display, NULL);
done:
    pm_buf_free(&path);
    pm_buf_free(&v);
    pm_buf_free(&joined);
    pm_buf_free(&display);
    return rc;
}

/* values-time: the partition's time from its values; *ok false when it does not parse. */
PM_MUST_CHECK static int values_time(expire_ctx *c, const part *pt, int64_t *ms, bool *ok,
                                     paimon_error *err)
{
    const char *pattern = pm_options_get_str(&c->opts, "partition.timestamp-pattern");
    const char *formatter = pm_options_get_str(&c->opts, "partition.timestamp-formatter");
    const char *dflt = pm_options_get_str(&c->opts, "partition.default-name");
    pm_buf text;
    int rc = 0;
    *ok = false;
    pm_buf_init(&text, 0);
    for (size_t i = 0; i < c->field_count; i++)
        if (dflt != NULL && strcmp(pt->values[i], dflt) == 0)
            return 0; /* a null value: Java's NullPointerException, never expired */
    if (pattern == NULL) {
        rc = pm_buf_puts(&text, pt->values[0]);
    } else {
        /* String.replaceAll("\\$" + key, value) for each key in order. */
        rc = pm_buf_puts(&text, pattern);
        for (size_t i = 0; rc == 0 && i < c->field_count; i++) {
            const char *key = c->fields[i]->name;
            size_t kl = strlen(key);
            pm_buf next;
            pm_buf_init(&next, 0);
            for (size_t k = 0; rc == 0 && k < text.len;) {
                if (text.data[k] == '$' && k + 1 + kl <= text.len &&
                    memcmp(text.data + k + 1, key, kl) == 0) {
                    rc = pm_buf_puts(&next, pt->values[i]);
                    k += 1 + kl;
                } else {
                    rc = pm_buf_putc(&next, text.data[k++]);
                }
            }
            pm_buf_free(&text);
            text = next;
        }
    }
    if (rc != 0 || pm_buf_cstr(&text) == NULL) {
        pm_buf_free(&text);
        return pm_nomem(err);
    }
    rc = pm_partition_time_parse((const char *)text.data, formatter, ms, err);
    pm_buf_free(&text);
    if (rc == PAIMON_EUNSUPPORTED)
        pm_err_prefix(err, rc, "%s: ", c->table);
    if (rc == 1)
        return 0;
    if (rc == 0)
        *ok = true;
    return rc;
}

static void ctx_free(expire_ctx *c)
{
    for (size_t i = 0; c->parts != NULL && i < c->part_count; i++) {
        for (size_t k = 0; c->parts[i].values != NULL && k < c->field_count; k++)
            pm_free(c->parts[i].values[k]);
        pm_free(c->parts[i].values);
        pm_free(c->parts[i].joined);
        pm_free(c->parts[i].display);
    }
    pm_free(c->parts);
    pm_arena_free(&c->arena);
    pm_snapshot_free(c->latest);
    pm_options_free(&c->opts);
    pm_schema_free(c->schema);
}

/* Groups the live files by partition and decides which partitions are expired. */
PM_MUST_CHECK static int select_expired(expire_ctx *c, bool update_time, int64_t expire_before,
                                        paimon_error *err)
{
    const pm_manifest_entry **sorted = NULL;
    int rc = 0;
    if (c->live_count == 0)
        return 0;
    if ((sorted = pm_calloc(c->live_count, sizeof(*sorted))) == NULL ||
        (c->parts = pm_calloc(c->live_count, sizeof(part))) == NULL) {
        pm_free(sorted);
        return pm_nomem(err);
    }
    memcpy(sorted, c->live, c->live_count * sizeof(*sorted));
    qsort(sorted, c->live_count, sizeof(*sorted), cmp_entry_partition);
    for (size_t i = 0; i < c->live_count; i++) {
        const pm_manifest_entry *e = sorted[i];
        part *pt;
        if (c->part_count == 0 || !same_partition(c->parts[c->part_count - 1].row, &e->partition)) {
            pt = &c->parts[c->part_count++];
            pt->row = &e->partition;
            pt->last_creation = INT64_MIN;
        }
        pt = &c->parts[c->part_count - 1];
        if (e->file.has_creation_time && e->file.creation_time > pt->last_creation)
            pt->last_creation = e->file.creation_time;
    }
    for (size_t i = 0; i < c->part_count; i++) {
        part *pt = &c->parts[i];
        PM_TRY(describe(c, pt, err));
        if (update_time) {
            /* Java compares instants: both local times through the zone. */
            pt->expired =
                pt->last_creation != INT64_MIN && pm_local_to_epoch_millis(expire_before) >
                                                      pm_local_to_epoch_millis(pt->last_creation);
        } else {
            int64_t t = 0;
            bool ok = false;
            PM_TRY(values_time(c, pt, &t, &ok, err));
            pt->expired = ok && expire_before > t;
        }
    }
done:
    pm_free(sorted);
    return rc;
}

/* One drop commit: DELETE entries for every live data and index file of parts[from, to). */
PM_MUST_CHECK static int drop_batch(expire_ctx *c, const part *parts, size_t from, size_t to,
                                    const pm_partition_expire_opts *o,
                                    const pm_index_manifest_entry *index, size_t index_count,
                                    int64_t *snapshot_id, paimon_error *err)
{
    pm_commit_messages m;
    pm_commit_opts co;
    int rc = 0;
    pm_commit_messages_init(&m);
    for (size_t i = 0; i < c->live_count; i++) {
        bool hit = false;
        for (size_t k = from; k < to && !hit; k++)
            hit = same_partition(parts[k].row, &c->live[i]->partition);
        if (hit) {
            pm_manifest_entry d = *c->live[i];
            d.kind = PM_FILE_KIND_DELETE;
            if (pm_commit_messages_add_data(&m, &d) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
        }
    }
    for (size_t i = 0; i < index_count; i++) {
        bool hit = false;
        for (size_t k = from; k < to && !hit; k++)
            hit = same_partition(parts[k].row, &index[i].partition);
        if (hit) {
            pm_index_manifest_entry d = index[i];
            d.kind = PM_FILE_KIND_DELETE;
            if (pm_commit_messages_add_index(&m, &d) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
        }
    }
    memset(&co, 0, sizeof(co));
    co.commit_user = o->commit_user != NULL ? o->commit_user : "";
    co.identifier = o->identifier;
    co.kind = PM_COMMIT_APPEND; /* deletes only: committed as OVERWRITE (table/commit.h) */
    rc = pm_commit(c->fs, c->table, &m, &co, snapshot_id, err);
done:
    pm_commit_messages_release(&m);
    return rc;
}

int pm_partition_expire(pm_fs *fs, const char *table, const pm_partition_expire_opts *o,
                        pm_strlist *expired, int64_t *snapshot_id, paimon_error *err)
{
    expire_ctx c;
    const char *strategy;
    int64_t expiration = -1, max_num = 0, batch = 0, latest_id = 0, now;
    pm_index_manifest_entry *index = NULL;
    size_t index_count = 0, chosen = 0;
    part *sel = NULL;
    bool found = false;
    int rc = 0;

    *snapshot_id = 0;
    memset(&c, 0, sizeof(c));
    c.fs = fs;
    c.table = table;
    pm_options_init(&c.opts);
    pm_arena_init(&c.arena, 4096);
    PM_TRY(pm_schema_read_latest(fs, table, &c.schema, err));
    if (pm_options_copy(&c.opts, &c.schema->options) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; o->overrides != NULL && i < o->overrides->count; i++)
        if (pm_options_set(&c.opts, o->overrides->keys[i], o->overrides->values[i]) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    PM_TRY(pm_schema_partition_fields(c.schema, c.fields, 64, &c.field_count, err));
    if (c.field_count == 0) {
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: the table has no partition keys", table);
        goto done;
    }
    if (o->has_older_than)
        expiration = o->older_than_ms;
    else
        PM_TRY(
            pm_options_get_duration_or(&c.opts, "partition.expiration-time", -1, &expiration, err));
    if (expiration < 0) {
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED,
                        "%s: partition.expiration-time is not set (give --older-than)", table);
        goto done;
    }
    strategy = pm_options_get_str(&c.opts, "partition.expiration-strategy");
    if (strcmp(strategy, "values-time") != 0 && strcmp(strategy, "update-time") != 0) {
        rc = pm_err_set(err, PAIMON_EINVALID, "%s: Unknown partitionExpireStrategy: %s", table,
                        strategy);
        goto done;
    }
    PM_TRY(pm_options_get_i64(&c.opts, "partition.expiration-max-num", &max_num, err));
    PM_TRY(pm_options_get_i64_or(&c.opts, "partition.expiration-batch-size", 0, &batch, err));
    PM_TRY(pm_snapshot_latest_id(fs, table, &latest_id, &found, err));
    if (!found)
        goto done;
    PM_TRY(pm_snapshot_read(fs, table, latest_id, &c.latest, err));
    PM_TRY(pm_snapshot_live_entries(fs, table, c.latest, &c.arena, &c.live, &c.live_count, err));
    now = o->now_local_ms != 0 ? o->now_local_ms : pm_now_local_as_utc_millis();
    PM_TRY(select_expired(&c, strcmp(strategy, "update-time") == 0, now - expiration, err));
    if (c.part_count > 0 && (sel = pm_calloc(c.part_count, sizeof(*sel))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < c.part_count; i++)
        if (c.parts[i].expired)
            sel[chosen++] = c.parts[i];
    qsort(sel, chosen, sizeof(*sel), cmp_part_joined);
    if ((int64_t)chosen > max_num)
        chosen = max_num > 0 ? (size_t)max_num : 0;
    if (!o->dry_run && chosen > 0 && c.latest->index_manifest != NULL)
        PM_TRY(pm_index_manifest_read(fs, table, c.latest->index_manifest, &c.arena, &index,
                                      &index_count, err));
    for (size_t from = 0; from < chosen;) {
        size_t to = batch > 0 && (size_t)batch < chosen - from ? from + (size_t)batch : chosen;
        if (!o->dry_run)
            PM_TRY(drop_batch(&c, sel, from, to, o, index, index_count, snapshot_id, err));
        for (size_t k = from; k < to; k++)
            if (pm_strlist_push(expired, sel[k].display) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
        from = to;
    }
done:
    pm_free(sel); /* shallow copies of c.parts */
    ctx_free(&c);
    return rc;
}

/* ---- after a commit ------------------------------------------------------------------------ */

/* Java's PartitionExpire.lastCheck, per table in this process. */
#define LAST_CHECKS 32
static struct {
    char *table;
    int64_t last_check;
} g_checks[LAST_CHECKS];
static size_t g_check_count;
static pthread_mutex_t g_checks_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether a check is due for `table` at `now` (and if so, records it as made). */
static bool check_due(const char *table, int64_t now, int64_t interval)
{
    bool due = false;
    size_t i;
    pthread_mutex_lock(&g_checks_lock);
    for (i = 0; i < g_check_count && strcmp(g_checks[i].table, table) != 0; i++)
        ;
    if (i == g_check_count) {
        if (g_check_count == LAST_CHECKS) { /* forget the oldest table */
            pm_free(g_checks[0].table);
            memmove(&g_checks[0], &g_checks[1], (LAST_CHECKS - 1) * sizeof(g_checks[0]));
            g_check_count--;
            i = g_check_count;
        }
        if ((g_checks[i].table = pm_strdup(table)) == NULL) {
            pthread_mutex_unlock(&g_checks_lock);
            return false;
        }
        g_checks[i].last_check = now;
        g_check_count++;
    }
    if (now > g_checks[i].last_check + interval) {
        g_checks[i].last_check = now;
        due = true;
    }
    pthread_mutex_unlock(&g_checks_lock);
    return due;
}

int pm_partition_expire_after_commit(pm_fs *fs, const char *table, int64_t committed,
                                     paimon_error *err)
{
    pm_schema *schema = NULL;
    pm_snapshot *snap = NULL;
    pm_strlist expired;
    pm_partition_expire_opts o;
    int64_t interval = 0, id = 0, now;
    bool end_input = false;
    int rc = 0;

    pm_strlist_init(&expired);
    PM_TRY(pm_schema_read_latest(fs, table, &schema, err));
    if (schema->partition_keys.count == 0 ||
        pm_schema_option(schema, "partition.expiration-time") == NULL)
        goto done;
    PM_TRY(pm_options_get_duration(&schema->options, "partition.expiration-check-interval",
                                   &interval, err));
    PM_TRY(
        pm_options_get_bool(&schema->options, "end-input.check-partition-expire", &end_input, err));
    PM_TRY(pm_snapshot_read(fs, table, committed, &snap, err));
    now = pm_now_local_as_utc_millis();
    if (!(interval == 0 || (end_input && snap->commit_identifier == INT64_MAX)) &&
        !check_due(table, now, interval))
        goto done;
    memset(&o, 0, sizeof(o));
    o.commit_user = snap->commit_user;
    o.identifier = snap->commit_identifier;
    o.now_local_ms = now;
    rc = pm_partition_expire(fs, table, &o, &expired, &id, err);
done:
    pm_strlist_free(&expired);
    pm_snapshot_free(snap);
    pm_schema_free(schema);
    return rc;
}
