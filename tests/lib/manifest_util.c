/* Manifests written by hand for tests: see manifest_util.h. */
#include "manifest_util.h"

#include <string.h>

#include "testlib.h"

void pm_test_write_manifest(pm_fs *fs, const char *name, const pm_manifest_entry *entries, size_t n,
                            pm_manifest_file_meta *meta)
{
    paimon_error err = {0};
    int64_t size = 0;
    assert_int_equal(pm_manifest_file_write(fs, "t", name, &PM_MANIFEST_ENTRY_DESC, entries, n,
                                            "null", 0, &size, &err),
                     0);
    memset(meta, 0, sizeof(*meta));
    meta->version = PM_MANIFEST_LIST_VERSION;
    meta->file_name = name;
    meta->file_size = size;
    for (size_t i = 0; i < n; i++) {
        if (entries[i].kind == PM_FILE_KIND_ADD)
            meta->num_added_files++;
        else
            meta->num_deleted_files++;
    }
}

void pm_test_write_list(pm_fs *fs, const char *name, const pm_manifest_file_meta *metas, size_t n)
{
    paimon_error err = {0};
    int64_t size = 0;
    assert_int_equal(pm_manifest_file_write(fs, "t", name, &PM_MANIFEST_FILE_META_DESC, metas, n,
                                            "null", 0, &size, &err),
                     0);
}
