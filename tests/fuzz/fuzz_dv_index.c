/*
 * Fuzz target: what a writer restores from disk besides data files.
 *  - A deletion-vector index file (table/write/dv_maintainer.h): the input's first byte
 *    says how many ranges the index manifest claims (0-7), each taking 8 bytes (int32 LE
 *    offset, int32 LE length); the rest is the index file.  A maintainer that restores it
 *    is marked, emptied of one file and written back, and what it writes restores again.
 *  - A packed changelog file name (format/compacted_changelog.h): the input as a name and
 *    as the last component of a path, parsed and resolved.
 * Any result but a crash or a sanitizer report is fine.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "format/compacted_changelog.h"
#include "io/fs.h"
#include "table/write/dv_maintainer.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const FILES[4] = {"data-a.parquet", "data-b.parquet", "data-a.parquet",
                                     "data-c.orc"};

static void restore_index(const uint8_t *data, size_t size)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_index_manifest_entry e;
    pm_dv_range ranges[8];
    pm_dv_maintainer *m = NULL, *again = NULL;
    pm_path_factory names;
    pm_arena arena;
    paimon_error err;
    size_t n, head;
    if (fs == NULL || size < 1)
        goto done;
    n = data[0] % 8;
    head = 1 + 8 * n;
    if (size < head)
        goto done;
    memset(&e, 0, sizeof(e));
    for (size_t i = 0; i < n; i++) {
        ranges[i].data_file = FILES[i % 4];
        ranges[i].offset = (int32_t)pm_load_le32(data + 1 + 8 * i);
        ranges[i].length = (int32_t)pm_load_le32(data + 5 + 8 * i);
        ranges[i].cardinality = -1;
        ranges[i].has_cardinality = false;
    }
    e.index_type = "DELETION_VECTORS";
    e.file_name = "index-f";
    e.dv_ranges.items = ranges;
    e.dv_ranges.count = n;
    e.dv_ranges.present = true;
    if (fs->mkdirs(fs, "/i", NULL) != 0 ||
        pm_fs_write_file(fs, "/i/index-f", data + head, size - head, &err) != 0)
        goto done;
    if (pm_dv_maintainer_new(&m, fs, (data[0] & 8) != 0, &e, "/i/index-f", &err) != 0)
        goto done;
    PM_IGNORE(pm_dv_maintainer_mark(m, "data-b.parquet", 3, &err));
    pm_dv_maintainer_remove(m, "data-c.orc");
    if (pm_path_factory_init(&names) != 0)
        goto done;
    pm_arena_init(&arena, 1024);
    {
        pm_index_manifest_entry w;
        bool written = false;
        char path[128];
        if (pm_dv_maintainer_write(m, fs, "/i", &names, NULL, 0, 0, &arena, &w, &written, &err) ==
                0 &&
            written) {
            snprintf(path, sizeof(path), "/i/%s", w.file_name);
            if (pm_dv_maintainer_new(&again, fs, false, &w, path, &err) != 0)
                __builtin_trap(); /* what paimon-c writes must restore */
        }
    }
    pm_arena_free(&arena);
done:
    pm_dv_maintainer_free(again);
    pm_dv_maintainer_free(m);
    pm_fs_free(fs);
}

static void parse_name(const uint8_t *data, size_t size)
{
    char *name = pm_malloc(size + 1), *path = pm_malloc(size + 32);
    pm_compacted_changelog_name n;
    paimon_error err;
    pm_buf real;
    uint64_t off, len;
    if (name == NULL || path == NULL)
        goto done;
    memcpy(name, data, size);
    name[size] = '\0';
    PM_IGNORE(pm_compacted_changelog_parse(name, &n, &err));
    snprintf(path, size + 32, "/t/p=1/bucket-0/%s", name);
    pm_buf_init(&real, 0);
    if (pm_compacted_changelog_is(path))
        PM_IGNORE(pm_compacted_changelog_resolve(path, &real, &off, &len, &err));
    pm_buf_free(&real);
done:
    pm_free(name);
    pm_free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    restore_index(data, size);
    parse_name(data, size);
    return 0;
}
