/* The columns a handle shows its callers: see columns.h. */
#include "api/columns.h"

#include <string.h>

#include "api/api.h"
#include "util/alloc.h"

int pm_api_columns_init(pm_api_columns *c, pm_type *type, paimon_error *err)
{
    memset(c, 0, sizeof(*c));
    c->type = type;
    if (type == NULL || (c->type_names = pm_calloc(type->field_count + 1, sizeof(char *))) == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < type->field_count; i++)
        if ((c->type_names[i] = pm_api_type_string(type->fields[i].type)) == NULL)
            return pm_nomem(err);
    return 0;
}

void pm_api_columns_release(pm_api_columns *c)
{
    for (size_t i = 0; c->type_names != NULL && i < c->type->field_count; i++)
        pm_free(c->type_names[i]);
    pm_free(c->type_names);
    pm_type_free(c->type);
    memset(c, 0, sizeof(*c));
}

size_t pm_api_columns_count(const pm_api_columns *c)
{
    return c->type_names != NULL ? c->type->field_count : 0;
}

const char *pm_api_columns_name(const pm_api_columns *c, size_t column)
{
    return column < pm_api_columns_count(c) ? c->type->fields[column].name : NULL;
}

const char *pm_api_columns_type(const pm_api_columns *c, size_t column)
{
    return column < pm_api_columns_count(c) ? c->type_names[column] : NULL;
}
