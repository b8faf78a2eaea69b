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

#include "commit_fixture.h"
#include "util/alloc.h"

int main(int argc, char **argv)
{
    pm_fs *fs = pm_fs_local_new(false);
    pm_arena arena;
    pm_commit_messages m;
    pm_manifest_entry first, e;
    long count;
    char name[64];
    int64_t id;

    if (argc != 4 || (count = strtol(argv[3], NULL, 10)) <= 0) {
        fprintf(stderr, "usage: html_many_files SRC DST COUNT\n");
        return 2;
    }
    pm_arena_init(&arena, 4096);
    pm_commit_messages_init(&m);
    pm_test_first_live_entry("many_files", fs, argv[1], &arena, &first);
    for (long i = 0; i < count; i++) {
        e = first;
        e.kind = PM_FILE_KIND_ADD;
        e.bucket = e.total_buckets > 0 ? (int32_t)(i % e.total_buckets) : 0;
        e.file.level = 0;
        snprintf(name, sizeof(name), "data-many-%ld.parquet", i);
        e.file.file_name = name;
        e.file.file_size += i % 4096; /* sizes that differ, as real files' do */
        if (pm_commit_messages_add_data(&m, &e) != 0) {
            fprintf(stderr, "many_files: out of memory\n");
            return 1;
        }
    }
    id = pm_test_commit_append("many_files", fs, argv[2], &m, "many-files");
    printf("committed %ld entries in snapshot %lld\n", count, (long long)id);
    pm_commit_messages_release(&m);
    pm_arena_free(&arena);
    pm_fs_free(fs);
    return 0;
}
