/*
 * The schema-file JSON form of types and fields (metadata.md §3.2–3.3): atomic types are
 * strings ("INT NOT NULL"), ARRAY/MAP/MULTISET/ROW are objects whose "type" is the kind plus
 * an optional " NOT NULL".  Fields are {"id", "name", "type", ["description"],
 * ["defaultValue"]}; the id is mandatory, as in Java.
 */
#ifndef PM_DATA_TYPE_JSON_H
#define PM_DATA_TYPE_JSON_H

#include <jansson.h>

#include "data/types.h"
#include "util/error.h"

/* Errors are PAIMON_ECORRUPT (a schema file is bytes from disk) naming the JSON path. */
PM_MUST_CHECK int pm_type_from_json(const json_t *json, pm_type **out, paimon_error *err);
/* Reads a JSON array of fields into a new ROW type (NOT NULL, as Java's table row type). */
PM_MUST_CHECK int pm_fields_from_json(const json_t *array, pm_type **out, paimon_error *err);

/* New references; NULL on allocation failure. */
json_t *pm_type_to_json(const pm_type *t);
json_t *pm_fields_to_json(const pm_type *row);

#endif /* PM_DATA_TYPE_JSON_H */
