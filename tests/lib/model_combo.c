/* The model test's matrix: see model_combo.h. */
#include "model_combo.h"

#include <stdio.h>

/* ---- what paimon-c's writer accepts today -------------------------------------------------
 * src/table/write/write_ctx.c check_supported refuses primary-key tables that Java compacts
 * with lookups at every commit.  When one of these lands, flip its line to true: the model
 * then runs every combination that needs it (and until then asserts the refusal, so a
 * writer that starts accepting one fails the test here as a reminder). */
static const bool WRITES_DELETION_VECTORS = true;
static const bool WRITES_FIRST_ROW = true;
static const bool WRITES_LOOKUP_PRODUCER = true;

/* Java 1.4.2's reasons (SchemaValidation.validateTableSchema checks the first-row producer
 * rule before validateForDeletionVectors, so first-row with input or full-compaction gives
 * the first reason with and without deletion vectors). */
#define FIRST_ROW_PRODUCER                                                                         \
    "Only support 'none' and 'lookup' changelog-producer on FIRST_ROW merge engine"
#define DV_PRODUCER                                                                                \
    "Deletion vectors mode is only supported for NONE/INPUT/LOOKUP changelog producer now."
#define FIRST_ROW_DV                                                                               \
    "First row merge engine does not need deletion vectors because there is no deletion of old "   \
    "data in this merge engine."

#define DEDUP   PM_MODEL_DEDUPLICATE
#define PARTIAL PM_MODEL_PARTIAL_UPDATE
#define AGG     PM_MODEL_AGGREGATION
#define FIRST   PM_MODEL_FIRST_ROW
#define NONE    PM_MODEL_CL_NONE
#define INPUT   PM_MODEL_CL_INPUT
#define LOOKUP  PM_MODEL_CL_LOOKUP
#define FULL    PM_MODEL_CL_FULL_COMPACTION

const pm_model_combo pm_model_combos[] = {
    /* engine, producer, deletion vectors, Java's reason to refuse */
    {DEDUP, NONE, false, NULL},
    {DEDUP, NONE, true, NULL},
    {DEDUP, INPUT, false, NULL},
    {DEDUP, INPUT, true, NULL},
    {DEDUP, LOOKUP, false, NULL},
    {DEDUP, LOOKUP, true, NULL},
    {DEDUP, FULL, false, NULL},
    {DEDUP, FULL, true, DV_PRODUCER},
    {PARTIAL, NONE, false, NULL},
    {PARTIAL, NONE, true, NULL},
    {PARTIAL, INPUT, false, NULL},
    {PARTIAL, INPUT, true, NULL},
    {PARTIAL, LOOKUP, false, NULL},
    {PARTIAL, LOOKUP, true, NULL},
    {PARTIAL, FULL, false, NULL},
    {PARTIAL, FULL, true, DV_PRODUCER},
    {AGG, NONE, false, NULL},
    {AGG, NONE, true, NULL},
    {AGG, INPUT, false, NULL},
    {AGG, INPUT, true, NULL},
    {AGG, LOOKUP, false, NULL},
    {AGG, LOOKUP, true, NULL},
    {AGG, FULL, false, NULL},
    {AGG, FULL, true, DV_PRODUCER},
    {FIRST, NONE, false, NULL},
    {FIRST, NONE, true, FIRST_ROW_DV},
    {FIRST, INPUT, false, FIRST_ROW_PRODUCER},
    {FIRST, INPUT, true, FIRST_ROW_PRODUCER},
    {FIRST, LOOKUP, false, NULL},
    {FIRST, LOOKUP, true, FIRST_ROW_DV},
    {FIRST, FULL, false, FIRST_ROW_PRODUCER},
    {FIRST, FULL, true, FIRST_ROW_PRODUCER},
};

const size_t pm_model_combo_count = sizeof(pm_model_combos) / sizeof(pm_model_combos[0]);

bool pm_model_combo_writable(const pm_model_combo *c)
{
    if (c->deletion_vectors && !WRITES_DELETION_VECTORS)
        return false;
    if (c->engine == PM_MODEL_FIRST_ROW && !WRITES_FIRST_ROW)
        return false;
    if (c->producer == PM_MODEL_CL_LOOKUP && !WRITES_LOOKUP_PRODUCER)
        return false;
    return true;
}

bool pm_model_combo_needs_lookup(const pm_model_combo *c)
{
    return c->engine == PM_MODEL_FIRST_ROW || c->deletion_vectors ||
           c->producer == PM_MODEL_CL_LOOKUP;
}

const char *pm_model_engine_name(pm_model_engine e)
{
    static const char *const NAMES[] = {"deduplicate", "partial-update", "aggregation",
                                        "first-row"};
    return NAMES[e];
}

const char *pm_model_producer_name(pm_model_producer p)
{
    static const char *const NAMES[] = {"none", "input", "lookup", "full-compaction"};
    return NAMES[p];
}

const char *pm_model_combo_name(const pm_model_combo *c, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s%s", pm_model_engine_name(c->engine),
             pm_model_producer_name(c->producer), c->deletion_vectors ? "/dv" : "");
    return buf;
}
