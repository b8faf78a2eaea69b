/* Schema-file JSON for types and fields: see type_json.h. */
#include "data/type_json.h"

#include <string.h>

#include "util/alloc.h"
#include "util/error.h"

/* Errors name their path ("field a: ARRAY element: ...") for the top levels only, so the
 * reason still fits the message when it comes from deep inside a type. */
#define PATH_LEVELS 8

PM_MUST_CHECK static int field_from_json(const json_t *obj, pm_type *row, int depth,
                                         paimon_error *err);

/* Splits "ARRAY NOT NULL" into the kind and nullability. */
static bool kind_is(const char *text, const char *kind, bool *nullable)
{
    size_t kl = strlen(kind);
    if (strncmp(text, kind, kl) != 0)
        return false;
    if (text[kl] == '\0') {
        *nullable = true;
        return true;
    }
    if (strcmp(text + kl, " NOT NULL") == 0) {
        *nullable = false;
        return true;
    }
    return false;
}

PM_MUST_CHECK static int too_deep(paimon_error *err)
{
    return pm_corrupt(err, "type nested deeper than %d levels", PM_MAX_NESTING);
}

/* A type inside `depth` ARRAY/MAP/MULTISET/ROW types. */
PM_MUST_CHECK static int type_from_json(const json_t *json, int depth, pm_type **out,
                                        paimon_error *err)
{
    const char *kind;
    pm_type *t = NULL;
    bool nullable = true, path = depth < PATH_LEVELS;
    int rc;

    *out = NULL;
    if (json_is_string(json)) {
        rc = pm_type_parse(json_string_value(json), out, err);
        if (rc == PAIMON_EINVALID && err != NULL)
            err->code = rc = PAIMON_ECORRUPT;
        if (rc == 0 && depth + pm_type_nesting(*out) > PM_MAX_NESTING) {
            pm_type_free(*out);
            *out = NULL;
            rc = too_deep(err);
        }
        return rc;
    }
    if (!json_is_object(json) || !json_is_string(json_object_get(json, "type")))
        return pm_corrupt(err, "type must be a string or an object with a \"type\"");
    kind = json_string_value(json_object_get(json, "type"));
    if ((kind_is(kind, "ARRAY", &nullable) || kind_is(kind, "MULTISET", &nullable) ||
         kind_is(kind, "MAP", &nullable) || kind_is(kind, "ROW", &nullable)) &&
        depth + 1 > PM_MAX_NESTING)
        return too_deep(err);
    if (kind_is(kind, "ARRAY", &nullable) || kind_is(kind, "MULTISET", &nullable)) {
        t = pm_type_new(kind[0] == 'A' ? PM_TYPE_ARRAY : PM_TYPE_MULTISET);
        if (t == NULL)
            return pm_nomem(err);
        rc = type_from_json(json_object_get(json, "element"), depth + 1, &t->element, err);
        if (rc != 0 && path)
            rc = pm_err_prefix(err, rc, "%s element: ", kind);
    } else if (kind_is(kind, "MAP", &nullable)) {
        t = pm_type_new(PM_TYPE_MAP);
        if (t == NULL)
            return pm_nomem(err);
        rc = type_from_json(json_object_get(json, "key"), depth + 1, &t->element, err);
        if (rc != 0 && path)
            rc = pm_err_prefix(err, rc, "MAP key: ");
        else if (rc == 0 &&
                 (rc = type_from_json(json_object_get(json, "value"), depth + 1, &t->value, err)) !=
                     0 &&
                 path)
            rc = pm_err_prefix(err, rc, "MAP value: ");
    } else if (kind_is(kind, "ROW", &nullable)) {
        const json_t *fields = json_object_get(json, "fields");
        size_t i;
        const json_t *f;
        t = pm_type_new(PM_TYPE_ROW);
        if (t == NULL)
            return pm_nomem(err);
        rc = 0;
        if (!json_is_array(fields))
            rc = pm_corrupt(err, "ROW type without a \"fields\" array");
        json_array_foreach(fields, i, f)
        {
            if (rc == 0)
                rc = field_from_json(f, t, depth + 1, err);
        }
    } else {
        /* Atomic types may also appear as {"type": "INT"} in hand-written files. */
        if (pm_type_parse(kind, out, err) != 0)
            return pm_corrupt(err, "unknown type %.100s", kind);
        if (depth + pm_type_nesting(*out) > PM_MAX_NESTING) {
            pm_type_free(*out);
            *out = NULL;
            return too_deep(err);
        }
        return 0;
    }
    if (rc != 0) {
        pm_type_free(t);
        return rc;
    }
    t->nullable = nullable;
    *out = t;
    return 0;
}

int pm_type_from_json(const json_t *json, pm_type **out, paimon_error *err)
{
    return type_from_json(json, 0, out, err);
}

PM_MUST_CHECK static int optional_string(const json_t *obj, const char *key, char **out,
                                         paimon_error *err)
{
    const json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (v == NULL || json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return pm_corrupt(err, "field \"%s\" must be a string", key);
    *out = pm_strdup(json_string_value(v));
    return *out == NULL ? pm_nomem(err) : 0;
}

/* A field of a ROW whose type is inside `depth` nested types (the table's fields: 0). */
PM_MUST_CHECK static int field_from_json(const json_t *obj, pm_type *row, int depth,
                                         paimon_error *err)
{
    const json_t *id = json_object_get(obj, "id"), *name = json_object_get(obj, "name");
    pm_type *type = NULL;
    pm_field *f;
    int rc;

    if (!json_is_object(obj))
        return pm_corrupt(err, "field must be an object");
    if (!json_is_string(name))
        return pm_corrupt(err, "field without a \"name\"");
    if (!json_is_integer(id) || json_integer_value(id) < -2147483647 - 1 ||
        json_integer_value(id) > 2147483647)
        return pm_corrupt(err, "field %s: missing or invalid \"id\"", json_string_value(name));
    rc = type_from_json(json_object_get(obj, "type"), depth, &type, err);
    if (rc != 0)
        return depth < PATH_LEVELS
                   ? pm_err_prefix(err, rc, "field %.100s: ", json_string_value(name))
                   : rc;
    rc = pm_type_row_add(row, (int32_t)json_integer_value(id), json_string_value(name), type);
    if (rc != 0)
        return pm_nomem(err);
    f = &row->fields[row->field_count - 1];
    if ((rc = optional_string(obj, "description", &f->description, err)) != 0 ||
        (rc = optional_string(obj, "defaultValue", &f->default_value, err)) != 0)
        return pm_err_prefix(err, rc, "field %s: ", f->name);
    return 0;
}

int pm_fields_from_json(const json_t *array, pm_type **out, paimon_error *err)
{
    pm_type *row = pm_type_new(PM_TYPE_ROW);
    const json_t *f;
    size_t i;
    int rc = 0;

    *out = NULL;
    if (row == NULL)
        return pm_nomem(err);
    row->nullable = false;
    if (!json_is_array(array)) {
        pm_type_free(row);
        return pm_corrupt(err, "\"fields\" must be an array");
    }
    json_array_foreach(array, i, f)
    {
        if ((rc = field_from_json(f, row, 0, err)) != 0)
            break;
    }
    if (rc != 0) {
        pm_type_free(row);
        return rc;
    }
    *out = row;
    return 0;
}

static json_t *kind_string(const char *kind, bool nullable)
{
    char text[32];
    snprintf(text, sizeof(text), "%s%s", kind, nullable ? "" : " NOT NULL");
    return json_string(text);
}

json_t *pm_type_to_json(const pm_type *t)
{
    json_t *obj;
    pm_buf b;
    switch (t->id) {
    case PM_TYPE_ARRAY:
    case PM_TYPE_MULTISET:
        obj = json_object();
        if (obj == NULL ||
            json_object_set_new(
                obj, "type",
                kind_string(t->id == PM_TYPE_ARRAY ? "ARRAY" : "MULTISET", t->nullable)) != 0 ||
            json_object_set_new(obj, "element", pm_type_to_json(t->element)) != 0) {
            json_decref(obj);
            return NULL;
        }
        return obj;
    case PM_TYPE_MAP:
        obj = json_object();
        if (obj == NULL || json_object_set_new(obj, "type", kind_string("MAP", t->nullable)) != 0 ||
            json_object_set_new(obj, "key", pm_type_to_json(t->element)) != 0 ||
            json_object_set_new(obj, "value", pm_type_to_json(t->value)) != 0) {
            json_decref(obj);
            return NULL;
        }
        return obj;
    case PM_TYPE_ROW:
        obj = json_object();
        if (obj == NULL || json_object_set_new(obj, "type", kind_string("ROW", t->nullable)) != 0 ||
            json_object_set_new(obj, "fields", pm_fields_to_json(t)) != 0) {
            json_decref(obj);
            return NULL;
        }
        return obj;
    default: {
        json_t *s;
        pm_buf_init(&b, 0);
        s = pm_type_format(t, &b) == 0 ? json_string(pm_buf_cstr(&b)) : NULL;
        pm_buf_free(&b);
        return s;
    }
    }
}

json_t *pm_fields_to_json(const pm_type *row)
{
    json_t *array = json_array();
    if (array == NULL)
        return NULL;
    for (size_t i = 0; i < row->field_count; i++) {
        const pm_field *f = &row->fields[i];
        json_t *obj = json_object();
        /* Key order as Jackson writes DataField: id, name, type, description, defaultValue. */
        if (obj == NULL || json_object_set_new(obj, "id", json_integer(f->id)) != 0 ||
            json_object_set_new(obj, "name", json_string(f->name)) != 0 ||
            json_object_set_new(obj, "type", pm_type_to_json(f->type)) != 0 ||
            (f->description != NULL &&
             json_object_set_new(obj, "description", json_string(f->description)) != 0) ||
            (f->default_value != NULL &&
             json_object_set_new(obj, "defaultValue", json_string(f->default_value)) != 0)) {
            json_decref(obj);
            json_decref(array);
            return NULL;
        }
        if (json_array_append_new(array, obj) != 0) { /* steals obj even on failure */
            json_decref(array);
            return NULL;
        }
    }
    return array;
}
