/* Partition specs parsed as typed values: see partition_spec.h. */
#include "meta/partition_spec.h"

#include <string.h>

#include "data/batch.h"
#include "data/binary_row.h"
#include "data/datum_compare.h"
#include "data/input.h"
#include "meta/partition.h"
#include "util/alloc.h"
#include "util/error.h"

struct pm_partition_spec {
    size_t count;          /* items */
    size_t part_count;     /* partition keys of the table */
    const pm_type **types; /* per partition key: its type (borrowed from the schema) */
    int32_t *idx;          /* per item: the index of its partition key */
    pm_column **values;    /* per item: one slot holding the value (null for the default name) */
    pm_datum *datums;      /* per item: the value, bytes borrowed from values[i] */
    pm_datum *row;         /* part_count datums: scratch for a decoded partition */
};

void pm_partition_spec_free(pm_partition_spec *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; s->values != NULL && i < s->count; i++)
        pm_column_free(s->values[i]);
    pm_free(s->values);
    pm_free(s->types);
    pm_free(s->idx);
    pm_free(s->datums);
    pm_free(s->row);
    pm_free(s);
}

/* Item `i` ("k=v") into s->idx[i] and s->values[i]. */
PM_MUST_CHECK static int parse_item(pm_partition_spec *s, size_t i, const char *item,
                                    const pm_field *const *parts, const pm_partition_naming *naming,
                                    paimon_error *err)
{
    const char *eq = strchr(item, '=');
    const pm_field *f = NULL;
    paimon_error why;
    int rc;

    if (eq == NULL || eq == item)
        return pm_err_set(err, PAIMON_EINVALID, "partition '%s' is not k=v", item);
    for (size_t k = 0; k < s->part_count && f == NULL; k++)
        if (strlen(parts[k]->name) == (size_t)(eq - item) &&
            strncmp(parts[k]->name, item, (size_t)(eq - item)) == 0) {
            f = parts[k];
            s->idx[i] = (int32_t)k;
        }
    if (f == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "partition '%s': %.*s is not a partition column",
                          item, (int)(eq - item), item);
    for (size_t j = 0; j < i; j++)
        if (s->idx[j] == s->idx[i])
            return pm_err_set(err, PAIMON_EINVALID, "partition '%s': column %s is given twice",
                              item, f->name);
    if ((s->values[i] = pm_column_new(f->type)) == NULL)
        return pm_nomem(err);
    if (strcmp(eq + 1, naming->default_name) == 0)
        rc = pm_column_append_null(s->values[i]) == 0 ? 0 : pm_nomem(err);
    else if ((rc = pm_input_value(s->values[i], NULL, (const uint8_t *)eq + 1, strlen(eq + 1),
                                  &why)) != 0)
        return pm_err_set(err, rc, "partition '%s': column %s: %s", item, f->name, why.message);
    if (rc != 0)
        return rc;
    pm_column_get_datum(s->values[i], 0, &s->datums[i]);
    return 0;
}

int pm_partition_spec_parse(pm_partition_spec **out, const pm_schema *schema,
                            const char *const *items, size_t count, paimon_error *err)
{
    pm_partition_spec *s = NULL;
    const pm_field **parts = NULL;
    pm_partition_naming naming;
    size_t nfields = schema->row->field_count;
    int rc = 0;

    *out = NULL;
    if ((s = pm_calloc(1, sizeof(*s))) == NULL ||
        (parts = pm_calloc(nfields + 1, sizeof(*parts))) == NULL ||
        (s->types = pm_calloc(nfields + 1, sizeof(*s->types))) == NULL ||
        (s->row = pm_calloc(nfields + 1, sizeof(*s->row))) == NULL ||
        (s->idx = pm_calloc(count + 1, sizeof(*s->idx))) == NULL ||
        (s->values = pm_calloc(count + 1, sizeof(*s->values))) == NULL ||
        (s->datums = pm_calloc(count + 1, sizeof(*s->datums))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    s->count = count;
    if ((rc = pm_schema_partition_fields(schema, parts, nfields + 1, &s->part_count, err)) != 0 ||
        (rc = pm_partition_naming_from(schema, &naming, err)) != 0)
        goto done;
    for (size_t k = 0; k < s->part_count; k++)
        s->types[k] = parts[k]->type;
    for (size_t i = 0; i < count; i++)
        if ((rc = parse_item(s, i, items[i] != NULL ? items[i] : "", parts, &naming, err)) != 0)
            goto done;
    *out = s;
    s = NULL;
done:
    pm_free(parts);
    pm_partition_spec_free(s);
    return rc;
}

int pm_partition_spec_match(const pm_partition_spec *s, const uint8_t *row, size_t len, bool *out,
                            paimon_error *err)
{
    int rc;
    *out = true;
    if (s->count == 0)
        return 0;
    if ((rc = pm_binrow_decode_key(row, len, s->types, s->part_count, s->row, err)) != 0)
        return rc;
    for (size_t i = 0; i < s->count && *out; i++)
        *out = pm_datum_compare(s->types[s->idx[i]], &s->row[s->idx[i]], &s->datums[i]) == 0;
    return 0;
}
