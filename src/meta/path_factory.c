/* File names a writer creates (path_factory.h). */
#include "meta/path_factory.h"

#include "util/error.h"

int pm_path_factory_init(pm_path_factory *f)
{
    for (int i = 0; i < PM_NAME_KIND_COUNT; i++)
        f->counters[i] = 0;
    return pm_uuid_v4(f->uuid);
}

int pm_path_factory_next(pm_path_factory *f, pm_file_kind_name kind, const char *prefix,
                         const char *ext, pm_buf *out)
{
    long n = __atomic_fetch_add(&f->counters[kind], 1, __ATOMIC_RELAXED);
    switch (kind) {
    case PM_NAME_MANIFEST: return pm_buf_printf(out, "manifest-%s-%ld", f->uuid, n);
    case PM_NAME_MANIFEST_LIST: return pm_buf_printf(out, "manifest-list-%s-%ld", f->uuid, n);
    case PM_NAME_INDEX_MANIFEST: return pm_buf_printf(out, "index-manifest-%s-%ld", f->uuid, n);
    case PM_NAME_INDEX: return pm_buf_printf(out, "index-%s-%ld", f->uuid, n);
    case PM_NAME_DATA:
        return pm_buf_printf(out, "%s%s-%ld.%s", prefix != NULL ? prefix : "data-", f->uuid, n,
                             ext);
    case PM_NAME_CHANGELOG:
        return pm_buf_printf(out, "%s%s-%ld.%s", prefix != NULL ? prefix : "changelog-", f->uuid, n,
                             ext);
    case PM_NAME_KIND_COUNT: break;
    }
    return PAIMON_EINVALID;
}

int pm_bucket_dir_name(int32_t bucket, pm_buf *out)
{
    if (bucket == -2)
        return pm_buf_puts(out, "bucket-postpone");
    return pm_buf_printf(out, "bucket-%d", (int)bucket);
}
