/*
 * The matrix of the randomized model test (tests/unit/table/test_model_*.c): every merge
 * engine x changelog producer x deletion vectors, with what Java 1.4.2 says about each
 * (SchemaValidation.validateTableSchema: the combinations it rejects at create, with its
 * reason) and whether paimon-c's writer accepts the table today.
 *
 * What holds: pm_model_combos lists each of the 4 x 4 x 2 combinations exactly once; a combination
 * with a `rejected` reason is one Java refuses to create; every other one is a valid table.
 */
#ifndef PM_TEST_MODEL_COMBO_H
#define PM_TEST_MODEL_COMBO_H

#include <stdbool.h>
#include <stddef.h>

typedef enum pm_model_engine {
    PM_MODEL_DEDUPLICATE,
    PM_MODEL_PARTIAL_UPDATE, /* with partial-update.remove-record-on-delete */
    PM_MODEL_AGGREGATION,    /* a: sum, b: last_non_null_value; remove-record-on-delete */
    PM_MODEL_FIRST_ROW       /* with ignore-delete (first-row refuses retracts otherwise) */
} pm_model_engine;

typedef enum pm_model_producer {
    PM_MODEL_CL_NONE,
    PM_MODEL_CL_INPUT,
    PM_MODEL_CL_LOOKUP,
    PM_MODEL_CL_FULL_COMPACTION
} pm_model_producer;

typedef struct pm_model_combo {
    pm_model_engine engine;
    pm_model_producer producer;
    bool deletion_vectors; /* deletion-vectors.enabled */
    const char *rejected;  /* Java's reason for refusing the table at create, or NULL */
} pm_model_combo;

extern const pm_model_combo pm_model_combos[];
extern const size_t pm_model_combo_count;

/* Whether paimon-c's writer writes the table today (else paimon_writer_open refuses it with
 * PAIMON_EUNSUPPORTED).  Decided in one place, model_combo.c, so that when a refused
 * feature lands, flipping its line there makes the model run every combination needing it. */
bool pm_model_combo_writable(const pm_model_combo *c);

/* True when Java's needLookup holds for the table (first-row, deletion vectors or the lookup
 * producer): writers compact level 0 away at every commit (lookup-wait), and batch reads of
 * first-row and deletion-vector tables skip level 0. */
bool pm_model_combo_needs_lookup(const pm_model_combo *c);

/* Names for messages and table tags: "deduplicate", "lookup", ... */
const char *pm_model_engine_name(pm_model_engine e);
const char *pm_model_producer_name(pm_model_producer p);
/* "partial-update/lookup/dv" into buf. */
const char *pm_model_combo_name(const pm_model_combo *c, char *buf, size_t cap);

#endif
