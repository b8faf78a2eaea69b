/* Reading a model table back: see model_read.h. */
#include "model_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paimon.h"
#include "paimon/changes.h"
#include "paimon/scan.h"
#include "paimon/write.h"
#include "util/alloc.h"

/* ---- values ------------------------------------------------------------------------------ */

static bool parse_i64(const char *text, size_t len, int64_t *out)
{
    char buf[32], *end;
    if (len == 0 || len >= sizeof(buf))
        return false;
    memcpy(buf, text, len);
    buf[len] = '\0';
    errno = 0;
    *out = strtoll(buf, &end, 10);
    return errno == 0 && *end == '\0';
}

/* k, a, b from their canonical texts (NULL text: a null value). */
static bool parse_values(const char *const text[3], const size_t len[3], pm_model_record *r,
                         char *msg, size_t cap)
{
    int64_t v;
    if (text[0] == NULL || !parse_i64(text[0], len[0], &v) || v < 0 || v >= PM_MODEL_KEYS) {
        snprintf(msg, cap, "key %.*s is not one the model writes", text[0] ? (int)len[0] : 4,
                 text[0] ? text[0] : "null");
        return false;
    }
    r->k = (int)v;
    r->has_a = text[1] != NULL;
    r->a = 0;
    if (r->has_a && !parse_i64(text[1], len[1], &r->a)) {
        snprintf(msg, cap, "key %d: a = %.*s is not a BIGINT", r->k, (int)len[1], text[1]);
        return false;
    }
    r->b = -1;
    if (text[2] != NULL) {
        if (len[2] < 2 || text[2][0] != 's' || !parse_i64(text[2] + 1, len[2] - 1, &v) || v < 0 ||
            v > 1000000) {
            snprintf(msg, cap, "key %d: b = %.*s is not one the model writes", r->k, (int)len[2],
                     text[2]);
            return false;
        }
        r->b = (int)v;
    }
    return true;
}

/* Keeps a borrowed value text (valid only until the next call on its reader) in `buf`;
 * NULL stays NULL.  False when it does not fit (no model value is that long). */
static bool keep(const char **text, size_t len, char *buf, size_t cap)
{
    if (*text == NULL)
        return true;
    if (len >= cap)
        return false;
    memcpy(buf, *text, len);
    buf[len] = '\0';
    *text = buf;
    return true;
}

/* ---- the batch read ---------------------------------------------------------------------- */

int pm_model_read_state(const char *table, pm_model_state *out, char *msg, size_t cap)
{
    paimon_table *t = NULL;
    paimon_scan *scan = NULL;
    paimon_scan_options so = PAIMON_SCAN_OPTIONS_INIT;
    paimon_cursor *rows = NULL;
    paimon_error err;
    int rc = -1;

    pm_model_state_init(out);
    if (paimon_table_open(&t, table, &err) != 0 || paimon_table_scan(&scan, t, &so, &err) != 0 ||
        paimon_scan_cursor(&rows, scan, &err) != 0) {
        snprintf(msg, cap, "read: %s", err.message);
        goto done;
    }
    if (paimon_scan_column_count(scan) != 3) {
        snprintf(msg, cap, "read: %zu columns, expected k, a, b", paimon_scan_column_count(scan));
        goto done;
    }
    for (;;) {
        const char *text[3];
        size_t len[3];
        pm_model_record r;
        int n = paimon_cursor_next(rows, &err);
        if (n == PAIMON_ITEROVER)
            break;
        if (n != 0) {
            snprintf(msg, cap, "read: %s", err.message);
            goto done;
        }
        char kept[3][32];
        for (size_t c = 0; c < 3; c++) {
            if (paimon_cursor_value_text(rows, c, &text[c], &len[c], &err) != 0) {
                snprintf(msg, cap, "read: %s", err.message);
                goto done;
            }
            if (!keep(&text[c], len[c], kept[c], sizeof(kept[c]))) {
                snprintf(msg, cap, "read: a value of %zu bytes", len[c]);
                goto done;
            }
        }
        if (!parse_values(text, len, &r, msg, cap))
            goto done;
        if (out->rows[r.k].present) {
            snprintf(msg, cap, "read: key %d read twice", r.k);
            goto done;
        }
        r.kind = PAIMON_ROW_INSERT;
        pm_model_state_apply_change(out, &r);
    }
    rc = 0;
done:
    paimon_cursor_free(rows);
    paimon_scan_free(scan);
    paimon_table_free(t);
    return rc;
}

/* ---- the change stream ------------------------------------------------------------------- */

static int kind_of(const char *text, size_t len)
{
    static const char *const KINDS[] = {"+I", "-U", "+U", "-D"};
    for (int i = 0; i < 4; i++)
        if (text != NULL && len == 2 && memcmp(text, KINDS[i], 2) == 0)
            return i;
    return -1;
}

static void push(pm_model_changes *c, const pm_model_record *r)
{
    if (c->count == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->records = pm_realloc(c->records, c->cap * sizeof(*c->records));
    }
    c->records[c->count++] = *r;
}

/* The current snapshot's rows. */
static int read_rows(paimon_changes *ch, pm_model_changes *out, char *msg, size_t cap)
{
    paimon_error err;
    paimon_cursor *cur = NULL;
    int rc = -1;
    if (paimon_changes_cursor(&cur, ch, &err) != 0) {
        snprintf(msg, cap, "changes: %s", err.message);
        return -1;
    }
    for (;;) {
        const char *text[4];
        size_t len[4];
        pm_model_record r;
        int n = paimon_cursor_next(cur, &err);
        if (n == PAIMON_ITEROVER) {
            rc = 0;
            break;
        }
        if (n != 0) {
            snprintf(msg, cap, "changes: %s", err.message);
            break;
        }
        char kept[4][32];
        for (size_t c = 0; c < 4; c++) {
            if (paimon_cursor_value_text(cur, c, &text[c], &len[c], &err) != 0) {
                snprintf(msg, cap, "changes: %s", err.message);
                goto done;
            }
            if (!keep(&text[c], len[c], kept[c], sizeof(kept[c]))) {
                snprintf(msg, cap, "changes: a value of %zu bytes", len[c]);
                goto done;
            }
        }
        /* the kind as the cursor gives it must be the one its _ROW_KIND column shows */
        if ((r.kind = kind_of(text[0], len[0])) < 0 || paimon_cursor_row_kind(cur) != r.kind) {
            snprintf(msg, cap, "changes: row kind %.*s (cursor: %d)", text[0] ? (int)len[0] : 4,
                     text[0] ? text[0] : "null", paimon_cursor_row_kind(cur));
            goto done;
        }
        if (!parse_values(text + 1, len + 1, &r, msg, cap))
            goto done;
        push(out, &r);
    }
done:
    paimon_cursor_free(cur);
    return rc;
}

int pm_model_read_changes(const char *table, int64_t first, int64_t last, pm_model_changes *out,
                          char *msg, size_t cap)
{
    static const char *const COLUMNS[] = {"_ROW_KIND", "k", "a", "b"};
    paimon_table *t = NULL;
    paimon_changes *ch = NULL;
    paimon_changes_options o = PAIMON_CHANGES_OPTIONS_INIT;
    paimon_error err;
    int rc = -1;

    memset(out, 0, sizeof(*out));
    o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
    o.from_value = first;
    o.to_snapshot = last;
    if (paimon_table_open(&t, table, &err) != 0 || paimon_table_changes(&ch, t, &o, &err) != 0) {
        snprintf(msg, cap, "changes %lld..%lld: %s", (long long)first, (long long)last,
                 err.message);
        goto done;
    }
    if (paimon_changes_column_count(ch) != 4) {
        snprintf(msg, cap, "changes: %zu columns, expected _ROW_KIND, k, a, b",
                 paimon_changes_column_count(ch));
        goto done;
    }
    for (size_t c = 0; c < 4; c++)
        if (strcmp(paimon_changes_column_name(ch, c), COLUMNS[c]) != 0) {
            snprintf(msg, cap, "changes: column %zu is %s, expected %s", c,
                     paimon_changes_column_name(ch, c), COLUMNS[c]);
            goto done;
        }
    for (;;) {
        paimon_changes_snapshot info;
        pm_model_change_snapshot *s;
        int n = paimon_changes_next_snapshot(ch, &info, &err);
        if (n == PAIMON_ITEROVER)
            break;
        if (n != 0) {
            snprintf(msg, cap, "changes: %s", err.message);
            goto done;
        }
        if (out->snapshot_count == PM_MODEL_MAX_SNAPSHOTS) {
            snprintf(msg, cap, "changes %lld..%lld: more than %d snapshots", (long long)first,
                     (long long)last, PM_MODEL_MAX_SNAPSHOTS);
            goto done;
        }
        s = &out->snapshots[out->snapshot_count++];
        s->id = info.id;
        snprintf(s->commit_kind, sizeof(s->commit_kind), "%s", info.commit_kind);
        s->read = info.read != 0;
        s->first = out->count;
        if (read_rows(ch, out, msg, cap) != 0)
            goto done;
        s->count = out->count - s->first;
    }
    if (out->snapshot_count != (size_t)(last - first + 1)) {
        snprintf(msg, cap, "changes %lld..%lld: %zu snapshots", (long long)first, (long long)last,
                 out->snapshot_count);
        goto done;
    }
    rc = 0;
done:
    paimon_changes_free(ch);
    paimon_table_free(t);
    return rc;
}

void pm_model_changes_free(pm_model_changes *c)
{
    pm_free(c->records);
    c->records = NULL;
    c->count = c->cap = 0;
}
