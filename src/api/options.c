/*
 * The public option structs, described once: the size each version had and the defaults
 * (api.h states the rule).  The paimon_*_options_init() functions of the public headers are
 * here too, for callers that cannot use the INIT macros (ctypes, Rust, Go).
 *
 * The next version of a struct: add the field at the struct's end, bump its _VERSION and
 * INIT macro, and add one line to its table below -- `offsetof(struct, new_field)` for the
 * version before, `sizeof(struct)` for the new one.  The static assertions keep the table
 * and the version macro in step.
 */
#include <stddef.h>
#include <string.h>

#include "api/api.h"
#include "util/error.h"

#define DESCRIBE(var, type, sizes, init)                                                           \
    static const type var##_defaults = init;                                                       \
    _Static_assert(sizeof(sizes) / sizeof(sizes[0]) == var##_version,                              \
                   #type ": one size per version");                                                \
    const pm_api_options_desc pm_api_##var = {#type, sizeof(type), &var##_defaults, sizes,         \
                                              var##_version}

/* ---- the structs, version by version ----------------------------------------------------- */

enum {
    scan_options_version = PAIMON_SCAN_OPTIONS_VERSION,
    file_read_options_version = PAIMON_FILE_READ_OPTIONS_VERSION,
    changes_options_version = PAIMON_CHANGES_OPTIONS_VERSION,
    create_options_version = PAIMON_CREATE_OPTIONS_VERSION,
    commit_options_version = PAIMON_COMMIT_OPTIONS_VERSION,
    compact_options_version = PAIMON_COMPACT_OPTIONS_VERSION,
    writer_options_version = PAIMON_WRITER_OPTIONS_VERSION,
    alter_version = PAIMON_ALTER_VERSION,
    tag_options_version = PAIMON_TAG_OPTIONS_VERSION,
    orphan_options_version = PAIMON_ORPHAN_OPTIONS_VERSION,
    stream_options_version = PAIMON_STREAM_OPTIONS_VERSION,
    expire_partitions_options_version = PAIMON_EXPIRE_PARTITIONS_OPTIONS_VERSION,
    expire_options_version = PAIMON_EXPIRE_OPTIONS_VERSION,
};

static const size_t SCAN_SIZES[] = {
    offsetof(paimon_scan_options, system_table), /* 1 */
    offsetof(paimon_scan_options, option_keys),  /* 2: system_table */
    offsetof(paimon_scan_options, threads),      /* 3: option_keys, values, count */
    sizeof(paimon_scan_options),                 /* 4: threads */
};
static const size_t FILE_READ_SIZES[] = {
    offsetof(paimon_file_read_options, threads), /* 1 */
    sizeof(paimon_file_read_options),            /* 2: threads */
};
static const size_t CHANGES_SIZES[] = {
    offsetof(paimon_changes_options, threads), /* 1 */
    sizeof(paimon_changes_options),            /* 2: threads */
};
static const size_t CREATE_SIZES[] = {sizeof(paimon_create_options)};
static const size_t COMMIT_SIZES[] = {
    offsetof(paimon_commit_options, result),        /* 1 */
    offsetof(paimon_commit_options, property_keys), /* 2: result */
    sizeof(paimon_commit_options),                  /* 3: property_keys, values, count */
};
static const size_t COMPACT_SIZES[] = {
    offsetof(paimon_compact_options, maintain_err), /* 1 */
    offsetof(paimon_compact_options, threads),      /* 2: maintain_err */
    sizeof(paimon_compact_options),                 /* 3: threads */
};
static const size_t WRITER_SIZES[] = {
    offsetof(paimon_writer_options, threads), /* 1 */
    sizeof(paimon_writer_options),            /* 2: threads, async_compaction */
};
static const size_t ALTER_SIZES[] = {sizeof(paimon_alter)};
static const size_t TAG_SIZES[] = {sizeof(paimon_tag_options)};
static const size_t ORPHAN_SIZES[] = {sizeof(paimon_orphan_options)};
static const size_t STREAM_SIZES[] = {
    offsetof(paimon_stream_options, threads), /* 1 */
    sizeof(paimon_stream_options),            /* 2: threads */
};
static const size_t EXPIRE_PARTITIONS_SIZES[] = {sizeof(paimon_expire_partitions_options)};
static const size_t EXPIRE_SIZES[] = {sizeof(paimon_expire_options)};

DESCRIBE(scan_options, paimon_scan_options, SCAN_SIZES, PAIMON_SCAN_OPTIONS_INIT);
DESCRIBE(file_read_options, paimon_file_read_options, FILE_READ_SIZES,
         PAIMON_FILE_READ_OPTIONS_INIT);
DESCRIBE(changes_options, paimon_changes_options, CHANGES_SIZES, PAIMON_CHANGES_OPTIONS_INIT);
DESCRIBE(create_options, paimon_create_options, CREATE_SIZES, PAIMON_CREATE_OPTIONS_INIT);
DESCRIBE(commit_options, paimon_commit_options, COMMIT_SIZES, PAIMON_COMMIT_OPTIONS_INIT);
DESCRIBE(compact_options, paimon_compact_options, COMPACT_SIZES, PAIMON_COMPACT_OPTIONS_INIT);
DESCRIBE(writer_options, paimon_writer_options, WRITER_SIZES, PAIMON_WRITER_OPTIONS_INIT);
DESCRIBE(alter, paimon_alter, ALTER_SIZES, PAIMON_ALTER_INIT);
DESCRIBE(tag_options, paimon_tag_options, TAG_SIZES, PAIMON_TAG_OPTIONS_INIT);
DESCRIBE(orphan_options, paimon_orphan_options, ORPHAN_SIZES, PAIMON_ORPHAN_OPTIONS_INIT);
DESCRIBE(stream_options, paimon_stream_options, STREAM_SIZES, PAIMON_STREAM_OPTIONS_INIT);
DESCRIBE(expire_partitions_options, paimon_expire_partitions_options, EXPIRE_PARTITIONS_SIZES,
         PAIMON_EXPIRE_PARTITIONS_OPTIONS_INIT);
DESCRIBE(expire_options, paimon_expire_options, EXPIRE_SIZES, PAIMON_EXPIRE_OPTIONS_INIT);

/* ---- the rule ------------------------------------------------------------------------------ */

PM_MUST_CHECK static int bad_version(const pm_api_options_desc *d, const char *fn,
                                     unsigned int version, paimon_error *err)
{
    return pm_err_set(err, PAIMON_EINVALID,
                      "%s: %s version %u; this library knows versions 1 to %u", fn, d->name,
                      version, d->current);
}

int pm_api_options_get(const pm_api_options_desc *d, const char *fn, const void *given, void *out,
                       paimon_error *err)
{
    unsigned int version;
    memcpy(out, d->defaults, d->size);
    if (given == NULL)
        return 0;
    memcpy(&version, given, sizeof(version));
    if (version == 0 || version > d->current)
        return bad_version(d, fn, version, err);
    memcpy(out, given, d->version_size[version - 1]);
    memcpy(out, &d->current, sizeof(d->current));
    return 0;
}

/* Fills the bytes version `version` of the struct has with the defaults. */
static int init(const pm_api_options_desc *d, const char *fn, void *out, unsigned int version)
{
    if (out == NULL || version == 0 || version > d->current)
        return bad_version(d, fn, version, NULL);
    memcpy(out, d->defaults, d->version_size[version - 1]);
    memcpy(out, &version, sizeof(version));
    return 0;
}

PAIMON_API int paimon_scan_options_init(paimon_scan_options *o, unsigned int version)
{
    return init(&pm_api_scan_options, __func__, o, version);
}

PAIMON_API int paimon_file_read_options_init(paimon_file_read_options *o, unsigned int version)
{
    return init(&pm_api_file_read_options, __func__, o, version);
}

PAIMON_API int paimon_changes_options_init(paimon_changes_options *o, unsigned int version)
{
    return init(&pm_api_changes_options, __func__, o, version);
}

PAIMON_API int paimon_create_options_init(paimon_create_options *o, unsigned int version)
{
    return init(&pm_api_create_options, __func__, o, version);
}

PAIMON_API int paimon_commit_options_init(paimon_commit_options *o, unsigned int version)
{
    return init(&pm_api_commit_options, __func__, o, version);
}

PAIMON_API int paimon_compact_options_init(paimon_compact_options *o, unsigned int version)
{
    return init(&pm_api_compact_options, __func__, o, version);
}

PAIMON_API int paimon_writer_options_init(paimon_writer_options *o, unsigned int version)
{
    return init(&pm_api_writer_options, __func__, o, version);
}

PAIMON_API int paimon_alter_init(paimon_alter *o, unsigned int version)
{
    return init(&pm_api_alter, __func__, o, version);
}

PAIMON_API int paimon_tag_options_init(paimon_tag_options *o, unsigned int version)
{
    return init(&pm_api_tag_options, __func__, o, version);
}

PAIMON_API int paimon_orphan_options_init(paimon_orphan_options *o, unsigned int version)
{
    return init(&pm_api_orphan_options, __func__, o, version);
}

PAIMON_API int paimon_stream_options_init(paimon_stream_options *o, unsigned int version)
{
    return init(&pm_api_stream_options, __func__, o, version);
}

PAIMON_API int paimon_expire_partitions_options_init(paimon_expire_partitions_options *o,
                                                     unsigned int version)
{
    return init(&pm_api_expire_partitions_options, __func__, o, version);
}

PAIMON_API int paimon_expire_options_init(paimon_expire_options *o, unsigned int version)
{
    return init(&pm_api_expire_options, __func__, o, version);
}
