/* File indexes of written data files: see file_index_writer.h. */
#include "table/write/file_index_writer.h"

#include <string.h>

#include "util/alloc.h"
#include "util/error.h"

int pm_file_index_conf_init(pm_file_index_conf *c, const pm_schema *schema, const pm_type *row,
                            paimon_error *err)
{
    memset(c, 0, sizeof(*c));
    (void)row;
    for (size_t i = 0; i < schema->options.count; i++)
        if (strncmp(schema->options.keys[i], "file-index.", 11) == 0 &&
            strcmp(schema->options.keys[i], "file-index.in-manifest-threshold") != 0 &&
            strcmp(schema->options.keys[i], "file-index.read.enabled") != 0)
            return pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "option %s: file indexes are not written yet",
                              schema->options.keys[i]);
    return 0;
}

void pm_file_index_conf_free(pm_file_index_conf *c)
{
    for (size_t i = 0; i < c->count; i++)
        pm_free(c->columns[i].name);
    pm_free(c->columns);
    memset(c, 0, sizeof(*c));
}

int pm_file_index_writer_new(pm_file_index_writer **out, const pm_file_index_conf *c,
                             const pm_type *row, paimon_error *err)
{
    (void)c;
    (void)row;
    (void)err;
    *out = NULL;
    return 0;
}

int pm_file_index_writer_add(pm_file_index_writer *w, pm_column *const *cols, int64_t first,
                             int64_t n, paimon_error *err)
{
    (void)w;
    (void)cols;
    (void)first;
    (void)n;
    (void)err;
    return 0;
}

int pm_file_index_writer_finish(pm_file_index_writer *w, pm_buf *out, paimon_error *err)
{
    (void)w;
    (void)out;
    (void)err;
    return 0;
}

void pm_file_index_writer_free(pm_file_index_writer *w)
{
    (void)w;
}
