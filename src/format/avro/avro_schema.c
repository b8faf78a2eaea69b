/* Avro schema JSON into a tree: see avro_schema.h. */
#include "format/avro/avro_schema.h"

#include <jansson.h>
#include <string.h>

#include "util/alloc.h"

#define MAX_NAMED 4096 /* named types per schema */

typedef struct named {
    const char *full_name;
    pm_avro_schema *schema;
} named;

typedef struct parse_ctx {
    pm_arena *arena;
    const char *what;
    paimon_error *err;
    named *names;
    size_t name_count;
    size_t name_cap;
} parse_ctx;

static int parse_node(parse_ctx *c, const json_t *j, const char *ns, int depth,
                      pm_avro_schema **out);

static pm_avro_schema *new_node(parse_ctx *c, pm_avro_kind kind)
{
    pm_avro_schema *s = pm_arena_calloc(c->arena, 1, sizeof(*s));
    if (s != NULL) {
        s->kind = kind;
        s->expanded = 1;
    }
    return s;
}

/* Adds a child's expanded size to its parent's, saturating just past the bound. */
static void grow(pm_avro_schema *parent, const pm_avro_schema *child)
{
    parent->expanded += child->expanded;
    if (parent->expanded > PM_AVRO_MAX_NODES)
        parent->expanded = PM_AVRO_MAX_NODES + 1;
}

/* A reference to a named type: refused while that record is still being defined. */
static int reference(parse_ctx *c, pm_avro_schema *ref, pm_avro_schema **out)
{
    if (ref->open)
        return pm_corrupt(c->err, "%s: Avro record %s refers to itself", c->what, ref->name);
    *out = ref;
    return 0;
}

static const struct {
    const char *name;
    pm_avro_kind kind;
} PRIMITIVES[] = {{"null", PM_AVRO_NULL},   {"boolean", PM_AVRO_BOOLEAN},
                  {"int", PM_AVRO_INT},     {"long", PM_AVRO_LONG},
                  {"float", PM_AVRO_FLOAT}, {"double", PM_AVRO_DOUBLE},
                  {"bytes", PM_AVRO_BYTES}, {"string", PM_AVRO_STRING}};

static int primitive_kind(const char *name, pm_avro_kind *kind)
{
    for (size_t i = 0; i < sizeof(PRIMITIVES) / sizeof(PRIMITIVES[0]); i++) {
        if (strcmp(name, PRIMITIVES[i].name) == 0) {
            *kind = PRIMITIVES[i].kind;
            return 1;
        }
    }
    return 0;
}

/* Full name of a named type: "ns.name" unless the name already has a dot. */
static const char *full_name(parse_ctx *c, const char *name, const char *ns)
{
    size_t nl = strlen(name), sl;
    char *out;
    if (strchr(name, '.') != NULL || ns == NULL || ns[0] == '\0')
        return pm_arena_strndup(c->arena, name, nl);
    sl = strlen(ns);
    out = pm_arena_alloc(c->arena, sl + 1 + nl + 1);
    if (out == NULL)
        return NULL;
    memcpy(out, ns, sl);
    out[sl] = '.';
    memcpy(out + sl + 1, name, nl + 1);
    return out;
}

static pm_avro_schema *lookup(parse_ctx *c, const char *name, const char *ns)
{
    const char *fn;
    for (size_t pass = 0; pass < 2; pass++) {
        fn = pass == 0 ? full_name(c, name, ns) : name;
        if (fn == NULL)
            return NULL;
        for (size_t i = 0; i < c->name_count; i++)
            if (strcmp(c->names[i].full_name, fn) == 0)
                return c->names[i].schema;
    }
    return NULL;
}

static int register_name(parse_ctx *c, pm_avro_schema *s)
{
    for (size_t i = 0; i < c->name_count; i++)
        if (strcmp(c->names[i].full_name, s->name) == 0)
            return pm_corrupt(c->err, "%s: Avro schema redefines %s", c->what, s->name);
    if (c->name_count == MAX_NAMED)
        return pm_corrupt(c->err, "%s: Avro schema has too many named types", c->what);
    if (c->name_count == c->name_cap) {
        size_t cap = c->name_cap == 0 ? 16 : c->name_cap * 2;
        named *grown = pm_realloc(c->names, cap * sizeof(named));
        if (grown == NULL)
            return pm_nomem(c->err);
        c->names = grown;
        c->name_cap = cap;
    }
    c->names[c->name_count].full_name = s->name;
    c->names[c->name_count].schema = s;
    c->name_count++;
    return 0;
}

static int parse_record(parse_ctx *c, const json_t *j, pm_avro_schema *s, const char *ns, int depth)
{
    const json_t *fields = json_object_get(j, "fields"), *f;
    size_t i;
    int rc;
    if (!json_is_array(fields))
        return pm_corrupt(c->err, "%s: Avro record %s has no fields array", c->what, s->name);
    s->field_count = json_array_size(fields);
    s->fields = pm_arena_calloc(c->arena, s->field_count, sizeof(pm_avro_field));
    if (s->fields == NULL && s->field_count > 0)
        return pm_nomem(c->err);
    json_array_foreach(fields, i, f)
    {
        const json_t *name = json_object_get(f, "name");
        if (!json_is_object(f) || !json_is_string(name))
            return pm_corrupt(c->err, "%s: Avro record %s has a field without a name", c->what,
                              s->name);
        s->fields[i].name =
            pm_arena_strndup(c->arena, json_string_value(name), json_string_length(name));
        if (s->fields[i].name == NULL)
            return pm_nomem(c->err);
        for (size_t k = 0; k < i; k++)
            if (strcmp(s->fields[k].name, s->fields[i].name) == 0)
                return pm_corrupt(c->err, "%s: Avro record %s repeats field %s", c->what, s->name,
                                  s->fields[i].name);
        rc = parse_node(c, json_object_get(f, "type"), ns, depth + 1, &s->fields[i].type);
        if (rc != 0)
            return rc;
        grow(s, s->fields[i].type);
    }
    return 0;
}

static int parse_object(parse_ctx *c, const json_t *j, const char *ns, int depth,
                        pm_avro_schema **out)
{
    const json_t *type = json_object_get(j, "type"), *lt = json_object_get(j, "logicalType");
    const char *tname;
    pm_avro_schema *s;
    pm_avro_kind kind;
    int rc;

    if (json_is_array(type) || json_is_object(type)) {
        /* {"type": {...}} wraps another schema; annotations on it are dropped. */
        return parse_node(c, type, ns, depth + 1, out);
    }
    if (!json_is_string(type))
        return pm_corrupt(c->err, "%s: Avro schema object without a type", c->what);
    tname = json_string_value(type);
    if (primitive_kind(tname, &kind)) {
        s = new_node(c, kind);
    } else if (strcmp(tname, "record") == 0 || strcmp(tname, "error") == 0 ||
               strcmp(tname, "enum") == 0 || strcmp(tname, "fixed") == 0) {
        const json_t *name = json_object_get(j, "name"), *nsj = json_object_get(j, "namespace");
        const char *own_ns = json_is_string(nsj) ? json_string_value(nsj) : ns;
        if (!json_is_string(name))
            return pm_corrupt(c->err, "%s: Avro %s without a name", c->what, tname);
        s = new_node(c, tname[0] == 'e' && tname[1] == 'n' ? PM_AVRO_ENUM
                        : tname[0] == 'f'                  ? PM_AVRO_FIXED
                                                           : PM_AVRO_RECORD);
        if (s == NULL || (s->name = full_name(c, json_string_value(name), own_ns)) == NULL)
            return pm_nomem(c->err);
        /* A dotted name defines the namespace of what it encloses. */
        {
            const char *dot = strrchr(s->name, '.');
            if (dot != NULL) {
                own_ns = pm_arena_strndup(c->arena, s->name, (size_t)(dot - s->name));
                if (own_ns == NULL)
                    return pm_nomem(c->err);
            }
        }
        if ((rc = register_name(c, s)) != 0)
            return rc;
        if (s->kind == PM_AVRO_RECORD) {
            s->open = true;
            rc = parse_record(c, j, s, own_ns, depth);
            s->open = false;
            if (rc != 0)
                return rc;
        } else if (s->kind == PM_AVRO_ENUM) {
            const json_t *symbols = json_object_get(j, "symbols");
            if (!json_is_array(symbols))
                return pm_corrupt(c->err, "%s: Avro enum %s without symbols", c->what, s->name);
            s->size = json_array_size(symbols);
        } else {
            const json_t *size = json_object_get(j, "size");
            if (!json_is_integer(size) || json_integer_value(size) < 0 ||
                json_integer_value(size) > (1 << 20))
                return pm_corrupt(c->err, "%s: Avro fixed %s with an invalid size", c->what,
                                  s->name);
            s->size = (size_t)json_integer_value(size);
        }
    } else if (strcmp(tname, "array") == 0 || strcmp(tname, "map") == 0) {
        s = new_node(c, tname[0] == 'a' ? PM_AVRO_ARRAY : PM_AVRO_MAP);
        if (s == NULL)
            return pm_nomem(c->err);
        rc = parse_node(c, json_object_get(j, tname[0] == 'a' ? "items" : "values"), ns, depth + 1,
                        &s->items);
        if (rc != 0)
            return rc;
        grow(s, s->items);
    } else {
        pm_avro_schema *ref = lookup(c, tname, ns);
        if (ref == NULL)
            return pm_corrupt(c->err, "%s: unknown Avro type %s", c->what, tname);
        return reference(c, ref, out);
    }
    if (s == NULL)
        return pm_nomem(c->err);
    if (json_is_string(lt)) {
        s->logical_type = pm_arena_strndup(c->arena, json_string_value(lt), json_string_length(lt));
        if (s->logical_type == NULL)
            return pm_nomem(c->err);
        if (json_is_integer(json_object_get(j, "precision")))
            s->precision = (int32_t)json_integer_value(json_object_get(j, "precision"));
        if (json_is_integer(json_object_get(j, "scale")))
            s->scale = (int32_t)json_integer_value(json_object_get(j, "scale"));
    }
    *out = s;
    return 0;
}

static int parse_node(parse_ctx *c, const json_t *j, const char *ns, int depth,
                      pm_avro_schema **out)
{
    pm_avro_kind kind;
    if (depth > PM_AVRO_MAX_DEPTH)
        return pm_corrupt(c->err, "%s: Avro schema nested deeper than %d nodes", c->what,
                          PM_AVRO_MAX_DEPTH);
    if (json_is_string(j)) {
        const char *name = json_string_value(j);
        pm_avro_schema *ref;
        if (primitive_kind(name, &kind)) {
            *out = new_node(c, kind);
            return *out == NULL ? pm_nomem(c->err) : 0;
        }
        ref = lookup(c, name, ns);
        if (ref == NULL)
            return pm_corrupt(c->err, "%s: unknown Avro type %s", c->what, name);
        return reference(c, ref, out);
    }
    if (json_is_array(j)) {
        pm_avro_schema *s = new_node(c, PM_AVRO_UNION);
        const json_t *b;
        size_t i;
        if (s == NULL)
            return pm_nomem(c->err);
        s->branch_count = json_array_size(j);
        if (s->branch_count == 0)
            return pm_corrupt(c->err, "%s: empty Avro union", c->what);
        s->branches = pm_arena_calloc(c->arena, s->branch_count, sizeof(pm_avro_schema *));
        if (s->branches == NULL)
            return pm_nomem(c->err);
        json_array_foreach(j, i, b)
        {
            int rc = parse_node(c, b, ns, depth + 1, &s->branches[i]);
            if (rc != 0)
                return rc;
            if (s->branches[i]->kind == PM_AVRO_UNION)
                return pm_corrupt(c->err, "%s: Avro union directly inside a union", c->what);
            grow(s, s->branches[i]);
        }
        *out = s;
        return 0;
    }
    if (json_is_object(j))
        return parse_object(c, j, ns, depth, out);
    return pm_corrupt(c->err, "%s: invalid Avro schema node", c->what);
}

int pm_avro_schema_parse(const char *json, size_t len, pm_arena *arena, const char *what,
                         pm_avro_schema **out, paimon_error *err)
{
    json_error_t je;
    json_t *root = json_loadb(json, len, JSON_DECODE_ANY, &je);
    parse_ctx c = {arena, what, err, NULL, 0, 0};
    int rc;
    *out = NULL;
    if (root == NULL)
        return pm_corrupt(err, "%s: malformed Avro schema JSON: %s", what, je.text);
    rc = parse_node(&c, root, NULL, 0, out);
    if (rc == 0 && (*out)->expanded > PM_AVRO_MAX_NODES) {
        *out = NULL;
        rc = pm_corrupt(err, "%s: Avro schema expands to more than %d nodes", what,
                        PM_AVRO_MAX_NODES);
    }
    pm_free(c.names);
    json_decref(root);
    return rc;
}

const pm_avro_schema *pm_avro_nullable_inner(const pm_avro_schema *s, int *null_branch)
{
    if (s->kind != PM_AVRO_UNION || s->branch_count != 2)
        return NULL;
    if (s->branches[0]->kind == PM_AVRO_NULL && s->branches[1]->kind != PM_AVRO_NULL) {
        *null_branch = 0;
        return s->branches[1];
    }
    if (s->branches[1]->kind == PM_AVRO_NULL && s->branches[0]->kind != PM_AVRO_NULL) {
        *null_branch = 1;
        return s->branches[0];
    }
    return NULL;
}

const pm_avro_field *pm_avro_record_field(const pm_avro_schema *record, const char *name,
                                          size_t *idx)
{
    for (size_t i = 0; i < record->field_count; i++) {
        if (strcmp(record->fields[i].name, name) == 0) {
            if (idx != NULL)
                *idx = i;
            return &record->fields[i];
        }
    }
    return NULL;
}
