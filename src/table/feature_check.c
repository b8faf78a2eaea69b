/* What paimon-c refuses to read or write: see feature_check.h. */
#include "table/feature_check.h"

#include <string.h>
#include <strings.h>

#include "util/error.h"

typedef enum when { READ, BOTH, WRITE } when; /* reads only, reads and writes, writes only */

/* An option that changes results when set (any value) or when equal to `bad` ("true"). */
typedef struct refused {
    const char *key;
    const char *bad; /* NULL: any value */
    when when;
    const char *why;
} refused;

static const refused REFUSED[] = {
    {"data-evolution.enabled", "true", BOTH,
     "files that rewrite columns of the same rows are merged at read time"},
    {"blob-field", NULL, BOTH, "blob columns live in separate blob files"},
    {"vector-field", NULL, BOTH, "vector columns live in separate vector files"},
    {"scan.fallback-branch", NULL, READ, "reads of partitions missing here go to another branch"},
    {"scan.primary-branch", NULL, READ, "reads join another branch"},
    {"chain-table.enabled", "true", BOTH, "reads chain a snapshot branch and a delta branch"},
    {"key-value.sequence_number.enabled", "true", READ, "rows read carry their sequence number"},
    {"record-level.expire-time", NULL, WRITE, "compaction drops expired records"},
};

PM_MUST_CHECK static int refuse(const char *table, const char *key, const char *value,
                                const char *why, paimon_error *err)
{
    return pm_err_set(err, PAIMON_EUNSUPPORTED,
                      "%s: option %s = %s is not supported by paimon-c (%s)", table, key, value,
                      why);
}

PM_MUST_CHECK static int check(const char *table, const pm_schema *s, bool write, paimon_error *err)
{
    const char *v;
    for (size_t i = 0; i < sizeof(REFUSED) / sizeof(REFUSED[0]); i++) {
        const refused *r = &REFUSED[i];
        if ((r->when == WRITE && !write) || (r->when == READ && write))
            continue;
        v = pm_schema_option(s, r->key);
        if (v != NULL && (r->bad == NULL || strcasecmp(v, r->bad) == 0))
            return refuse(table, r->key, v, r->why, err);
    }
    if ((v = pm_schema_option(s, "branch")) != NULL && strcmp(v, "main") != 0)
        return refuse(table, "branch", v, "branches are not supported", err);
    if ((v = pm_schema_option(s, "type")) != NULL && strcasecmp(v, "table") != 0 &&
        strcasecmp(v, "materialized-table") != 0)
        return refuse(table, "type", v, "only data tables are read", err);
    return 0;
}

int pm_table_check_read(const char *table, const pm_schema *s, paimon_error *err)
{
    return check(table, s, false, err);
}

int pm_table_check_changes(const char *table, const pm_schema *s, paimon_error *err)
{
    const char *bucket = pm_schema_option(s, "bucket");
    const char *producer = pm_schema_option(s, "changelog-producer");
    int rc = check(table, s, false, err);
    if (rc != 0)
        return rc;
    if (bucket != NULL && strcmp(bucket, "-2") == 0 &&
        (producer == NULL || strcasecmp(producer, "none") == 0))
        return refuse(table, "bucket", bucket,
                      "without a changelog producer, change reads return the rows waiting in "
                      "postpone buckets",
                      err);
    return 0;
}

int pm_table_check_write(const char *table, const pm_schema *s, paimon_error *err)
{
    return check(table, s, true, err);
}
