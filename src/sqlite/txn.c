/*
 * Writes through the `paimon` module (docs/SQL.md, "Writes"): one SQLite transaction is one
 * Paimon commit.
 *
 *   xUpdate     checks the row (read-only views, types, NOT NULL, primary-key updates) and
 *               appends +I, or -U/+U, or -D changes to the transaction's buffer; the old row
 *               of an UPDATE or DELETE is the one the scan showed, captured at xRowid
 *   xSavepoint  remembers the buffer's length at a level (SQLite opens one per statement
 *   xRollbackTo that can fail half-way, and for SAVEPOINT): rolling back cuts the buffer
 *               back, so a failed statement leaves nothing behind
 *   xSync       writes the buffer through one paimon_writer and commits it as one snapshot;
 *               a failure here fails the COMMIT, and SQLite rolls the transaction back
 *   xCommit     drops the buffer; xRollback drops it without writing anything
 *
 * Tables whose columns all take Arrow batches buffer their changes column by column
 * (txn_arrow.c); the others as rows in the arena below.
 *
 * Nothing touches the table before xSync, so ROLLBACK, an error or a crash commit nothing.
 * A transaction reads the table as committed: its own buffered changes are not visible to
 * its later statements (docs/SQL.md says so).  INSERT into a primary-key table is an upsert
 * (Paimon's merge engine decides), so INSERT OR REPLACE is the same statement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite_int.h"

/* Changes live in an arena of chunks, filled in order: a transaction of a million rows
 * makes a few hundred allocations, not a million, and cutting the buffer back to a
 * savepoint is moving the fill mark back to the first change it drops. */
#define PS_CHUNK (1u << 20)

/* Allocates `size` bytes (a multiple of 16) from the arena, or NULL. */
static void *arena_alloc(ps_vtab *vt, size_t size, uint32_t *chunk)
{
    if (vt->chunk_count == 0 || vt->chunk_used + size > vt->chunk_caps[vt->chunk_count - 1]) {
        size_t cap = size > PS_CHUNK ? size : PS_CHUNK;
        if (vt->chunk_count == vt->chunk_slots) {
            size_t slots = vt->chunk_slots == 0 ? 16 : vt->chunk_slots * 2;
            char **chunks = realloc(vt->chunks, slots * sizeof(*chunks));
            if (chunks == NULL)
                return NULL;
            vt->chunks = chunks;
            size_t *caps = realloc(vt->chunk_caps, slots * sizeof(*caps));
            if (caps == NULL)
                return NULL;
            vt->chunk_caps = caps;
            vt->chunk_slots = slots;
        }
        if ((vt->chunks[vt->chunk_count] = malloc(cap)) == NULL)
            return NULL;
        vt->chunk_caps[vt->chunk_count++] = cap;
        vt->chunk_used = 0;
    }
    *chunk = (uint32_t)(vt->chunk_count - 1);
    void *p = vt->chunks[vt->chunk_count - 1] + vt->chunk_used;
    vt->chunk_used += size;
    return p;
}

/* Frees the arena from `first` on (it and every later change). */
static void truncate_to(ps_vtab *vt, const ps_change *first)
{
    while (vt->chunk_count > first->chunk + 1)
        free(vt->chunks[--vt->chunk_count]);
    vt->chunk_used = (size_t)((const char *)first - vt->chunks[first->chunk]);
}

/* A change of `kind` holding copies of `vals`, in the arena; NULL without memory. */
static ps_change *change_make(ps_vtab *vt, int8_t kind, const paimon_value *vals)
{
    size_t n = vt->col_count, size = sizeof(ps_change) + n * sizeof(paimon_value);
    for (size_t i = 0; i < n; i++)
        if (vals[i].type == PAIMON_VALUE_TEXT || vals[i].type == PAIMON_VALUE_BYTES)
            size += vals[i].v.s.len;
    size = (size + 15) & ~(size_t)15;
    uint32_t chunk;
    ps_change *ch = arena_alloc(vt, size, &chunk);
    if (ch == NULL)
        return NULL;
    ch->kind = kind;
    ch->chunk = chunk;
    ch->vals = (paimon_value *)(ch + 1);
    char *bytes = (char *)(ch->vals + n);
    memcpy(ch->vals, vals, n * sizeof(paimon_value));
    for (size_t i = 0; i < n; i++)
        if (vals[i].type == PAIMON_VALUE_TEXT || vals[i].type == PAIMON_VALUE_BYTES) {
            if (vals[i].v.s.len > 0)
                memcpy(bytes, vals[i].v.s.ptr, vals[i].v.s.len);
            ch->vals[i].v.s.ptr = bytes;
            bytes += vals[i].v.s.len;
        }
    return ch;
}

static int push_change(ps_vtab *vt, ps_change *ch)
{
    if (vt->change_count == vt->change_cap) {
        size_t cap = vt->change_cap == 0 ? 64 : vt->change_cap * 2;
        ps_change **grown = sqlite3_realloc64(vt->changes, cap * sizeof(*grown));
        if (grown == NULL) {
            truncate_to(vt, ch); /* gives its bytes back */
            return SQLITE_NOMEM;
        }
        vt->changes = grown;
        vt->change_cap = cap;
    }
    vt->changes[vt->change_count++] = ch;
    return SQLITE_OK;
}

static void truncate_changes(ps_vtab *vt, size_t count)
{
    if (count >= vt->change_count)
        return;
    if (vt->colbufs != NULL)
        ps_cols_truncate(vt, count);
    else
        truncate_to(vt, vt->changes[count]);
    vt->change_count = count;
}

/* Buffers one change: into the columnar buffer (txn_arrow.c) when the table takes it, else
 * as a ps_change in the arena.  SQLITE_OK or SQLITE_NOMEM (nothing buffered). */
static int buffer_change(ps_vtab *vt, int8_t kind, const paimon_value *vals)
{
    if (vt->columnar == 0 || (vt->columnar == 1 && vt->colbufs == NULL)) {
        int on = ps_cols_init(vt);
        if (on < 0)
            return SQLITE_NOMEM;
        vt->columnar = on ? 1 : -1;
    }
    if (vt->columnar == 1)
        return ps_cols_append(vt, kind, vals);
    ps_change *ch = change_make(vt, kind, vals);
    if (ch == NULL)
        return SQLITE_NOMEM;
    return push_change(vt, ch);
}

void ps_txn_reset(ps_vtab *vt)
{
    while (vt->chunk_count > 0)
        free(vt->chunks[--vt->chunk_count]);
    vt->chunk_used = 0;
    vt->change_count = 0;
    ps_cols_free(vt); /* a transaction's buffer is not kept after it */
    for (size_t i = 0; i < vt->stash_count; i++) {
        if (vt->stash[i].texts == NULL)
            continue;
        for (size_t k = 0; k < vt->col_count; k++)
            sqlite3_free(vt->stash[i].texts[k]);
        sqlite3_free(vt->stash[i].texts);
    }
    vt->stash_count = 0;
    vt->rowid_next = 0;
}

int ps_stash_row(ps_vtab *vt, paimon_cursor *cur, const size_t *proj, int64_t rowid)
{
    paimon_error err = {0, {0}};
    if (!vt->has_pk)
        return SQLITE_OK; /* append tables take no UPDATE or DELETE */
    if ((size_t)rowid > vt->stash_cap) {
        size_t cap = vt->stash_cap == 0 ? 64 : vt->stash_cap;
        while (cap < (size_t)rowid)
            cap *= 2;
        ps_stash *grown = sqlite3_realloc64(vt->stash, cap * sizeof(*grown));
        if (grown == NULL)
            return SQLITE_NOMEM;
        vt->stash = grown;
        vt->stash_cap = cap;
    }
    while (vt->stash_count < (size_t)rowid)
        vt->stash[vt->stash_count++] = (ps_stash){NULL, NULL};
    ps_stash *s = &vt->stash[rowid - 1];
    size_t n = vt->col_count;
    if ((s->texts = sqlite3_malloc64(n * (sizeof(char *) + sizeof(size_t)) + 1)) == NULL)
        return SQLITE_NOMEM;
    memset(s->texts, 0, n * (sizeof(char *) + sizeof(size_t)));
    s->lens = (size_t *)(s->texts + n);
    for (size_t i = 0; i < n; i++) {
        const char *text;
        size_t len;
        if (proj[i] == (size_t)-1)
            continue;
        if (paimon_cursor_value_text(cur, proj[i], &text, &len, &err) != 0) {
            vt->base.zErrMsg = sqlite3_mprintf("%s", err.message);
            return SQLITE_ERROR;
        }
        if (text == NULL)
            continue;
        if (vt->cols[i].cls == PS_BLOB && len >= 7)
            s->texts[i] = (char *)ps_base64_decode(text + 7, len - 7, &s->lens[i]);
        else if ((s->texts[i] = sqlite3_malloc64(len + 1)) != NULL) {
            memcpy(s->texts[i], text, len);
            s->texts[i][len] = '\0';
            s->lens[i] = len;
        }
        if (s->texts[i] == NULL)
            return SQLITE_NOMEM;
    }
    return SQLITE_OK;
}

static int refuse(ps_vtab *vt, int code, const char *fmt, const char *what)
{
    sqlite3_free(vt->base.zErrMsg);
    vt->base.zErrMsg = sqlite3_mprintf(fmt, vt->name, what);
    return code;
}

/* The old row of `rowid` (captured at xRowid) as values: borrowed from the stash. */
static int old_values(ps_vtab *vt, sqlite3_int64 rowid, paimon_value *vals)
{
    if (rowid < 1 || (size_t)rowid > vt->stash_count || vt->stash[rowid - 1].texts == NULL)
        return refuse(vt, SQLITE_INTERNAL, "paimon: %s: %s", "the old row was not captured");
    const ps_stash *s = &vt->stash[rowid - 1];
    for (size_t i = 0; i < vt->col_count; i++) {
        memset(&vals[i], 0, sizeof(vals[i]));
        vals[i].type = s->texts[i] == NULL          ? PAIMON_VALUE_NULL
                       : vt->cols[i].cls == PS_BLOB ? PAIMON_VALUE_BYTES
                                                    : PAIMON_VALUE_TEXT;
        vals[i].v.s.ptr = s->texts[i];
        vals[i].v.s.len = s->lens[i];
    }
    return SQLITE_OK;
}

int ps_xupdate(sqlite3_vtab *vtab, int argc, sqlite3_value **argv, sqlite3_int64 *rowid)
{
    ps_vtab *vt = (ps_vtab *)vtab;
    size_t n = vt->col_count;
    paimon_value *old = NULL, *neu = NULL;
    char *scratch = NULL;
    int rc = SQLITE_OK;
    int is_delete = argc == 1, is_insert = argc > 1 && sqlite3_value_type(argv[0]) == SQLITE_NULL;
    const char *verb = is_delete ? "DELETE" : is_insert ? "INSERT" : "UPDATE";

    if (vt->read_only)
        return refuse(vt, SQLITE_READONLY, "paimon: %s: %s",
                      vt->system != NULL
                          ? "a system table is read-only"
                          : "a time-travel view (snapshot=, tag=, timestamp=) is read-only");
    if (!is_insert && !vt->has_pk)
        return refuse(vt, SQLITE_CONSTRAINT,
                      "paimon: %s: %s needs a primary-key table (an append table takes "
                      "INSERT only)",
                      verb);
    if (!is_delete && argc != (int)n + 2)
        return refuse(vt, SQLITE_INTERNAL, "paimon: %s: %s", "unexpected column count");
    /* old row, new row and 48 bytes of number text per column: the table's scratch */
    if (vt->scratch == NULL &&
        (vt->scratch = sqlite3_malloc64(n * (2 * sizeof(paimon_value) + 48) + 1)) == NULL)
        return SQLITE_NOMEM;
    old = vt->scratch;
    neu = old + n;
    scratch = (char *)(neu + n);
    if (!is_insert && (rc = old_values(vt, sqlite3_value_int64(argv[0]), old)) != SQLITE_OK)
        goto done;
    for (size_t i = 0; !is_delete && i < n; i++) {
        sqlite3_value *v = argv[2 + i];
        char *msg = NULL;
        if (!is_insert && vt->cols[i].is_pk) {
            /* xColumn left the key "unchanged" unless the statement sets it. */
            if (!sqlite3_value_nochange(v)) {
                rc = refuse(vt, SQLITE_CONSTRAINT,
                            "paimon: %s: column %s: UPDATE of a primary-key column (delete "
                            "the row and insert the new one)",
                            vt->cols[i].name);
                goto done;
            }
            neu[i] = old[i];
            continue;
        }
        if ((rc = ps_value_get(vt->name, &vt->cols[i], v, &neu[i], scratch + 48 * i, 48, &msg)) !=
            SQLITE_OK) {
            sqlite3_free(vt->base.zErrMsg);
            vt->base.zErrMsg = msg != NULL ? sqlite3_mprintf("paimon: %s", msg) : NULL;
            sqlite3_free(msg);
            goto done;
        }
    }
    if (!is_insert &&
        (rc = buffer_change(vt, is_delete ? PAIMON_ROW_DELETE : PAIMON_ROW_UPDATE_BEFORE, old)) !=
            SQLITE_OK)
        goto done;
    if (!is_delete &&
        (rc = buffer_change(vt, is_insert ? PAIMON_ROW_INSERT : PAIMON_ROW_UPDATE_AFTER, neu)) !=
            SQLITE_OK) {
        if (!is_insert)
            truncate_changes(vt, vt->change_count - 1); /* the -U without its +U */
        goto done;
    }
    if (is_insert)
        *rowid = 0;
done:
    return rc;
}

int ps_xbegin(sqlite3_vtab *vtab)
{
    ps_txn_reset((ps_vtab *)vtab);
    return SQLITE_OK;
}

/* Writes the buffer with one writer and commits it: 0, or an SQLite error with zErrMsg. */
int ps_xsync(sqlite3_vtab *vtab)
{
    ps_vtab *vt = (ps_vtab *)vtab;
    paimon_writer *w = NULL;
    paimon_commit_messages *msgs = NULL;
    paimon_error err = {0, {0}};
    paimon_commit_result result = PAIMON_COMMIT_RESULT_INIT;
    struct ArrowSchema schema;
    paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
    int64_t snapshot = 0;
    int rc = 0, written = 0;

    if (vt->change_count == 0)
        return SQLITE_OK;
    if ((rc = paimon_writer_open(&w, vt->table, NULL, &err)) != 0 ||
        (rc = paimon_commit_messages_new(&msgs, &err)) != 0)
        goto done;
    if ((rc = paimon_writer_arrow_schema(w, &schema, &err)) != 0)
        goto done;
    int arrow = vt->colbufs != NULL;
    if (arrow)
        rc = ps_write_arrow(vt, w, &schema, &err); /* txn_arrow.c: batches */
    for (size_t r = 0; !arrow && r < vt->change_count && rc == 0; r++) {
        const ps_change *ch = vt->changes[r];
        rc = paimon_writer_write_row(w, ch->vals, vt->col_count, ch->kind, &err);
    }
    schema.release(&schema);
    if (rc != 0)
        goto done;
    if ((rc = paimon_writer_prepare_commit(w, msgs, &err)) != 0)
        goto done;
    written = 1;
    co.result = &result;
    if ((rc = paimon_table_commit(vt->table, msgs, &co, &snapshot, &err)) != 0)
        goto done;
    if (snapshot > 0)
        vt->mod->commits++;
done:
    if (rc != 0) {
        if (written && !result.uncertain)
            paimon_commit_messages_abort(vt->table, msgs, NULL);
        sqlite3_free(vt->base.zErrMsg);
        vt->base.zErrMsg = sqlite3_mprintf("paimon: %s: %s", vt->name, err.message);
        rc = err.code == PAIMON_ENOMEM     ? SQLITE_NOMEM
             : err.code == PAIMON_EINVALID ? SQLITE_CONSTRAINT
                                           : SQLITE_ERROR;
    }
    paimon_writer_free(w);
    paimon_commit_messages_free(msgs);
    return rc;
}

int ps_xcommit(sqlite3_vtab *vtab)
{
    ps_txn_reset((ps_vtab *)vtab);
    return SQLITE_OK;
}

int ps_xrollback(sqlite3_vtab *vtab)
{
    ps_txn_reset((ps_vtab *)vtab);
    return SQLITE_OK;
}

int ps_xsavepoint(sqlite3_vtab *vtab, int level)
{
    ps_vtab *vt = (ps_vtab *)vtab;
    if (level < 0)
        return SQLITE_OK;
    if ((size_t)level >= vt->savepoint_cap) {
        size_t cap = (size_t)level + 8;
        size_t *grown = sqlite3_realloc64(vt->savepoints, cap * sizeof(*grown));
        if (grown == NULL)
            return SQLITE_NOMEM;
        for (size_t i = vt->savepoint_cap; i < cap; i++)
            grown[i] = (size_t)-1; /* never opened */
        vt->savepoints = grown;
        vt->savepoint_cap = cap;
    }
    vt->savepoints[level] = vt->change_count;
    return SQLITE_OK;
}

int ps_xrelease(sqlite3_vtab *vtab, int level)
{
    (void)vtab;
    (void)level;
    return SQLITE_OK;
}

int ps_xrollback_to(sqlite3_vtab *vtab, int level)
{
    ps_vtab *vt = (ps_vtab *)vtab;
    if (level >= 0 && (size_t)level < vt->savepoint_cap && vt->savepoints[level] != (size_t)-1)
        truncate_changes(vt, vt->savepoints[level]);
    return SQLITE_OK;
}
