/*
 * Source and target schemas of the CDC source (pg_schema.h).  The Paimon schema is read
 * from the public inspection API's schema JSON (its "fields" and "primaryKeys", Java's
 * names), parsed with jansson.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cdc_util.h"
#include "pg_conn.h"
#include "pg_schema.h"
#include "pg_types.h"

void pm_cdc_schema_free(pm_cdc_schema *s)
{
    for (size_t i = 0; s->cols != NULL && i < s->count; i++) {
        free(s->cols[i].name);
        free(s->cols[i].type);
    }
    free(s->cols);
    memset(s, 0, sizeof(*s));
}

/* The type of a schema field as pm_pgtype_map() writes it: a string as it is, an ARRAY
 * object ({"type": "ARRAY", "element": ...}) as "ARRAY<element>"; NULL for other nested
 * types, which no PostgreSQL type maps to, or when out of memory. */
static char *field_type(const json_t *t)
{
    const char *kind = json_string_value(json_object_get(t, "type"));
    char *elem, *out;
    size_t n;
    if (json_is_string(t))
        return strdup(json_string_value(t));
    if (kind == NULL || strncmp(kind, "ARRAY", 5) != 0 || (kind[5] != '\0' && kind[5] != ' ') ||
        (elem = field_type(json_object_get(t, "element"))) == NULL)
        return NULL;
    n = strlen(elem) + strlen(kind) + 3;
    if ((out = malloc(n)) != NULL)
        snprintf(out, n, "ARRAY<%s>%s", elem, kind + 5); /* kind + 5: "" or " NOT NULL" */
    free(elem);
    return out;
}

int pm_cdc_schema_read(const char *path, pm_cdc_schema *out, paimon_error *err)
{
    paimon_table *t = NULL;
    paimon_list *list = NULL;
    const paimon_schema_info *info;
    json_t *root = NULL, *fields, *pks;
    json_error_t jerr;
    int rc = 0;
    memset(out, 0, sizeof(*out));
    if ((rc = paimon_table_open(&t, path, err)) != 0 ||
        (rc = paimon_table_schemas(t, &list, err)) != 0)
        goto done;
    if (paimon_list_count(list) == 0) {
        rc = pm_cdc_err(err, PAIMON_ENOTFOUND, "%s: no schema", path);
        goto done;
    }
    info = paimon_list_schema(list, paimon_list_count(list) - 1);
    root = json_loads(info->json, 0, &jerr);
    fields = root != NULL ? json_object_get(root, "fields") : NULL;
    pks = root != NULL ? json_object_get(root, "primaryKeys") : NULL;
    if (!json_is_array(fields)) {
        rc = pm_cdc_err(err, PAIMON_ECORRUPT, "%s: schema %lld has no fields", path,
                        (long long)info->id);
        goto done;
    }
    out->count = json_array_size(fields);
    out->pk_count = json_is_array(pks) ? json_array_size(pks) : 0;
    if ((out->cols = calloc(out->count + 1, sizeof(*out->cols))) == NULL) {
        rc = pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < out->count; i++) {
        json_t *f = json_array_get(fields, i);
        const char *name = json_string_value(json_object_get(f, "name"));
        char *type = field_type(json_object_get(f, "type"));
        size_t tl;
        if (name == NULL || type == NULL) {
            free(type);
            rc = pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                            "%s: column %zu has a nested type other than ARRAY; no "
                            "PostgreSQL column maps to it",
                            path, i + 1);
            goto done;
        }
        tl = strlen(type);
        if (tl > 9 && strcmp(type + tl - 9, " NOT NULL") == 0)
            tl -= 9;
        out->cols[i].name = strdup(name);
        out->cols[i].type = strndup(type, tl);
        free(type);
        for (size_t k = 0; k < out->pk_count; k++)
            if (json_string_value(json_array_get(pks, k)) != NULL &&
                strcmp(json_string_value(json_array_get(pks, k)), name) == 0)
                out->cols[i].pk = true;
        if (out->cols[i].name == NULL || out->cols[i].type == NULL) {
            rc = pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
            goto done;
        }
    }
done:
    if (rc != 0)
        pm_cdc_schema_free(out);
    json_decref(root);
    paimon_list_free(list);
    paimon_table_free(t);
    return rc;
}

int pm_cdc_schema_find(const pm_cdc_schema *s, const char *name)
{
    for (size_t i = 0; i < s->count; i++)
        if (strcmp(s->cols[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Splits "schema.name" (no dot: public). */
static void split_qualified(const char *q, char *nsp, size_t nsp_cap, char *rel, size_t rel_cap)
{
    const char *dot = strchr(q, '.');
    if (dot == NULL) {
        snprintf(nsp, nsp_cap, "public");
        snprintf(rel, rel_cap, "%s", q);
    } else {
        snprintf(nsp, nsp_cap, "%.*s", (int)(dot - q), q);
        snprintf(rel, rel_cap, "%s", dot + 1);
    }
}

int pm_cdc_source_find(PGconn *sql, const char *qualified, uint32_t *oid, paimon_error *err)
{
    char nsp[256], rel[256], where[256];
    const char *params[2] = {nsp, rel};
    PGresult *res = NULL;
    int rc;
    split_qualified(qualified, nsp, sizeof(nsp), rel, sizeof(rel));
    rc = pm_pg_exec_params(sql,
                           "SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = "
                           "c.relnamespace WHERE n.nspname = $1 AND c.relname = $2 AND "
                           "c.relkind IN ('r', 'p')",
                           2, params, &res, err);
    if (rc != 0)
        return rc;
    if (PQntuples(res) != 1) {
        PQclear(res);
        return pm_cdc_err(err, PAIMON_ENOTFOUND,
                          "%s: table %s does not exist (give --table SCHEMA.NAME of an existing "
                          "table)",
                          pm_pg_where(sql, where, sizeof(where)), qualified);
    }
    *oid = (uint32_t)strtoul(PQgetvalue(res, 0, 0), NULL, 10);
    PQclear(res);
    return 0;
}

/* A column name for the COLUMNS syntax: plain, or back-quoted. */
static int put_name(pm_cdc_buf *b, const char *name)
{
    bool plain =
        (name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z') || name[0] == '_';
    int rc = 0;
    for (const char *p = name; plain && *p != '\0'; p++)
        plain = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_' ||
                (*p >= '0' && *p <= '9');
    if (plain)
        return pm_cdc_buf_put(b, name, strlen(name));
    rc = pm_cdc_buf_putc(b, '`');
    for (const char *p = name; rc == 0 && *p != '\0'; p++)
        rc = *p == '`' ? pm_cdc_buf_put(b, "``", 2) : pm_cdc_buf_putc(b, *p);
    return rc != 0 ? rc : pm_cdc_buf_putc(b, '`');
}

int pm_cdc_create_table(PGconn *sql, uint32_t oid, const char *qualified, const char *path,
                        const char *const *option_keys, const char *const *option_values,
                        size_t option_count, paimon_error *err)
{
    char oidtext[16], type[96], what[300];
    const char *params[1] = {oidtext};
    PGresult *cols = NULL, *pk = NULL;
    pm_cdc_buf columns = {0};
    const char **pks = NULL;
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    int rc = 0;
    snprintf(oidtext, sizeof(oidtext), "%u", oid);
    if ((rc = pm_pg_exec_params(sql,
                                "SELECT attname, atttypid, atttypmod, format_type(atttypid, "
                                "atttypmod) FROM pg_attribute WHERE attrelid = $1::oid AND "
                                "attnum > 0 AND NOT attisdropped ORDER BY attnum",
                                1, params, &cols, err)) != 0 ||
        (rc = pm_pg_exec_params(sql,
                                "SELECT a.attname FROM pg_index i CROSS JOIN LATERAL "
                                "unnest(i.indkey) WITH ORDINALITY k(attnum, ord) JOIN "
                                "pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = "
                                "k.attnum WHERE i.indrelid = $1::oid AND i.indisprimary ORDER "
                                "BY k.ord",
                                1, params, &pk, err)) != 0)
        goto done;
    for (int i = 0; i < PQntuples(cols); i++) {
        const char *name = PQgetvalue(cols, i, 0);
        snprintf(what, sizeof(what), "%s column %s", qualified, name);
        if ((rc = pm_pgtype_map((uint32_t)strtoul(PQgetvalue(cols, i, 1), NULL, 10),
                                (int32_t)strtol(PQgetvalue(cols, i, 2), NULL, 10), what,
                                PQgetvalue(cols, i, 3), type, sizeof(type), err)) != 0)
            goto done;
        if ((i > 0 && pm_cdc_buf_put(&columns, ", ", 2) != 0) || put_name(&columns, name) != 0 ||
            pm_cdc_buf_putc(&columns, ' ') != 0 || pm_cdc_buf_put(&columns, type, strlen(type)))
            goto nomem;
    }
    if (PQntuples(pk) > 0) {
        if ((pks = calloc((size_t)PQntuples(pk), sizeof(*pks))) == NULL)
            goto nomem;
        for (int i = 0; i < PQntuples(pk); i++)
            pks[i] = PQgetvalue(pk, i, 0);
    }
    co.columns = columns.data;
    co.primary_keys = pks;
    co.primary_key_count = (size_t)PQntuples(pk);
    co.option_keys = option_keys;
    co.option_values = option_values;
    co.option_count = option_count;
    rc = paimon_table_create(path, &co, err);
    goto done;
nomem:
    rc = pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
done:
    free(pks);
    pm_cdc_buf_free(&columns);
    PQclear(cols);
    PQclear(pk);
    return rc;
}

void pm_cdc_relmap_free(pm_cdc_relmap *m)
{
    for (size_t i = 0; m->names != NULL && i < m->count; i++)
        free(m->names[i]);
    free(m->names);
    free(m->to_paimon);
    free(m->type_oids);
    free(m->key);
    memset(m, 0, sizeof(*m));
}

/* PAIMON_EUNSUPPORTED unless the Relation message `r` still has a column `name`: a column
 * that is gone (dropped or renamed) cannot be followed. */
PM_MUST_CHECK static int check_still_there(const pm_pgo_msg *r, const char *name, const char *path,
                                           const char *qualified, paimon_error *err)
{
    for (uint16_t i = 0; i < r->column_count; i++)
        if (strcmp(r->columns[i].name, name) == 0)
            return 0;
    return pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                      "%s: column %s of %s is gone from the source (dropped or renamed); "
                      "paimon cdc cannot follow that: stopped before the transaction that "
                      "carries it (alter the Paimon table to match, or drop the slot and copy "
                      "anew)",
                      path, name, qualified);
}

int pm_cdc_relation_match(const pm_pgo_msg *r, const char *qualified, const char *path,
                          pm_cdc_schema *schema, bool apply, bool check_dropped,
                          const pm_cdc_relmap *prev, size_t *alter_count, pm_cdc_relmap *map,
                          paimon_error *err)
{
    char type[96], what[400];
    int rc = 0;
    *alter_count = 0;
    /* every column of the previous Relation must still be there */
    for (size_t j = 0; prev != NULL && prev->rel != 0 && !prev->from_catalog && j < prev->count;
         j++)
        if ((rc = check_still_there(r, prev->names[j], path, qualified, err)) != 0)
            return rc;
    /* the catalog: every Paimon column must still be there */
    for (size_t j = 0; check_dropped && j < schema->count; j++)
        if ((rc = check_still_there(r, schema->cols[j].name, path, qualified, err)) != 0)
            return rc;
    for (uint16_t i = 0; i < r->column_count; i++) {
        int j = pm_cdc_schema_find(schema, r->columns[i].name);
        snprintf(what, sizeof(what), "%s column %s", qualified, r->columns[i].name);
        if ((rc = pm_pgtype_map(r->columns[i].type_oid, r->columns[i].typmod, what, NULL, type,
                                sizeof(type), err)) != 0)
            return rc;
        if (j < 0) {
            (*alter_count)++;
            if (apply) {
                paimon_alter a = PAIMON_ALTER_INIT;
                pm_cdc_buf def = {0};
                if (put_name(&def, r->columns[i].name) != 0 || pm_cdc_buf_putc(&def, ' ') != 0 ||
                    pm_cdc_buf_put(&def, type, strlen(type)) != 0) {
                    pm_cdc_buf_free(&def);
                    return pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
                }
                a.kind = PAIMON_ALTER_ADD_COLUMN;
                a.column = def.data;
                rc = paimon_table_alter(path, &a, NULL, err);
                pm_cdc_buf_free(&def);
                if (rc != 0)
                    return rc;
            }
            continue;
        }
        if (strcmp(schema->cols[j].type, type) != 0)
            return pm_cdc_err(err, PAIMON_EUNSUPPORTED,
                              "%s: %s changed type to %s (Paimon column: %s); paimon cdc cannot "
                              "follow that: stopped before the transaction that carries it",
                              path, what, type, schema->cols[j].type);
    }
    if (*alter_count > 0 && !apply)
        return 0;
    if (*alter_count > 0) {
        pm_cdc_schema_free(schema);
        if ((rc = pm_cdc_schema_read(path, schema, err)) != 0)
            return rc;
    }
    pm_cdc_relmap_free(map);
    map->rel = r->rel;
    map->count = r->column_count;
    map->to_paimon = calloc(r->column_count + 1u, sizeof(int));
    map->type_oids = calloc(r->column_count + 1u, sizeof(uint32_t));
    map->key = calloc(r->column_count + 1u, sizeof(bool));
    map->names = calloc(r->column_count + 1u, sizeof(char *));
    if (map->to_paimon == NULL || map->type_oids == NULL || map->key == NULL || map->names == NULL)
        return pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
    for (uint16_t i = 0; i < r->column_count; i++) {
        if ((map->names[i] = strdup(r->columns[i].name)) == NULL)
            return pm_cdc_err(err, PAIMON_ENOMEM, "out of memory");
        map->to_paimon[i] = pm_cdc_schema_find(schema, r->columns[i].name);
        map->type_oids[i] = r->columns[i].type_oid;
        map->key[i] = map->to_paimon[i] >= 0 && schema->cols[map->to_paimon[i]].pk;
    }
    return 0;
}
