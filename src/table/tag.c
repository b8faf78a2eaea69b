/*
 * Tag files in Java's shape, and creating, renaming and listing tags: see tag.h.  Deletion
 * with its file cleanup is tag_delete.c; automatic creation and expiry tag_auto.c.
 */
#include "table/tag.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "meta/file_path.h"
#include "meta/options.h"
#include "meta/paths.h"
#include "table/tag_auto.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/json.h"
#include "util/time.h"

#define MS_PER_DAY 86400000LL

int pm_tag_name_check(const char *table, const char *name, paimon_error *err)
{
    bool blank = true;
    if (name == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "%s: a tag name is required", table);
    for (const char *p = name; *p != '\0'; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '\f' && *p != '\v')
            blank = false;
    if (blank) /* Java's TagManager: "Tag name shouldn't be blank." */
        return pm_err_set(err, PAIMON_EINVALID, "%s: tag name '%s' is blank", table, name);
    if (!pm_file_name_is_plain(name))
        return pm_err_set(err, PAIMON_EINVALID,
                          "%s: tag name '%s' cannot name a file (no '/', '.' or '..')", table,
                          name);
    return 0;
}

/* Jackson's array form of a LocalDateTime: [y, M, d, h, m] plus the seconds when seconds or
 * nanos are not zero, plus the nanos when they are not zero. */
static int put_local_date_time(pm_buf *out, int64_t local_ms)
{
    int64_t days = pm_floor_div(local_ms, MS_PER_DAY), ms = pm_floor_mod(local_ms, MS_PER_DAY);
    int64_t year;
    unsigned month, day;
    int h = (int)(ms / 3600000), m = (int)(ms / 60000 % 60), s = (int)(ms / 1000 % 60);
    int nanos = (int)(ms % 1000) * 1000000;
    int rc;
    pm_civil_from_days(days, &year, &month, &day);
    rc = pm_buf_printf(out, "[ %" PRId64 ", %u, %u, %d, %d", year, month, day, h, m);
    if (rc == 0 && (s != 0 || nanos != 0))
        rc = pm_buf_printf(out, ", %d", s);
    if (rc == 0 && nanos != 0)
        rc = pm_buf_printf(out, ", %d", nanos);
    return rc != 0 ? rc : pm_buf_puts(out, " ]");
}

/* Jackson's Duration as a timestamp number: seconds with nine decimals; zero is "0.0". */
static int put_duration(pm_buf *out, int64_t ms)
{
    if (ms == 0)
        return pm_buf_puts(out, "0.0");
    return pm_buf_printf(out, "%" PRId64 ".%09d", pm_floor_div(ms, 1000),
                         (int)pm_floor_mod(ms, 1000) * 1000000);
}

int pm_tag_format(const pm_snapshot *snap, int64_t create_local_ms, int64_t retained_ms,
                  pm_buf *out, paimon_error *err)
{
    size_t start = out->len;
    int rc = pm_json_write_jackson_owned(out, pm_snapshot_to_json(snap));
    if (rc != 0)
        return rc == PAIMON_ENOMEM ? pm_nomem(err) : rc;
    if (retained_ms == PM_TAG_NO_RETENTION)
        return 0;
    /* the object ends with "\n}": reopen it for the two tag fields, which Jackson writes
     * after the snapshot's (Tag extends Snapshot) */
    if (out->len < start + 2 || out->data[out->len - 1] != '}')
        return pm_err_set(err, PAIMON_EINVALID, "tag: unexpected snapshot JSON");
    out->len -= 2;
    rc = pm_buf_puts(out, ",\n  \"tagCreateTime\" : ");
    if (rc == 0)
        rc = put_local_date_time(out, create_local_ms);
    if (rc == 0)
        rc = pm_buf_puts(out, ",\n  \"tagTimeRetained\" : ");
    if (rc == 0)
        rc = put_duration(out, retained_ms);
    if (rc == 0)
        rc = pm_buf_puts(out, "\n}");
    return rc != 0 ? pm_nomem(err) : 0;
}

static char *tag_file_path(const char *table, const char *name)
{
    size_t n = strlen(name) + 5;
    char *file = pm_malloc(n), *path;
    if (file == NULL)
        return NULL;
    snprintf(file, n, "tag-%s", name);
    path = pm_table_file(table, PM_DIR_TAG, file);
    pm_free(file);
    return path;
}

int pm_tag_create_file(pm_fs *fs, const char *table, const char *name, const pm_snapshot *snap,
                       int64_t retained_ms, paimon_error *err)
{
    char *path = tag_file_path(table, name);
    pm_buf b;
    int rc;
    if (path == NULL)
        return pm_nomem(err);
    pm_buf_init(&b, 0);
    rc = pm_tag_format(snap, pm_now_local_as_utc_millis(), retained_ms, &b, err);
    if (rc == 0)
        rc = fs->write_atomic(fs, path, b.data, b.len, false, err);
    if (rc == PAIMON_EEXISTS)
        rc = pm_err_set(err, rc, "%s: tag '%s' already exists", table, name);
    pm_buf_free(&b);
    pm_free(path);
    return rc;
}

bool pm_tag_create_time_ms(const pm_tag *tag, int64_t *local_ms)
{
    int64_t v[7] = {0, 0, 0, 0, 0, 0, 0};
    size_t n = json_is_array(tag->create_time) ? json_array_size(tag->create_time) : 0;
    if (n < 5 || n > 7)
        return false;
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_array_get(tag->create_time, i);
        if (!json_is_integer(x))
            return false;
        v[i] = json_integer_value(x);
    }
    if (v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] < 0 || v[3] > 23 || v[4] < 0 ||
        v[4] > 59 || v[5] < 0 || v[5] > 59 || v[6] < 0 || v[6] > 999999999 || v[0] < -999999 ||
        v[0] > 999999)
        return false;
    *local_ms = pm_days_from_civil(v[0], (unsigned)v[1], (unsigned)v[2]) * MS_PER_DAY +
                v[3] * 3600000 + v[4] * 60000 + v[5] * 1000 + v[6] / 1000000;
    return true;
}

bool pm_tag_time_retained_ms(const pm_tag *tag, int64_t *ms)
{
    double seconds;
    if (json_is_integer(tag->time_retained))
        seconds = (double)json_integer_value(tag->time_retained);
    else if (json_is_real(tag->time_retained))
        seconds = json_real_value(tag->time_retained);
    else
        return false;
    if (!(seconds >= 0 && seconds < 9.2e15))
        return false;
    *ms = (int64_t)(seconds * 1000 + 0.5);
    return true;
}

void pm_tag_duration_string(int64_t ms, char *out, size_t cap)
{
    int64_t h = ms / 3600000, m = ms / 60000 % 60, s = ms / 1000 % 60, frac = ms % 1000;
    size_t n = (size_t)snprintf(out, cap, "PT");
    if (ms == 0) {
        snprintf(out, cap, "PT0S");
        return;
    }
    if (h != 0 && n < cap)
        n += (size_t)snprintf(out + n, cap - n, "%" PRId64 "H", h);
    if (m != 0 && n < cap)
        n += (size_t)snprintf(out + n, cap - n, "%" PRId64 "M", m);
    if ((s != 0 || frac != 0) && n < cap) {
        n += (size_t)snprintf(out + n, cap - n, "%" PRId64, s);
        if (frac != 0 && n < cap) {
            char f[8];
            int len = snprintf(f, sizeof(f), "%03d", (int)frac);
            while (len > 0 && f[len - 1] == '0')
                f[--len] = '\0';
            n += (size_t)snprintf(out + n, cap - n, ".%s", f);
        }
        if (n < cap)
            snprintf(out + n, cap - n, "S");
    }
}

/* ---- listing ----------------------------------------------------------------------------- */

void pm_tag_free_all(pm_tag **tags, size_t count)
{
    for (size_t i = 0; tags != NULL && i < count; i++)
        pm_tag_free(tags[i]);
    pm_free(tags);
}

static int by_snapshot_then_name(const void *a, const void *b)
{
    const pm_tag *x = *(pm_tag *const *)a, *y = *(pm_tag *const *)b;
    if (x->snapshot->id != y->snapshot->id)
        return x->snapshot->id < y->snapshot->id ? -1 : 1;
    return strcmp(x->name, y->name);
}

int pm_tag_read_all(pm_fs *fs, const char *table, pm_tag ***out, size_t *count, paimon_error *err)
{
    pm_strlist names;
    pm_tag **tags = NULL;
    size_t n = 0;
    int rc = 0;

    *out = NULL;
    *count = 0;
    pm_strlist_init(&names);
    PM_TRY(pm_tag_list(fs, table, &names, err));
    if (names.count > 0 && (tags = pm_calloc(names.count, sizeof(*tags))) == NULL)
        PM_TRY(pm_nomem(err));
    for (size_t i = 0; i < names.count; i++) {
        rc = pm_tag_read(fs, table, names.items[i], &tags[n], err);
        if (rc == PAIMON_ENOTFOUND) { /* deleted while we listed: Java skips it too */
            rc = 0;
            continue;
        }
        PM_TRY(rc);
        n++;
    }
    if (n > 1)
        qsort(tags, n, sizeof(*tags), by_snapshot_then_name);
    *out = tags;
    *count = n;
    tags = NULL;
done:
    pm_tag_free_all(tags, n);
    pm_strlist_free(&names);
    return rc;
}

/* ---- create and rename ------------------------------------------------------------------ */

/* Java's findSnapshot: the snapshot file, else a tag of that snapshot. */
PM_MUST_CHECK static int find_snapshot(pm_fs *fs, const char *table, int64_t id, pm_snapshot **out,
                                       paimon_error *err)
{
    pm_tag **tags = NULL;
    size_t n = 0;
    int rc = pm_snapshot_read(fs, table, id, out, err);
    if (rc != PAIMON_ENOTFOUND)
        return rc;
    PM_TRY(pm_tag_read_all(fs, table, &tags, &n, err));
    for (size_t i = 0; i < n; i++) {
        if (tags[i]->snapshot->id == id) {
            *out = tags[i]->snapshot;
            tags[i]->snapshot = NULL;
            goto done;
        }
    }
    rc = pm_err_set(err, PAIMON_ENOTFOUND, "%s: snapshot %" PRId64 " does not exist", table, id);
done:
    pm_tag_free_all(tags, n);
    return rc;
}

/* Java's validateNoAutoTag: with automatic creation on, a name of the auto-tag form may not
 * tag a snapshot that already has an auto tag. */
PM_MUST_CHECK static int no_second_auto_tag(paimon_table *t, const char *name,
                                            const pm_snapshot *snap, paimon_error *err)
{
    const char *mode = pm_options_get_str(&t->schema->options, "tag.automatic-creation");
    pm_tag_period p;
    pm_tag **tags = NULL;
    size_t n = 0;
    int64_t ms;
    int rc = 0;
    if (strcasecmp(mode, "process-time") != 0 && strcasecmp(mode, "watermark") != 0)
        return 0;
    PM_TRY(pm_tag_period_from(&t->schema->options, &p, err));
    if (!pm_tag_period_parse(&p, name, &ms))
        goto done;
    PM_TRY(pm_tag_read_all(t->fs, t->path, &tags, &n, err));
    for (size_t i = 0; i < n; i++)
        if (tags[i]->snapshot->id == snap->id && pm_tag_period_parse(&p, tags[i]->name, &ms))
            PM_TRY(pm_err_set(err, PAIMON_EINVALID,
                              "%s: snapshot %" PRId64 " is already auto-tagged with %s", t->path,
                              snap->id, tags[i]->name));
done:
    pm_tag_free_all(tags, n);
    return rc;
}

int pm_tag_create(paimon_table *t, const char *name, int64_t snapshot_id, int64_t retained_ms,
                  paimon_error *err)
{
    pm_snapshot *snap = NULL;
    bool exists = false, found = false;
    char *path = NULL;
    int rc = 0;

    PM_TRY(pm_tag_name_check(t->path, name, err));
    if ((path = tag_file_path(t->path, name)) == NULL)
        PM_TRY(pm_nomem(err));
    PM_TRY(pm_fs_exists(t->fs, path, &exists, err));
    if (exists)
        PM_TRY(pm_err_set(err, PAIMON_EEXISTS, "%s: tag '%s' already exists", t->path, name));
    if (retained_ms == PM_TAG_NO_RETENTION)
        PM_TRY(pm_options_get_duration_or(&t->schema->options, "tag.default-time-retained",
                                          PM_TAG_NO_RETENTION, &retained_ms, err));
    if (snapshot_id <= 0) {
        PM_TRY(pm_snapshot_latest_id(t->fs, t->path, &snapshot_id, &found, err));
        if (!found)
            PM_TRY(pm_err_set(err, PAIMON_ENOTFOUND,
                              "%s: cannot create tag '%s': the table has no snapshot", t->path,
                              name));
    }
    PM_TRY(find_snapshot(t->fs, t->path, snapshot_id, &snap, err));
    PM_TRY(no_second_auto_tag(t, name, snap, err));
    PM_TRY(pm_tag_create_file(t->fs, t->path, name, snap, retained_ms, err));
done:
    pm_snapshot_free(snap);
    pm_free(path);
    return rc;
}

int pm_tag_rename(paimon_table *t, const char *from, const char *to, paimon_error *err)
{
    char *src = NULL, *dst = NULL;
    uint8_t *data = NULL;
    size_t len = 0;
    bool exists = false;
    int rc = 0;

    PM_TRY(pm_tag_name_check(t->path, from, err));
    PM_TRY(pm_tag_name_check(t->path, to, err));
    if ((src = tag_file_path(t->path, from)) == NULL || (dst = tag_file_path(t->path, to)) == NULL)
        PM_TRY(pm_nomem(err));
    rc = pm_fs_read_all(t->fs, src, 256u << 20, &data, &len, err);
    if (rc == PAIMON_ENOTFOUND)
        rc = pm_err_set(err, rc, "%s: tag '%s' does not exist", t->path, from);
    PM_TRY(rc);
    PM_TRY(pm_fs_exists(t->fs, dst, &exists, err));
    if (exists)
        PM_TRY(pm_err_set(err, PAIMON_EEXISTS, "%s: tag '%s' already exists", t->path, to));
    /* no rename primitive: the new file first (create-if-absent), then the old one goes; a
     * crash between leaves two tags of one snapshot, never none */
    rc = t->fs->write_atomic(t->fs, dst, data, len, false, err);
    if (rc == PAIMON_EEXISTS)
        rc = pm_err_set(err, rc, "%s: tag '%s' already exists", t->path, to);
    PM_TRY(rc);
    PM_TRY(t->fs->remove(t->fs, src, err));
done:
    pm_free(data);
    pm_free(src);
    pm_free(dst);
    return rc;
}
