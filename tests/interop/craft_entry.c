/* Commits a crafted manifest entry, for the tests of paths taken from metadata
 * (crafted_paths.test.sh, meta/file_path.h):
 *
 *   interop_craft_entry SRC DST NAME [EXTERNAL_PATH]
 *
 * Takes the first live data file of SRC's latest snapshot (an unpartitioned table), renames
 * it NAME, sets its _EXTERNAL_PATH (when given), and commits it as an APPEND to DST (same
 * schema) with the level and statistics it had, as a hostile writer of manifests could.  The
 * file itself is not copied: NAME and EXTERNAL_PATH say where readers would look. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta/live_files.h"
#include "meta/snapshot.h"
#include "table/commit.h"
#include "util/alloc.h"

int main(int argc, char **argv)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_snapshot *snap = NULL;
    pm_live_file *files = NULL;
    size_t n = 0;
    pm_arena arena;
    pm_commit_messages m;
    pm_commit_opts o;
    pm_manifest_entry e;
    paimon_error err = {0};
    int64_t latest = 0, id = 0;
    bool found = false;
    int rc;

    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: interop_craft_entry SRC DST NAME [EXTERNAL_PATH]\n");
        return 2;
    }
    pm_arena_init(&arena, 4096);
    pm_commit_messages_init(&m);
    if ((rc = pm_snapshot_latest_id(fs, argv[1], &latest, &found, &err)) != 0 || !found ||
        (rc = pm_snapshot_read(fs, argv[1], latest, &snap, &err)) != 0 ||
        (rc = pm_live_files_sorted(fs, argv[1], snap, NULL, 0, NULL, NULL, &arena, &files, &n,
                                   &err)) != 0 ||
        n == 0) {
        fprintf(stderr, "craft: %s: no live file: %s\n", argv[1], err.message);
        return 1;
    }
    e = *files[0].e;
    e.kind = PM_FILE_KIND_ADD;
    e.file.file_name = argv[3];
    e.file.external_path = argc == 5 ? argv[4] : NULL;
    memset(&o, 0, sizeof(o));
    o.commit_user = "craft";
    o.identifier = 1;
    o.kind = PM_COMMIT_APPEND;
    if ((rc = pm_commit_messages_add_data(&m, &e)) != 0 ||
        (rc = pm_commit(fs, argv[2], &m, &o, &id, &err)) != 0) {
        fprintf(stderr, "craft: %s: %s\n", argv[2], err.message);
        return 1;
    }
    printf("%lld\n", (long long)id);
    pm_commit_messages_release(&m);
    pm_snapshot_free(snap);
    pm_arena_free(&arena);
    pm_fs_free(fs);
    return 0;
}
