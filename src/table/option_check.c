/* The options check of create and alter: see option_check.h. */
#include "table/option_check.h"

#include <string.h>

#include "meta/file_path.h"
#include "meta/option_catalog.h"
#include "table/write/col_stats.h"
#include "table/write/file_index_writer.h"
#include "util/error.h"
#include "util/strlist.h"
#include "util/units.h"

PM_MUST_CHECK static int check_mode(const char *key, const char *text, paimon_error *err)
{
    pm_stats_mode mode;
    int rc = pm_stats_mode_parse(text, &mode, err);
    return rc != 0 ? pm_err_prefix(err, rc, "option %s: ", key) : 0;
}

/* metadata.stats-mode and the options that replace it for some files or columns. */
PM_MUST_CHECK static int check_stats_modes(const pm_options *o, paimon_error *err)
{
    static const char *const SUFFIX = ".stats-mode";
    const char *v = pm_options_get(o, "metadata.stats-mode.per.level");
    pm_strlist levels;
    int rc = 0;
    if ((rc = check_mode("metadata.stats-mode", pm_options_get_str(o, "metadata.stats-mode"),
                         err)) != 0)
        return rc;
    if ((v = pm_options_get(o, "changelog-file.stats-mode")) != NULL &&
        (rc = check_mode("changelog-file.stats-mode", v, err)) != 0)
        return rc;
    for (size_t i = 0; i < o->count; i++) {
        const char *k = o->keys[i];
        size_t n = strlen(k);
        if (strncmp(k, "fields.", 7) == 0 && n > strlen(SUFFIX) + 7 &&
            strcmp(k + n - strlen(SUFFIX), SUFFIX) == 0 &&
            (rc = check_mode(k, o->values[i], err)) != 0)
            return rc;
    }
    /* the map's own form is checked with the option's type (pm_options_validate) */
    pm_strlist_init(&levels);
    if ((v = pm_options_get(o, "metadata.stats-mode.per.level")) != NULL &&
        pm_parse_map(v, &levels) == 0)
        for (size_t i = 1; i < levels.count && rc == 0; i += 2)
            rc = check_mode("metadata.stats-mode.per.level", levels.items[i], err);
    pm_strlist_free(&levels);
    return rc;
}

int pm_table_options_check(const pm_schema *s, paimon_error *err)
{
    pm_file_index_conf index;
    int rc = pm_options_validate(s, err);
    if (rc != 0 || (rc = check_stats_modes(&s->options, err)) != 0 ||
        (rc = pm_file_path_check_options(&s->options, err)) != 0)
        return rc;
    /* file-index.*: the index types, columns and settings the writer takes */
    rc = pm_file_index_conf_init(&index, s, s->row, err);
    if (rc == 0)
        pm_file_index_conf_free(&index);
    return rc;
}
