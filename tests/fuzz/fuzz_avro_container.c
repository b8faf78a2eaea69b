/*
 * Fuzz target: Avro container files decoded as each manifest kind (header, blocks,
 * codecs, schema resolution, records), and read as an Avro data file (the header's schema
 * as Paimon types, every batch).  Any result but a crash or a sanitizer report is fine; the
 * byte-flip sweep (tests/compat) checks the error codes; a batch that decodes must be
 * valid.
 */
#include <stddef.h>
#include <stdint.h>

#include "format/data_file.h"
#include "meta/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keeps entries of even buckets: the rest are skipped by the compiled skipper. */
static bool even_buckets(void *ctx, const pm_manifest_entry *e)
{
    (void)ctx;
    return e->bucket % 2 == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct {
        const pm_avro_rdesc *rd;
        int32_t version;
    } kinds[] = {{&PM_MANIFEST_FILE_META_DESC, PM_MANIFEST_LIST_VERSION},
                 {&PM_MANIFEST_ENTRY_DESC, PM_MANIFEST_VERSION},
                 {&PM_INDEX_MANIFEST_ENTRY_DESC, PM_INDEX_MANIFEST_VERSION}};
    for (size_t k = 0; k < 3; k++) {
        pm_arena arena;
        void *records = NULL;
        size_t count = 0;
        paimon_error err;
        pm_arena_init(&arena, 4096);
        PM_IGNORE(pm_manifest_decode(data, size, "fuzz", kinds[k].rd, kinds[k].version, &arena,
                                     &records, &count, &err));
        pm_arena_free(&arena);
    }
    {
        pm_manifest_filter f = {even_buckets, NULL};
        pm_manifest_entry *entries = NULL;
        size_t count = 0;
        paimon_error err;
        pm_arena arena;
        pm_arena_init(&arena, 4096);
        PM_IGNORE(
            pm_manifest_decode_filtered(data, size, "fuzz", &f, &arena, &entries, &count, &err));
        pm_arena_free(&arena);
    }
    {
        pm_fs *fs = pm_fs_memory_new();
        pm_data_file *f = NULL;
        pm_read_options o = {0};
        paimon_error err = {0};
        pm_batch *b;
        int rc;
        if (fs != NULL && pm_fs_write_file(fs, "/f.avro", data, size, &err) == 0 &&
            pm_data_file_open(&f, fs, "/f.avro", &err) == 0) {
            rc = f->format->start(f->impl, &o, &err);
            while (rc == 0 && (rc = f->format->next(f->impl, &b, &err)) == 0) {
                paimon_error v = {0};
                if (pm_batch_validate(b, &v) != 0)
                    __builtin_trap(); /* a decode that succeeds must be a valid batch */
                pm_batch_free(b);
            }
        }
        pm_data_file_free(f);
        pm_fs_free(fs);
    }
    return 0;
}
