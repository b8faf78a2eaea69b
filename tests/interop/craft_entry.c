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

#include "commit_fixture.h"
#include "util/alloc.h"

int main(int argc, char **argv)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_arena arena;
    pm_commit_messages m;
    pm_manifest_entry e;

    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: interop_craft_entry SRC DST NAME [EXTERNAL_PATH]\n");
        return 2;
    }
    pm_arena_init(&arena, 4096);
    pm_commit_messages_init(&m);
    pm_test_first_live_entry("craft", fs, argv[1], &arena, &e);
    e.kind = PM_FILE_KIND_ADD;
    e.file.file_name = argv[3];
    e.file.external_path = argc == 5 ? argv[4] : NULL;
    if (pm_commit_messages_add_data(&m, &e) != 0) {
        fprintf(stderr, "craft: out of memory\n");
        return 1;
    }
    printf("%lld\n", (long long)pm_test_commit_append("craft", fs, argv[2], &m, "craft"));
    pm_commit_messages_release(&m);
    pm_arena_free(&arena);
    pm_fs_free(fs);
    return 0;
}
