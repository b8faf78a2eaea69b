/*
 * Sections of sorted runs as Java's IntervalPartition forms them, on key ranges worked out by
 * hand (including the run order of java.util.PriorityQueue's array).
 */
#include <string.h>

#include "testlib.h"

#include "data/binary_row.h"
#include "table/interval_partition.h"
#include "util/alloc.h"

typedef struct range {
    const char *name;
    int64_t lo, hi;
} range;

static void key_bytes(pm_arena *a, int64_t v, pm_avro_bytes *out)
{
    pm_type *t = pm_type_new(PM_TYPE_BIGINT);
    const pm_type *types[1] = {t};
    pm_datum d = pm_datum_int(v);
    pm_buf b;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_binrow_serialize(&b, types, &d, 1), 0);
    out->ptr = pm_arena_dup(a, b.data, b.len);
    out->len = b.len;
    pm_buf_free(&b);
    pm_type_free(t);
}

/* "A,B | C" style text of the sections: runs separated by spaces, sections by " | ". */
/* Appends `s` to the string in buf[cap]; fails the test when it does not fit. */
static void append(char *buf, size_t cap, const char *s)
{
    size_t len = strlen(buf), n = strlen(s);
    assert_true(len + n < cap);
    memcpy(buf + len, s, n + 1);
}

static void check(const range *rs, size_t n, const char *want)
{
    pm_arena arena;
    pm_manifest_entry *entries;
    const pm_manifest_entry **files;
    pm_section *sections = NULL;
    size_t count = 0;
    pm_type *t = pm_type_new(PM_TYPE_BIGINT);
    const pm_type *types[1] = {t};
    paimon_error err = {0};
    char got[256] = "";
    pm_arena_init(&arena, 4096);
    entries = pm_arena_calloc(&arena, n, sizeof(*entries));
    files = pm_arena_calloc(&arena, n, sizeof(*files));
    for (size_t i = 0; i < n; i++) {
        entries[i].file.file_name = rs[i].name;
        key_bytes(&arena, rs[i].lo, &entries[i].file.min_key);
        key_bytes(&arena, rs[i].hi, &entries[i].file.max_key);
        files[i] = &entries[i];
    }
    assert_int_equal(pm_interval_partition(files, n, types, 1, &arena, &sections, &count, &err), 0);
    for (size_t s = 0; s < count; s++) {
        if (s > 0)
            append(got, sizeof(got), " | ");
        for (size_t r = 0; r < sections[s].run_count; r++) {
            if (r > 0)
                append(got, sizeof(got), " ");
            for (size_t f = 0; f < sections[s].runs[r].file_count; f++)
                append(got, sizeof(got), sections[s].runs[r].files[f]->file.file_name);
        }
    }
    assert_string_equal(got, want);
    pm_type_free(t);
    pm_arena_free(&arena);
}

static void test_sections_and_runs(void **state)
{
    (void)state;
    {
        /* A [1,5] B [3,8] C [6,10] overlap; D [12,15] E [13,14]; F alone.  In the first
         * section C extends A's run (6 > 5); the queue's array holds B before A-C. */
        static const range rs[] = {{"C", 6, 10}, {"A", 1, 5},   {"E", 13, 14},
                                   {"B", 3, 8},  {"F", 20, 22}, {"D", 12, 15}};
        check(rs, 6, "B AC | E D | F");
    }
    {
        /* Touching ranges overlap: a run needs its next file to start above its last key. */
        static const range rs[] = {{"A", 1, 5}, {"B", 5, 9}, {"C", 10, 12}};
        check(rs, 3, "A B | C");
    }
    {
        /* Equal ranges keep the input order (a stable sort), each its own run. */
        static const range rs[] = {{"X", 1, 9}, {"Y", 1, 9}, {"Z", 1, 9}};
        check(rs, 3, "X Z Y");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sections_and_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
