/*
 * The `paimon` SQLite virtual-table module (docs/SQL.md): a Paimon table as an SQL table.
 *
 *   CREATE VIRTUAL TABLE orders USING paimon('wh/shop.db/orders'
 *                                            [, 'snapshot=N' | 'tag=NAME' | 'timestamp=MS']);
 *   CREATE VIRTUAL TABLE snaps USING paimon('wh/shop.db/orders$snapshots');
 *
 * Columns and their affinities come from the scan's columns (values.c).  xBestIndex pushes
 * the usable constraints (=, <, <=, >, >=, !=, IS [NOT] NULL, and IN as one = per value) and
 * the columns SQLite uses (colUsed) into the scan that xFilter plans, so that partition
 * pruning, file statistics and bloom-filter indexes skip what cannot match; it never sets
 * `omit`, so SQLite applies every constraint again and results never depend on pushdown.
 * LIMIT (SQLite 3.38+) is taken only when the query has no other constraint on the table.
 * Costs come from the row counts of the latest snapshot's files (its manifests).
 *
 * idxStr, which EXPLAIN QUERY PLAN shows, is also how xBestIndex tells xFilter its plan:
 * constraints in argv order as "C.NAME OP ?" (C the column index) joined by " AND ", then
 * "LIMIT ?" / "OFFSET ?", then "[cols C,C..]" when only some columns are read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite_int.h"

#define PS_NO_COLUMN ((size_t)-1)

typedef struct ps_cursor {
    sqlite3_vtab_cursor base; /* must be first */
    paimon_scan *scan;        /* the scan of this xFilter */
    paimon_cursor *cur;       /* its rows */
    size_t *proj;             /* vtab column -> cursor column, PS_NO_COLUMN when not read */
    int eof;                  /* no current row */
    int64_t count;            /* rows returned */
    int64_t limit;            /* stop after this many rows (LIMIT + OFFSET), -1: none */
    int64_t rowid;            /* this row's rowid (0 until xRowid asks) */
    int fast;                 /* rows come from `batch` (batch.c), not the cursor's text */
    ps_batch batch;           /* the cursor's Arrow stream when `fast` */
} ps_cursor;

PM_MUST_CHECK static int set_error(sqlite3_vtab *vt, const paimon_error *err)
{
    sqlite3_free(vt->zErrMsg);
    vt->zErrMsg = sqlite3_mprintf("%s", err->message);
    return err->code == PAIMON_ENOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
}

/* An argument as written: 'x' or "x" unquoted ('' -> '). */
static char *unquote(const char *arg)
{
    size_t n = strlen(arg);
    char *out = sqlite3_malloc64(n + 1), q = arg[0];
    size_t j = 0;
    if (out == NULL)
        return NULL;
    if ((q == '\'' || q == '"') && n >= 2 && arg[n - 1] == q) {
        for (size_t i = 1; i + 1 < n; i++) {
            out[j++] = arg[i];
            if (arg[i] == q && arg[i + 1] == q)
                i++;
        }
    } else {
        memcpy(out, arg, n);
        j = n;
    }
    out[j] = '\0';
    return out;
}

static void vtab_free(ps_vtab *vt)
{
    if (vt == NULL)
        return;
    ps_txn_reset(vt);
    sqlite3_free(vt->changes);
    sqlite3_free(vt->stash);
    sqlite3_free(vt->savepoints);
    sqlite3_free(vt->scratch);
    free(vt->chunks);
    free(vt->chunk_caps);
    for (size_t i = 0; i < vt->col_count; i++)
        ps_column_clear(&vt->cols[i]);
    sqlite3_free(vt->cols);
    paimon_table_free(vt->table);
    sqlite3_free(vt->name);
    sqlite3_free(vt->path);
    sqlite3_free(vt->tag);
    sqlite3_free(vt->base.zErrMsg);
    sqlite3_free(vt);
}

static void scan_options(const ps_vtab *vt, paimon_scan_options *o)
{
    o->snapshot_id = vt->snapshot_id;
    o->tag = vt->tag;
    o->use_timestamp = vt->use_timestamp;
    o->timestamp_millis = vt->timestamp_millis;
    o->system_table = vt->system;
}

/* The time-travel argument `arg` ("snapshot=3"): 0, or an SQLite error with *msg. */
static int parse_arg(ps_vtab *vt, const char *arg, char **msg)
{
    const char *eq = strchr(arg, '=');
    char *end = NULL;
    if (eq == NULL) {
        *msg = sqlite3_mprintf("paimon: %s: argument '%s' is not snapshot=N, tag=NAME or "
                               "timestamp=MILLIS",
                               vt->name, arg);
        return SQLITE_ERROR;
    }
    if (vt->snapshot_id > 0 || vt->tag != NULL || vt->use_timestamp) {
        *msg = sqlite3_mprintf("paimon: %s: give at most one of snapshot=, tag= and timestamp=",
                               vt->name);
        return SQLITE_ERROR;
    }
    if (strncmp(arg, "snapshot=", 9) == 0) {
        vt->snapshot_id = strtoll(eq + 1, &end, 10);
        if (*end != '\0' || vt->snapshot_id < 1) {
            *msg = sqlite3_mprintf("paimon: %s: snapshot=%s is not a positive snapshot id",
                                   vt->name, eq + 1);
            return SQLITE_ERROR;
        }
    } else if (strncmp(arg, "tag=", 4) == 0) {
        if ((vt->tag = sqlite3_mprintf("%s", eq + 1)) == NULL)
            return SQLITE_NOMEM;
    } else if (strncmp(arg, "timestamp=", 10) == 0) {
        vt->use_timestamp = 1;
        vt->timestamp_millis = strtoll(eq + 1, &end, 10);
        if (*end != '\0' || eq[1] == '\0') {
            *msg = sqlite3_mprintf("paimon: %s: timestamp=%s is not epoch milliseconds", vt->name,
                                   eq + 1);
            return SQLITE_ERROR;
        }
    } else {
        *msg = sqlite3_mprintf("paimon: %s: unknown argument '%s' (snapshot=N, tag=NAME or "
                               "timestamp=MILLIS)",
                               vt->name, arg);
        return SQLITE_ERROR;
    }
    vt->read_only = 1;
    return SQLITE_OK;
}

/* Marks cols[].is_pk and is_part in the comma-separated `names`. */
static void mark(ps_vtab *vt, const char *names, int pk)
{
    while (names != NULL && *names != '\0') {
        size_t n = strcspn(names, ",");
        for (size_t i = 0; i < vt->col_count; i++)
            if (strlen(vt->cols[i].name) == n && memcmp(vt->cols[i].name, names, n) == 0) {
                if (pk)
                    vt->cols[i].is_pk = vt->has_pk = 1;
                else
                    vt->cols[i].is_part = 1;
            }
        names += n + (names[n] == ',');
    }
}

/* The primary and partition keys of the latest schema. */
PM_MUST_CHECK static int mark_keys(ps_vtab *vt, paimon_error *err)
{
    paimon_list *list = NULL;
    int rc = paimon_table_schemas(vt->table, &list, err);
    if (rc != 0 || paimon_list_count(list) == 0)
        goto done;
    const paimon_schema_info *schema = paimon_list_schema(list, paimon_list_count(list) - 1);
    mark(vt, schema->primary_keys, 1);
    mark(vt, schema->partition_keys, 0);
done:
    paimon_list_free(list);
    return rc;
}

static int xconnect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                    char **msg)
{
    ps_vtab *vt = NULL;
    paimon_scan *scan = NULL;
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    sqlite3_str *decl = NULL;
    char *declared = NULL;
    int rc = SQLITE_OK;

    if (argc < 4 || argc > 5) {
        *msg = sqlite3_mprintf("paimon: %s: USING paimon('TABLE PATH' [, 'snapshot=N' | "
                               "'tag=NAME' | 'timestamp=MILLIS'])",
                               argc > 2 ? argv[2] : "?");
        return SQLITE_ERROR;
    }
    if ((vt = sqlite3_malloc64(sizeof(*vt))) == NULL)
        return SQLITE_NOMEM;
    memset(vt, 0, sizeof(*vt));
    vt->db = db;
    vt->mod = aux;
    vt->est_rows = -1;
    if ((vt->name = sqlite3_mprintf("%s", argv[2])) == NULL ||
        (vt->path = unquote(argv[3])) == NULL) {
        rc = SQLITE_NOMEM;
        goto done;
    }
    if (argc == 5) {
        char *arg = unquote(argv[4]);
        rc = arg == NULL ? SQLITE_NOMEM : parse_arg(vt, arg, msg);
        sqlite3_free(arg);
        if (rc != SQLITE_OK)
            goto done;
    }
    /* TABLE$NAME names a system table when no file of that name exists (DESIGN.md). */
    char *dollar = strrchr(vt->path, '$');
    bool exists = false;
    if (dollar != NULL && strchr(dollar, '/') == NULL &&
        paimon_path_exists(vt->path, &exists, NULL) == 0 && !exists) {
        *dollar = '\0';
        vt->system = dollar + 1;
        vt->read_only = 1;
    }
    if (paimon_table_open(&vt->table, vt->path, &err) != 0) {
        *msg = sqlite3_mprintf("paimon: %s: %s", vt->name, err.message);
        rc = SQLITE_ERROR;
        goto done;
    }
    scan_options(vt, &o);
    if (paimon_table_scan(&scan, vt->table, &o, &err) != 0) {
        *msg = sqlite3_mprintf("paimon: %s: %s", vt->name, err.message);
        rc = SQLITE_ERROR;
        goto done;
    }
    vt->col_count = paimon_scan_column_count(scan);
    if ((vt->cols = sqlite3_malloc64(vt->col_count * sizeof(*vt->cols) + 1)) == NULL) {
        rc = SQLITE_NOMEM;
        goto done;
    }
    memset(vt->cols, 0, vt->col_count * sizeof(*vt->cols));
    for (size_t i = 0; i < vt->col_count; i++) {
        vt->cols[i].name = sqlite3_mprintf("%s", paimon_scan_column_name(scan, i));
        if (vt->cols[i].name == NULL ||
            ps_column_init(&vt->cols[i], paimon_scan_column_type(scan, i)) != 0) {
            rc = SQLITE_NOMEM;
            goto done;
        }
    }
    /* The rows of the snapshot's files, for the planner's costs. */
    vt->est_rows = 0;
    for (size_t s = 0; s < paimon_scan_split_count(scan); s++) {
        paimon_split_info info;
        paimon_split_file f;
        if (paimon_scan_split(scan, s, &info, NULL) != 0)
            continue;
        if (info.file_count == 0)
            vt->est_rows += 100; /* a system table's split */
        for (size_t k = 0; k < info.file_count; k++)
            if (paimon_scan_split_file(scan, s, k, &f, NULL) == 0)
                vt->est_rows += f.row_count;
    }
    if (vt->system == NULL && mark_keys(vt, &err) != 0) {
        *msg = sqlite3_mprintf("paimon: %s: %s", vt->name, err.message);
        rc = SQLITE_ERROR;
        goto done;
    }
    decl = sqlite3_str_new(db);
    sqlite3_str_appendall(decl, "CREATE TABLE x(");
    for (size_t i = 0; i < vt->col_count; i++) {
        const ps_column *col = &vt->cols[i];
        sqlite3_str_appendf(decl, "%s\"%w\" ", i > 0 ? ", " : "", col->name);
        if (col->cls == PS_DECIMAL)
            sqlite3_str_appendf(decl, "DECIMAL(%d, %d)", col->precision, col->scale);
        else
            sqlite3_str_appendall(decl, ps_column_decltype(col));
    }
    sqlite3_str_appendall(decl, ")");
    if ((declared = sqlite3_str_finish(decl)) == NULL) {
        rc = SQLITE_NOMEM;
        goto done;
    }
    if ((rc = sqlite3_declare_vtab(db, declared)) != SQLITE_OK) {
        *msg = sqlite3_mprintf("paimon: %s: cannot declare the columns: %s", vt->name,
                               sqlite3_errmsg(db));
        goto done;
    }
    *out = &vt->base;
    vt = NULL;
done:
    sqlite3_free(declared);
    paimon_scan_free(scan);
    vtab_free(vt);
    return rc;
}

static int xdisconnect(sqlite3_vtab *vtab)
{
    vtab_free((ps_vtab *)vtab);
    return SQLITE_OK;
}

static const char *op_text(unsigned char op)
{
    switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: return "=?";
    case SQLITE_INDEX_CONSTRAINT_GT: return ">?";
    case SQLITE_INDEX_CONSTRAINT_GE: return ">=?";
    case SQLITE_INDEX_CONSTRAINT_LT: return "<?";
    case SQLITE_INDEX_CONSTRAINT_LE: return "<=?";
    case SQLITE_INDEX_CONSTRAINT_NE: return "!=?";
    case SQLITE_INDEX_CONSTRAINT_ISNULL: return " IS NULL";
    case SQLITE_INDEX_CONSTRAINT_ISNOTNULL: return " IS NOT NULL";
    default: return NULL;
    }
}

static int xbestindex(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
    ps_vtab *vt = (ps_vtab *)vtab;
    sqlite3_str *plan = sqlite3_str_new(vt->db);
    /* rows: what the scan returns; read: what it decodes (partition pruning only cuts
     * that; statistics may, but are not counted on).  Every xFilter plans a scan, which
     * reads manifests: a fixed cost per scan keeps SQLite from probing per outer row. */
    double rows = vt->est_rows >= 0 ? (double)vt->est_rows : 1e6, read = rows;
    int argv_next = 1, others = 0, pushed = 0, pk_eq = 0, npk = 0;

    for (size_t i = 0; i < vt->col_count; i++)
        npk += vt->cols[i].is_pk;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->op != SQLITE_INDEX_CONSTRAINT_LIMIT && c->op != SQLITE_INDEX_CONSTRAINT_OFFSET)
            others++;
        if (!c->usable || c->iColumn < 0 || op_text(c->op) == NULL)
            continue;
        const char *op = op_text(c->op);
        sqlite3_str_appendf(plan, "%s%d.%s%s", pushed > 0 ? " AND " : "", c->iColumn,
                            vt->cols[c->iColumn].name, op);
        pushed++;
        if (op[strlen(op) - 1] == '?')
            info->aConstraintUsage[i].argvIndex = argv_next++;
        if (c->op == SQLITE_INDEX_CONSTRAINT_EQ) {
            rows /= 10;
            read /= vt->cols[c->iColumn].is_part ? 10 : 1;
            pk_eq += vt->cols[c->iColumn].is_pk;
        } else if (c->op != SQLITE_INDEX_CONSTRAINT_NE &&
                   c->op != SQLITE_INDEX_CONSTRAINT_ISNOTNULL) {
            rows /= 3;
            read /= vt->cols[c->iColumn].is_part ? 3 : 1;
        }
    }
    /* LIMIT and OFFSET bound the rows only when SQLite filters nothing else here. */
    if (others == 0)
        for (int i = 0; i < info->nConstraint; i++) {
            const struct sqlite3_index_constraint *c = &info->aConstraint[i];
            if (!c->usable ||
                (c->op != SQLITE_INDEX_CONSTRAINT_LIMIT && c->op != SQLITE_INDEX_CONSTRAINT_OFFSET))
                continue;
            sqlite3_str_appendf(plan, "%s%s", pushed > 0 ? " " : "",
                                c->op == SQLITE_INDEX_CONSTRAINT_LIMIT ? "LIMIT ?" : "OFFSET ?");
            pushed++;
            info->aConstraintUsage[i].argvIndex = argv_next++;
        }
    /* Columns read: those SQLite uses; every column of a primary-key table (UPDATE and
     * DELETE write whole -U/-D rows); at least one. */
    if (!vt->has_pk && vt->col_count > 0) {
        int all = 1;
        for (size_t i = 0; i < vt->col_count; i++)
            if (!(info->colUsed & ((sqlite3_uint64)1 << (i < 63 ? i : 63))))
                all = 0;
        if (!all) {
            int first = 1;
            sqlite3_str_appendf(plan, "%s[cols ", pushed > 0 ? " " : "");
            for (size_t i = 0; i < vt->col_count; i++)
                if (info->colUsed & ((sqlite3_uint64)1 << (i < 63 ? i : 63))) {
                    sqlite3_str_appendf(plan, "%s%lld", first ? "" : ",", (long long)i);
                    first = 0;
                }
            if (first)
                sqlite3_str_appendall(plan, "0");
            sqlite3_str_appendall(plan, "]");
        }
    }
    if (npk > 0 && pk_eq >= npk) {
        rows = 1;
        info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    }
    if (rows < 1)
        rows = 1;
    info->estimatedRows = (sqlite3_int64)rows;
    info->estimatedCost = 1000.0 + (read > rows ? read : rows);
    if (sqlite3_str_errcode(plan) != SQLITE_OK) {
        sqlite3_free(sqlite3_str_finish(plan));
        return SQLITE_NOMEM;
    }
    info->idxStr = sqlite3_str_finish(plan); /* NULL when empty: no constraint, every column */
    info->needToFreeIdxStr = 1;
    return SQLITE_OK;
}

static int xopen(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
    ps_cursor *c = sqlite3_malloc64(sizeof(*c));
    if (c == NULL)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof(*c));
    c->eof = 1;
    *out = &c->base;
    return SQLITE_OK;
}

static void cursor_reset(ps_cursor *c)
{
    if (c->fast)
        ps_batch_close(&c->batch); /* before the scan it borrows */
    c->fast = 0;
    paimon_cursor_free(c->cur);
    paimon_scan_free(c->scan);
    sqlite3_free(c->proj);
    c->cur = NULL;
    c->scan = NULL;
    c->proj = NULL;
    c->eof = 1;
    c->count = 0;
    c->limit = -1;
}

static int xclose(sqlite3_vtab_cursor *cursor)
{
    cursor_reset((ps_cursor *)cursor);
    sqlite3_free(cursor);
    return SQLITE_OK;
}

static int step(ps_cursor *c)
{
    ps_vtab *vt = (ps_vtab *)c->base.pVtab;
    paimon_error err; /* filled on failure only: zeroing 516 bytes a row costs */
    c->rowid = 0;
    if (c->limit >= 0 && c->count >= c->limit) {
        c->eof = 1;
        return SQLITE_OK;
    }
    if (c->fast) {
        char *msg = NULL;
        if (ps_batch_next(&c->batch, &c->eof, &msg) != SQLITE_OK) {
            c->eof = 1;
            sqlite3_free(vt->base.zErrMsg);
            vt->base.zErrMsg = msg;
            return SQLITE_ERROR;
        }
        if (!c->eof) {
            c->count++;
            vt->mod->rows++;
        }
        return SQLITE_OK;
    }
    int rc = paimon_cursor_next(c->cur, &err);
    if (rc == PAIMON_ITEROVER) {
        c->eof = 1;
        return SQLITE_OK;
    }
    if (rc != 0) {
        c->eof = 1;
        return set_error(&vt->base, &err);
    }
    c->eof = 0;
    c->count++;
    vt->mod->rows++;
    return SQLITE_OK;
}

/* The plan of xbestindex (idxStr) applied: filter text, columns and limit. */
static int apply_plan(ps_vtab *vt, ps_cursor *c, const char *plan, int argc, sqlite3_value **argv,
                      sqlite3_str *filter, int *cols_given)
{
    const char *p = plan != NULL ? plan : "";
    int arg = 0, terms = 0;
    int64_t limit = -1, offset = 0;
    while (*p != '\0') {
        if (strncmp(p, " AND ", 5) == 0 || *p == ' ') {
            p += *p == ' ' && strncmp(p, " AND ", 5) != 0 ? 1 : 5;
            continue;
        }
        if (strncmp(p, "LIMIT ?", 7) == 0 || strncmp(p, "OFFSET ?", 8) == 0) {
            int is_limit = p[0] == 'L';
            if (arg < argc) {
                int64_t v = sqlite3_value_int64(argv[arg]);
                if (is_limit)
                    limit = v < 0 ? -1 : v;
                else
                    offset = v < 0 ? 0 : v;
            }
            arg++;
            p += is_limit ? 7 : 8;
            continue;
        }
        if (strncmp(p, "[cols ", 6) == 0) {
            p += 6;
            *cols_given = 1;
            while (*p != ']' && *p != '\0') {
                const char *start = p;
                size_t col = (size_t)strtoul(p, (char **)&p, 10);
                if (p == start)
                    return SQLITE_INTERNAL; /* not a plan of xbestindex */
                if (col < vt->col_count)
                    c->proj[col] = 0;
                if (*p == ',')
                    p++;
            }
            if (*p == ']')
                p++;
            continue;
        }
        /* C.NAME OP */
        size_t col = (size_t)strtoul(p, (char **)&p, 10);
        if (*p != '.' || col >= vt->col_count)
            return SQLITE_INTERNAL;
        p += 1 + strlen(vt->cols[col].name);
        const char *op_end = p;
        if (strncmp(p, " IS NOT NULL", 12) == 0 || strncmp(p, " IS NULL", 8) == 0) {
            op_end += strncmp(p, " IS NOT NULL", 12) == 0 ? 12 : 8;
            if (strchr(vt->cols[col].name, '`') == NULL) {
                sqlite3_str_appendf(filter, "%s`%s`%.*s", terms > 0 ? " AND " : "",
                                    vt->cols[col].name, (int)(op_end - p), p);
                terms++;
            }
            p = op_end;
            continue;
        }
        while (*op_end != '?' && *op_end != '\0')
            op_end++;
        if (*op_end != '?' || arg >= argc)
            return SQLITE_INTERNAL;
        sqlite3_str *lit = sqlite3_str_new(vt->db);
        /* A name holding a back quote cannot be quoted in a filter: not pushed. */
        if (strchr(vt->cols[col].name, '`') == NULL &&
            ps_literal(lit, &vt->cols[col], argv[arg]) == 0) {
            if (sqlite3_str_errcode(lit) != SQLITE_OK) {
                sqlite3_free(sqlite3_str_finish(lit));
                return SQLITE_NOMEM;
            }
            char *l = sqlite3_str_finish(lit);
            sqlite3_str_appendf(filter, "%s`%s` %.*s %s", terms > 0 ? " AND " : "",
                                vt->cols[col].name, (int)(op_end - p), p, l != NULL ? l : "''");
            sqlite3_free(l);
            terms++;
        } else
            sqlite3_free(sqlite3_str_finish(lit));
        arg++;
        p = op_end + 1;
    }
    if (limit >= 0)
        c->limit = limit + offset;
    return SQLITE_OK;
}

static int xfilter(sqlite3_vtab_cursor *cursor, int idx_num, const char *idx_str, int argc,
                   sqlite3_value **argv)
{
    ps_cursor *c = (ps_cursor *)cursor;
    ps_vtab *vt = (ps_vtab *)cursor->pVtab;
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    sqlite3_str *filter = sqlite3_str_new(vt->db);
    char *filter_text = NULL;
    const char **names = NULL;
    size_t name_count = 0;
    int cols_given = 0, rc;

    cursor_reset(c);
    if ((c->proj = sqlite3_malloc64(vt->col_count * sizeof(size_t) + 1)) == NULL ||
        (names = sqlite3_malloc64(vt->col_count * sizeof(char *) + 1)) == NULL) {
        rc = SQLITE_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < vt->col_count; i++)
        c->proj[i] = PS_NO_COLUMN;
    if ((rc = apply_plan(vt, c, idx_str, argc, argv, filter, &cols_given)) != SQLITE_OK)
        goto done;
    for (size_t i = 0; i < vt->col_count; i++)
        if (!cols_given || c->proj[i] != PS_NO_COLUMN) {
            c->proj[i] = name_count;
            names[name_count++] = vt->cols[i].name;
        }
    filter_text = sqlite3_str_finish(filter);
    filter = NULL;
    scan_options(vt, &o);
    o.columns = cols_given ? names : NULL;
    o.column_count = cols_given ? name_count : 0;
    o.filter = filter_text != NULL && filter_text[0] != '\0' ? filter_text : NULL;
    if (paimon_table_scan(&c->scan, vt->table, &o, &err) != 0 ||
        paimon_scan_cursor(&c->cur, c->scan, &err) != 0) {
        rc = set_error(&vt->base, &err);
        goto done;
    }
    /* The fast path when every column read has one (not for primary-key tables, whose
     * UPDATE and DELETE capture old rows through the cursor). */
    c->fast = !vt->has_pk && name_count <= PS_BATCH_MAX_COLUMNS;
    for (size_t i = 0; i < vt->col_count && c->fast; i++)
        if (c->proj[i] != PS_NO_COLUMN && !ps_batch_supported(&vt->cols[i]))
            c->fast = 0;
    if (c->fast) {
        char *msg = NULL;
        if ((rc = ps_batch_open(&c->batch, c->cur, &msg)) != SQLITE_OK) {
            sqlite3_free(vt->base.zErrMsg);
            vt->base.zErrMsg = msg;
            goto done;
        }
    }
    vt->mod->scans++;
    for (size_t s = 0; s < paimon_scan_split_count(c->scan); s++) {
        paimon_split_info info;
        if (paimon_scan_split(c->scan, s, &info, NULL) == 0) {
            vt->mod->splits++;
            vt->mod->files += (int64_t)info.file_count;
        }
    }
    rc = step(c);
done:
    (void)idx_num;
    if (filter != NULL)
        sqlite3_free(sqlite3_str_finish(filter));
    sqlite3_free(filter_text);
    sqlite3_free(names);
    return rc;
}

static int xnext(sqlite3_vtab_cursor *cursor)
{
    return step((ps_cursor *)cursor);
}

static int xeof(sqlite3_vtab_cursor *cursor)
{
    return ((ps_cursor *)cursor)->eof;
}

static int xcolumn(sqlite3_vtab_cursor *cursor, sqlite3_context *ctx, int i)
{
    ps_cursor *c = (ps_cursor *)cursor;
    ps_vtab *vt = (ps_vtab *)cursor->pVtab;
    paimon_error err; /* filled on failure only (this runs once per value) */
    const char *text;
    size_t len;
    if (i < 0 || (size_t)i >= vt->col_count || c->proj[i] == PS_NO_COLUMN) {
        sqlite3_result_null(ctx);
        return SQLITE_OK;
    }
    /* An UPDATE that leaves a primary-key column alone reads it as "unchanged", so that
     * xUpdate can tell an UPDATE of the key (refused) from one of other columns. */
    if (vt->cols[i].is_pk && sqlite3_vtab_nochange(ctx))
        return SQLITE_OK;
    if (c->fast) {
        ps_batch_result(&c->batch, ctx, c->proj[i]);
        return SQLITE_OK;
    }
    if (paimon_cursor_value_text(c->cur, c->proj[i], &text, &len, &err) != 0) {
        sqlite3_result_error(ctx, err.message, -1);
        return SQLITE_ERROR;
    }
    ps_result(ctx, &vt->cols[i], text, len);
    return SQLITE_OK;
}

static int xrowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid)
{
    ps_cursor *c = (ps_cursor *)cursor;
    ps_vtab *vt = (ps_vtab *)cursor->pVtab;
    if (c->rowid == 0) {
        c->rowid = ++vt->rowid_next;
        if (!vt->read_only) {
            int rc = ps_stash_row(vt, c->cur, c->proj, c->rowid);
            if (rc != SQLITE_OK)
                return rc;
        }
    }
    *rowid = c->rowid;
    return SQLITE_OK;
}

static int xrename(sqlite3_vtab *vtab, const char *name)
{
    (void)vtab;
    (void)name;
    return SQLITE_OK;
}

static const sqlite3_module PAIMON_MODULE = {
    .iVersion = 2,
    .xCreate = xconnect,
    .xConnect = xconnect,
    .xBestIndex = xbestindex,
    .xDisconnect = xdisconnect,
    .xDestroy = xdisconnect,
    .xOpen = xopen,
    .xClose = xclose,
    .xFilter = xfilter,
    .xNext = xnext,
    .xEof = xeof,
    .xColumn = xcolumn,
    .xRowid = xrowid,
    .xUpdate = ps_xupdate,
    .xBegin = ps_xbegin,
    .xSync = ps_xsync,
    .xCommit = ps_xcommit,
    .xRollback = ps_xrollback,
    .xRename = xrename,
    .xSavepoint = ps_xsavepoint,
    .xRelease = ps_xrelease,
    .xRollbackTo = ps_xrollback_to,
};

/* paimon_stats(): the connection's counters as JSON (tests check pushdown with them). */
static void stats_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const ps_module *m = sqlite3_user_data(ctx);
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx,
                        sqlite3_mprintf("{\"scans\":%lld,\"splits\":%lld,\"files\":%lld,"
                                        "\"rows\":%lld,\"commits\":%lld}",
                                        (long long)m->scans, (long long)m->splits,
                                        (long long)m->files, (long long)m->rows,
                                        (long long)m->commits),
                        -1, sqlite3_free);
}

int ps_register(sqlite3 *db, char **errmsg)
{
    ps_module *m = sqlite3_malloc64(sizeof(*m));
    int rc;
    if (m == NULL)
        return SQLITE_NOMEM;
    memset(m, 0, sizeof(*m));
    rc = sqlite3_create_function_v2(db, "paimon_stats", 0, SQLITE_UTF8, m, stats_fn, NULL, NULL,
                                    NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_module_v2(db, "paimon", &PAIMON_MODULE, m, sqlite3_free);
    else
        sqlite3_free(m);
    if (rc != SQLITE_OK && errmsg != NULL)
        *errmsg = sqlite3_mprintf("paimon: cannot register the module: %s", sqlite3_errmsg(db));
    return rc;
}
