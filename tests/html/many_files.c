/* Commits many file entries at once, for the size bound of `inspect --html` (report.test.sh)
 * and its render-time benchmark (bench/html_report.sh):
 *
 *   html_many_files SRC DST COUNT
 *
 * Takes the first live data file of SRC's latest snapshot (an unpartitioned table with the
 * schema and bucket count of DST) and commits COUNT copies of its entry to DST as one APPEND
 * snapshot, named data-many-<i>.parquet, spread round-robin over DST's buckets at level 0.
 * Only metadata is written: the report reads manifests, never the data files, so the files
 * need not exist (a reader of DST would fail; nothing reads it). */
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
    long count;
    bool found = false;
    char name[64];
    int rc;

    if (argc != 4 || (count = strtol(argv[3], NULL, 10)) <= 0) {
        fprintf(stderr, "usage: html_many_files SRC DST COUNT\n");
        return 2;
    }
    pm_arena_init(&arena, 4096);
    pm_commit_messages_init(&m);
    if ((rc = pm_snapshot_latest_id(fs, argv[1], &latest, &found, &err)) != 0 || !found ||
        (rc = pm_snapshot_read(fs, argv[1], latest, &snap, &err)) != 0 ||
        (rc = pm_live_files_sorted(fs, argv[1], snap, NULL, 0, NULL, NULL, &arena, &files, &n,
                                   &err)) != 0 ||
        n == 0) {
        fprintf(stderr, "many_files: %s: no live file: %s\n", argv[1], err.message);
        return 1;
    }
    for (long i = 0; i < count; i++) {
        e = *files[0].e;
        e.kind = PM_FILE_KIND_ADD;
        e.bucket = e.total_buckets > 0 ? (int32_t)(i % e.total_buckets) : 0;
        e.file.level = 0;
        snprintf(name, sizeof(name), "data-many-%ld.parquet", i);
        e.file.file_name = name;
        e.file.file_size += i % 4096; /* sizes that differ, as real files' do */
        if ((rc = pm_commit_messages_add_data(&m, &e)) != 0) {
            fprintf(stderr, "many_files: out of memory\n");
            return 1;
        }
    }
    memset(&o, 0, sizeof(o));
    o.commit_user = "many-files";
    o.identifier = 1;
    o.kind = PM_COMMIT_APPEND;
    if ((rc = pm_commit(fs, argv[2], &m, &o, &id, &err)) != 0) {
        fprintf(stderr, "many_files: %s: %s\n", argv[2], err.message);
        return 1;
    }
    printf("committed %ld entries in snapshot %lld\n", count, (long long)id);
    pm_commit_messages_release(&m);
    pm_snapshot_free(snap);
    pm_arena_free(&arena);
    pm_fs_free(fs);
    return 0;
}
