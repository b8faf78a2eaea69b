/*
 * Schema changes (alter.h): read the latest schema, apply one change with Java's rules,
 * validate the result as a created schema is validated, and write schema-<id+1> only if
 * absent.  Losing that race to another writer re-applies the change to the winner's schema.
 */
#include "table/alter.h"

#include <string.h>
#include <strings.h>

#include "meta/option_catalog.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "table/option_check.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/time.h"

#define ALTER_MAX_ATTEMPTS 16

static bool is_key(const pm_strlist *keys, const char *name)
{
    return pm_strlist_find(keys, name) >= 0;
}

/* Java's ReassignFieldId: each nested field takes the next id, then its type is visited. */
static void assign_ids(pm_type *t, int32_t *counter)
{
    if (t == NULL)
        return;
    if (t->id == PM_TYPE_ROW) {
        for (size_t i = 0; i < t->field_count; i++) {
            t->fields[i].id = ++*counter;
            assign_ids(t->fields[i].type, counter);
        }
    }
    assign_ids(t->element, counter);
    assign_ids(t->value, counter);
}

static void field_release(pm_field *f)
{
    pm_free(f->name);
    pm_type_free(f->type);
    pm_free(f->description);
    pm_free(f->default_value);
}

static long field_index(const pm_schema *s, const char *name)
{
    size_t idx;
    return pm_type_field_by_name(s->row, name, &idx) != NULL ? (long)idx : -1;
}

PM_MUST_CHECK static int not_found(paimon_error *err, const char *name)
{
    return pm_err_set(err, PAIMON_ENOTFOUND, "column %s does not exist", name);
}

PM_MUST_CHECK static int add_column(pm_schema *s, const paimon_alter *a, paimon_error *err)
{
    pm_type *parsed = NULL;
    pm_field moved;
    size_t pos, last;
    int rc = 0;

    if ((rc = pm_columns_parse(a->column, &parsed, err)) != 0)
        goto done;
    if (parsed->field_count != 1) {
        rc = pm_err_set(err, PAIMON_EINVALID, "add-column: give one column, 'NAME TYPE'");
        goto done;
    }
    if (!parsed->fields[0].type->nullable) {
        rc = pm_err_set(err, PAIMON_EINVALID, "Column %s cannot specify NOT NULL in the table.",
                        parsed->fields[0].name);
        goto done;
    }
    if (field_index(s, parsed->fields[0].name) >= 0) {
        rc = pm_err_set(err, PAIMON_EEXISTS, "column %s exists already", parsed->fields[0].name);
        goto done;
    }
    /* Position first: a bad --after changes nothing. */
    pos = s->row->field_count;
    if (a->first) {
        pos = 0;
    } else if (a->after != NULL) {
        long idx = field_index(s, a->after);
        if (idx < 0) {
            rc = not_found(err, a->after);
            goto done;
        }
        pos = (size_t)idx + 1;
    } else {
        bool before_partition = false;
        if ((rc = pm_options_get_bool(&s->options, "add-column-before-partition", &before_partition,
                                      err)) != 0)
            goto done;
        for (size_t i = 0; before_partition && i < s->row->field_count; i++)
            if (is_key(&s->partition_keys, s->row->fields[i].name)) {
                pos = i;
                break;
            }
    }
    {
        int32_t counter = s->highest_field_id;
        pm_field *f = &parsed->fields[0];
        int32_t id = ++counter;
        assign_ids(f->type, &counter);
        rc = pm_type_row_add(s->row, id, f->name, f->type);
        f->type = NULL; /* taken, also on failure */
        if (rc != 0) {
            rc = pm_nomem(err);
            goto done;
        }
        last = s->row->field_count - 1;
        if (f->description != NULL &&
            (s->row->fields[last].description = pm_strdup(f->description)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        s->highest_field_id = counter;
    }
    moved = s->row->fields[last];
    memmove(&s->row->fields[pos + 1], &s->row->fields[pos], (last - pos) * sizeof(pm_field));
    s->row->fields[pos] = moved;
done:
    pm_type_free(parsed);
    return rc;
}

PM_MUST_CHECK static int drop_column(pm_schema *s, const char *name, paimon_error *err)
{
    long idx = field_index(s, name);
    if (is_key(&s->partition_keys, name) || is_key(&s->primary_keys, name))
        return pm_err_set(err, PAIMON_EINVALID, "Cannot drop partition key or primary key: [%s]",
                          name);
    if (idx < 0)
        return not_found(err, name);
    if (s->row->field_count == 1)
        return pm_err_set(err, PAIMON_EINVALID, "Cannot drop all fields in table");
    field_release(&s->row->fields[idx]);
    memmove(&s->row->fields[idx], &s->row->fields[idx + 1],
            (s->row->field_count - (size_t)idx - 1) * sizeof(pm_field));
    s->row->field_count--;
    return 0;
}

PM_MUST_CHECK static int rename_column(pm_schema *s, const char *old, const char *name,
                                       paimon_error *err)
{
    long idx = field_index(s, old);
    char *copy;
    if (is_key(&s->partition_keys, old))
        return pm_err_set(err, PAIMON_EINVALID, "Cannot rename partition column: [%s]", old);
    if (idx < 0)
        return not_found(err, old);
    if (name == NULL || name[0] == '\0')
        return pm_err_set(err, PAIMON_EINVALID, "rename-column: no new name given");
    if (field_index(s, name) >= 0)
        return pm_err_set(err, PAIMON_EEXISTS, "column %s exists already", name);
    if ((copy = pm_strdup(name)) == NULL)
        return pm_nomem(err);
    pm_free(s->row->fields[idx].name);
    s->row->fields[idx].name = copy;
    /* Java renames the column in the key lists too (applyNotNestedColumnRename). */
    for (size_t i = 0; i < s->primary_keys.count; i++)
        if (strcmp(s->primary_keys.items[i], old) == 0) {
            char *k = pm_strdup(name);
            if (k == NULL)
                return pm_nomem(err);
            pm_free(s->primary_keys.items[i]);
            s->primary_keys.items[i] = k;
        }
    return 0;
}

/* ---- casts (DataTypeCasts.supportsCast + CastExecutors.resolve) ------------------------ */

static int rank_numeric(pm_type_id id)
{
    switch (id) {
    case PM_TYPE_TINYINT: return 1;
    case PM_TYPE_SMALLINT: return 2;
    case PM_TYPE_INT: return 3;
    case PM_TYPE_BIGINT: return 4;
    case PM_TYPE_DECIMAL: return 5;
    case PM_TYPE_FLOAT: return 6;
    case PM_TYPE_DOUBLE: return 7;
    default: return 0;
    }
}

static bool is_time_like(pm_type_id id)
{
    return id == PM_TYPE_DATE || id == PM_TYPE_TIME || id == PM_TYPE_TIMESTAMP ||
           id == PM_TYPE_TIMESTAMP_LTZ;
}

/* True when a cast from `src` to `dst` exists; `*implicit` says whether it loses nothing. */
static bool cast_exists(const pm_type *src, const pm_type *dst, bool *implicit)
{
    int rs = rank_numeric(src->id), rd = rank_numeric(dst->id);
    *implicit = false;
    if (src->id == dst->id) {
        switch (src->id) {
        case PM_TYPE_CHAR:
        case PM_TYPE_VARCHAR:
        case PM_TYPE_BINARY:
        case PM_TYPE_VARBINARY: *implicit = dst->length >= src->length; return true;
        case PM_TYPE_DECIMAL:
            *implicit = dst->scale >= src->scale &&
                        dst->precision - dst->scale >= src->precision - src->scale;
            return true;
        case PM_TYPE_TIME:
        case PM_TYPE_TIMESTAMP:
        case PM_TYPE_TIMESTAMP_LTZ: *implicit = dst->precision >= src->precision; return true;
        case PM_TYPE_ARRAY:
        case PM_TYPE_MULTISET: return cast_exists(src->element, dst->element, implicit);
        case PM_TYPE_MAP: {
            bool ki, vi;
            bool ok = cast_exists(src->element, dst->element, &ki) &&
                      cast_exists(src->value, dst->value, &vi);
            *implicit = ki && vi;
            return ok;
        }
        case PM_TYPE_ROW: return false;
        default: *implicit = true; return true;
        }
    }
    if (rs > 0 && rd > 0) {
        *implicit = rd > rs && !(rs >= 5 && rd == 5);
        return true;
    }
    if (src->id == PM_TYPE_CHAR && dst->id == PM_TYPE_VARCHAR) {
        *implicit = dst->length >= src->length;
        return true;
    }
    if (src->id == PM_TYPE_BINARY && dst->id == PM_TYPE_VARBINARY) {
        *implicit = dst->length >= src->length;
        return true;
    }
    if ((src->id == PM_TYPE_TIMESTAMP && dst->id == PM_TYPE_TIMESTAMP_LTZ) ||
        (src->id == PM_TYPE_TIMESTAMP_LTZ && dst->id == PM_TYPE_TIMESTAMP)) {
        *implicit = true;
        return true;
    }
    if (src->id == PM_TYPE_TIMESTAMP && (dst->id == PM_TYPE_DATE || dst->id == PM_TYPE_TIME)) {
        *implicit = true;
        return true;
    }
    if (pm_type_is_nested(src) || pm_type_is_nested(dst) || src->id == PM_TYPE_VARIANT ||
        dst->id == PM_TYPE_VARIANT || src->id == PM_TYPE_BLOB || dst->id == PM_TYPE_BLOB)
        return false;
    /* Explicit casts: strings to and from every primitive type, booleans and numbers, dates
     * and timestamps among themselves, numbers and timestamps. */
    if (pm_type_is_string(src) || pm_type_is_string(dst))
        return true;
    if (pm_type_is_binary(src) || pm_type_is_binary(dst))
        return pm_type_is_binary(src) && pm_type_is_binary(dst);
    if ((src->id == PM_TYPE_BOOLEAN && rd > 0) || (dst->id == PM_TYPE_BOOLEAN && rs > 0))
        return true;
    if (is_time_like(src->id) && is_time_like(dst->id))
        return !(src->id == PM_TYPE_DATE && dst->id == PM_TYPE_TIME) &&
               !(src->id == PM_TYPE_TIME && dst->id == PM_TYPE_DATE);
    if ((rs > 0 && (dst->id == PM_TYPE_TIMESTAMP || dst->id == PM_TYPE_TIMESTAMP_LTZ)) ||
        (rd > 0 && (src->id == PM_TYPE_TIMESTAMP || src->id == PM_TYPE_TIMESTAMP_LTZ)))
        return true;
    return false;
}

PM_MUST_CHECK static int alter_type(pm_schema *s, const char *name, const char *type_text,
                                    paimon_error *err)
{
    long idx = field_index(s, name);
    pm_type *t = NULL;
    pm_field *f;
    bool implicit, allow_explicit, null_to_not_null_disabled, keep_nullability;
    int rc = 0;

    if (is_key(&s->partition_keys, name))
        return pm_err_set(err, PAIMON_EINVALID, "Cannot update partition column: [%s]", name);
    if (is_key(&s->primary_keys, name))
        return pm_err_set(err, PAIMON_EINVALID, "Cannot update primary key");
    if (idx < 0)
        return not_found(err, name);
    if (type_text == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "alter-type: no type given");
    if ((rc = pm_type_parse(type_text, &t, err)) != 0)
        return rc;
    if ((rc = pm_options_get_bool(&s->options, "disable-explicit-type-casting", &allow_explicit,
                                  err)) != 0 ||
        (rc = pm_options_get_bool(&s->options, "alter-column-null-to-not-null.disabled",
                                  &null_to_not_null_disabled, err)) != 0)
        goto done;
    allow_explicit = !allow_explicit;
    f = &s->row->fields[idx];
    /* A type written without NOT NULL keeps the column's nullability (Spark's keepNullability);
     * NOT NULL asks for the change Java guards with alter-column-null-to-not-null.disabled. */
    keep_nullability = strcasestr(type_text, "NOT NULL") == NULL;
    if (keep_nullability)
        t->nullable = f->type->nullable;
    else if (f->type->nullable && null_to_not_null_disabled) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "Cannot update column type from nullable to non nullable for %s. You can "
                        "set table configuration option 'alter-column-null-to-not-null.disabled' "
                        "= 'false' to allow converting null columns to not null",
                        name);
        goto done;
    }
    if (!cast_exists(f->type, t, &implicit) || (!implicit && !allow_explicit)) {
        pm_buf a, b;
        pm_buf_init(&a, 0);
        pm_buf_init(&b, 0);
        (void)pm_type_format(f->type, &a);
        (void)pm_type_format(t, &b);
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "Column type %s[%s] cannot be converted to %s without loosing "
                        "information.",
                        name, pm_buf_cstr(&a), pm_buf_cstr(&b));
        pm_buf_free(&a);
        pm_buf_free(&b);
        goto done;
    }
    /* Nested ROW fields keep fresh ids from the schema's counter. */
    {
        int32_t counter = s->highest_field_id;
        if (pm_type_is_nested(t)) {
            assign_ids(t, &counter);
            s->highest_field_id = counter;
        }
    }
    pm_type_free(f->type);
    f->type = t;
    t = NULL;
done:
    pm_type_free(t);
    return rc;
}

PM_MUST_CHECK static int apply(pm_schema *s, const paimon_alter *a, bool has_snapshots,
                               paimon_error *err)
{
    switch (a->kind) {
    case PAIMON_ALTER_ADD_COLUMN: return add_column(s, a, err);
    case PAIMON_ALTER_DROP_COLUMN: return drop_column(s, a->column, err);
    case PAIMON_ALTER_RENAME_COLUMN: return rename_column(s, a->column, a->value, err);
    case PAIMON_ALTER_ALTER_TYPE: return alter_type(s, a->column, a->value, err);
    case PAIMON_ALTER_SET_OPTION: {
        int rc;
        if (a->value == NULL)
            return pm_err_set(err, PAIMON_EINVALID, "set-option %s: no value", a->column);
        if ((rc = pm_option_check_alter(&s->options, a->column, a->value, has_snapshots, err)) != 0)
            return rc;
        return pm_options_set(&s->options, a->column, a->value) != 0 ? pm_nomem(err) : 0;
    }
    case PAIMON_ALTER_REMOVE_OPTION: {
        int rc = pm_option_check_alter(&s->options, a->column, NULL, has_snapshots, err);
        if (rc != 0)
            return rc;
        if (!pm_options_remove(&s->options, a->column))
            return pm_err_set(err, PAIMON_ENOTFOUND, "option %s is not set", a->column);
        return 0;
    }
    }
    return pm_err_set(err, PAIMON_EINVALID, "unknown schema change %d", (int)a->kind);
}

int pm_table_alter(pm_fs *fs, const char *path, const paimon_alter *change, int64_t *new_id,
                   paimon_error *err)
{
    pm_schema *s = NULL;
    int rc = 0;

    if (change->column == NULL || change->column[0] == '\0')
        return pm_err_set(err, PAIMON_EINVALID, "alter: no column or option named");
    for (int attempt = 0; attempt < ALTER_MAX_ATTEMPTS; attempt++) {
        int64_t snap_id;
        bool has_snapshots;
        pm_schema_free(s);
        s = NULL;
        if ((rc = pm_schema_read_latest(fs, path, &s, err)) != 0 ||
            (rc = pm_snapshot_latest_id(fs, path, &snap_id, &has_snapshots, err)) != 0)
            goto named; /* these name the table or the file themselves */
        if ((rc = apply(s, change, has_snapshots, err)) != 0)
            goto done;
        s->id++;
        s->time_millis = pm_now_millis();
        if ((rc = pm_schema_validate(s, err)) != 0 || (rc = pm_table_options_check(s, err)) != 0)
            goto done;
        rc = pm_schema_commit(fs, path, s, err);
        if (rc == PAIMON_EEXISTS)
            continue; /* another writer took the id: re-apply to its schema */
        if (rc == 0 && new_id != NULL)
            *new_id = s->id;
        goto named; /* a failed schema write names its file */
    }
    rc = pm_err_set(err, PAIMON_ECONFLICT, "schema changes kept racing with other writers");
done:
    /* the change or the table's options: name the table, once */
    if (rc != 0)
        pm_err_prefix(err, rc, "%s: ", path);
named:
    pm_schema_free(s);
    return rc;
}
