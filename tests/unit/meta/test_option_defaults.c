/* meta/options: the catalogue's defaults are Java 1.4.2's (values copied by hand from
 * CoreOptions.java, so a generator that lost or misread one fails here), every default
 * parses as its type, the getters apply defaults, fallback keys and the limits, refuse
 * being used against the catalogue, and every call site in src/ uses them as the
 * catalogue says (a literal key read with the wrong getter fails this test, not a write). */
#include <dirent.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testlib.h"

#include "meta/option_catalog.h"
#include "meta/options.h"
#include "util/alloc.h"
#include "util/buf.h"

static void test_java_defaults(void **state)
{
    /* key, getter, Java's default as written in CoreOptions.java of release-1.4.2 */
    static const struct {
        const char *key;
        char kind; /* i: i64, b: bool, m: memory, d: duration (ms), f: double, s: string */
        int64_t i;
        double f;
        const char *s;
    } JAVA[] = {
        {"write-buffer-size", 'm', .i = 256LL << 20},       /* MemorySize.parse("256 mb") */
        {"num-sorted-run.compaction-trigger", 'i', .i = 5}, /* defaultValue(5) */
        {"snapshot.time-retained", 'd', .i = 3600000},      /* Duration.ofHours(1) */
        {"commit.max-retries", 'i', .i = 10},               /* defaultValue(10) */
        {"manifest.target-file-size", 'm', .i = 8LL << 20}, /* MemorySize.ofMebiBytes(8) */
        {"manifest.full-compaction-threshold-size", 'm', .i = 16LL << 20},
        {"manifest.merge-min-count", 'i', .i = 30},
        {"commit.min-retry-wait", 'd', .i = 10},    /* Duration.ofMillis(10) */
        {"commit.max-retry-wait", 'd', .i = 10000}, /* Duration.ofSeconds(10) */
        {"snapshot.num-retained.min", 'i', .i = 10},
        {"snapshot.num-retained.max", 'i', .i = INT32_MAX}, /* Integer.MAX_VALUE */
        {"bucket", 'i', .i = -1},
        {"dynamic-bucket.target-row-num", 'i', .i = 2000000}, /* 2_000_000L */
        {"lookup.cache-max-disk-size", 'm', .i = INT64_MAX},  /* MemorySize.MAX_VALUE */
        {"lookup.cache-max-memory-size", 'm', .i = 256LL << 20},
        {"cache-page-size", 'm', .i = 64 << 10},             /* MemorySize.parse("64 kb") */
        {"file-index.in-manifest-threshold", 'm', .i = 500}, /* MemorySize.parse("500 B") */
        {"source.split.target-size", 'm', .i = 128LL << 20},
        {"source.split.open-file-cost", 'm', .i = 4LL << 20},
        {"local-sort.max-num-file-handles", 'i', .i = 128},
        {"compaction.max-size-amplification-percent", 'i', .i = 200},
        {"compaction.size-ratio", 'i', .i = 1},
        {"file.compression.zstd-level", 'i', .i = 1},
        {"metadata.stats-keep-first-n-columns", 'i', .i = -1},
        {"partition.legacy-name", 'b', .i = 1},
        {"write-buffer-spillable", 'b', .i = 1},
        {"deletion-vectors.enabled", 'b', .i = 0},
        {"lookup-wait", 'b', .i = 1},
        {"lookup.cache-file-retention", 'd', .i = 3600000},
        {"lookup.hash-load-factor", 'f', .f = 0.75}, /* 0.75F */
        {"lookup.cache.bloom.filter.fpp", 'f', .f = 0.05},
        {"file.format", 's', .s = "parquet"}, /* FILE_FORMAT_PARQUET */
        {"file.compression", 's', .s = "zstd"},
        {"manifest.format", 's', .s = "avro"},     /* CoreOptions.FILE_FORMAT_AVRO */
        {"merge-engine", 's', .s = "deduplicate"}, /* MergeEngine.DEDUPLICATE */
        {"changelog-producer", 's', .s = "none"},  /* ChangelogProducer.NONE */
        {"sort-engine", 's', .s = "loser-tree"},   /* SortEngine.LOSER_TREE */
        {"lookup-compact", 's', .s = "RADICAL"},   /* LookupCompactMode.RADICAL */
        {"metadata.stats-mode", 's', .s = "truncate(16)"},
        {"partition.default-name", 's', .s = "__DEFAULT_PARTITION__"},
        {"type", 's', .s = "table"}, /* TableType.TABLE */
    };
    pm_options o;
    paimon_error err = {0, {0}};
    (void)state;
    pm_options_init(&o);
    for (size_t k = 0; k < sizeof(JAVA) / sizeof(JAVA[0]); k++) {
        int64_t i = -7;
        bool b = false;
        double f = -7;
        switch (JAVA[k].kind) {
        case 'i': assert_int_equal(pm_options_get_i64(&o, JAVA[k].key, &i, &err), 0); break;
        case 'm': assert_int_equal(pm_options_get_memory(&o, JAVA[k].key, &i, &err), 0); break;
        case 'd': assert_int_equal(pm_options_get_duration(&o, JAVA[k].key, &i, &err), 0); break;
        case 'b':
            assert_int_equal(pm_options_get_bool(&o, JAVA[k].key, &b, &err), 0);
            i = b;
            break;
        case 'f':
            assert_int_equal(pm_options_get_double(&o, JAVA[k].key, &f, &err), 0);
            assert_true(f == JAVA[k].f);
            continue;
        default: assert_string_equal(pm_options_get_str(&o, JAVA[k].key), JAVA[k].s); continue;
        }
        if (i != JAVA[k].i)
            fail_msg("%s: default %lld, Java %lld", JAVA[k].key, (long long)i,
                     (long long)JAVA[k].i);
    }
    /* options Java declares without a default */
    static const char *const NONE[] = {"target-file-size",
                                       "num-levels",
                                       "commit.timeout",
                                       "changelog.num-retained.min",
                                       "changelog.time-retained",
                                       "full-compaction.delta-commits",
                                       "scan.manifest.parallelism",
                                       "snapshot.ignore-empty-commit",
                                       "sequence.field"};
    for (size_t k = 0; k < sizeof(NONE) / sizeof(NONE[0]); k++) {
        const pm_option_def *d = pm_option_lookup(NONE[k]);
        assert_non_null(d);
        assert_null(d->dflt);
    }
    pm_options_free(&o);
}

/* Every default the generator recorded parses with its type's grammar and lies within the
 * limits paimon-c sets, and every alias names a catalogued option. */
static void test_every_default_parses(void **state)
{
    size_t count, with_default = 0;
    const pm_option_def *all = pm_option_catalogue(&count);
    (void)state;
    assert_true(count > 300);
    for (size_t i = 0; i < count; i++) {
        paimon_error err = {0, {0}};
        if (i > 0)
            assert_true(strcmp(all[i - 1].key, all[i].key) < 0); /* bsearch needs the order */
        if (all[i].alias_of != NULL) {
            assert_non_null(pm_option_lookup(all[i].alias_of));
            assert_null(all[i].dflt);
        }
        if (all[i].dflt == NULL)
            continue;
        with_default++;
        if (pm_option_check_value(&all[i], all[i].key, all[i].dflt, &err) != 0)
            fail_msg("default of %s: %s", all[i].key, err.message);
    }
    assert_true(with_default > 200);
}

static void test_getters(void **state)
{
    pm_options o;
    paimon_error err = {0, {0}};
    int64_t n = 0;
    bool b = true;
    (void)state;
    pm_options_init(&o);
    /* a value given wins; its grammar is the option's type */
    assert_int_equal(pm_options_set(&o, "write-buffer-size", "64 MB"), 0);
    assert_int_equal(pm_options_get_memory(&o, "write-buffer-size", &n, &err), 0);
    assert_int_equal(n, 64LL << 20);
    assert_int_equal(pm_options_set(&o, "write-buffer-size", "64 mib"), 0);
    assert_int_equal(pm_options_get_memory(&o, "write-buffer-size", &n, &err), PAIMON_EINVALID);
    assert_string_equal(err.message,
                        "option write-buffer-size: '64 mib' is not a memory size (e.g. '64 mb')");
    assert_int_equal(pm_options_set(&o, "bucket", "3000000000"), 0);
    assert_int_equal(pm_options_get_i64(&o, "bucket", &n, &err), PAIMON_EINVALID);
    assert_string_equal(err.message, "option bucket: '3000000000' is out of range for an integer");
    assert_int_equal(pm_options_set(&o, "snapshot.time-retained", "2 mins"), 0);
    assert_int_equal(pm_options_get_duration(&o, "snapshot.time-retained", &n, &err),
                     PAIMON_EINVALID);

    /* fallback keys: the option's own key first, then its fallback */
    assert_int_equal(pm_options_set(&o, "changelog-producer.lookup-wait", "false"), 0);
    assert_int_equal(pm_options_get_bool(&o, "lookup-wait", &b, &err), 0);
    assert_false(b);
    assert_int_equal(pm_options_get_bool(&o, "changelog-producer.lookup-wait", &b, &err), 0);
    assert_false(b);
    assert_int_equal(pm_options_set(&o, "lookup-wait", "TRUE"), 0);
    assert_int_equal(pm_options_get_bool(&o, "lookup-wait", &b, &err), 0);
    assert_true(b);

    /* derived defaults come from the call site; a value given still wins */
    assert_int_equal(pm_options_get_i64_or(&o, "num-levels", 6, &n, &err), 0);
    assert_int_equal(n, 6);
    assert_int_equal(pm_options_set(&o, "num-levels", "4"), 0);
    assert_int_equal(pm_options_get_i64_or(&o, "num-levels", 6, &n, &err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(pm_options_get_memory_or(&o, "target-file-size", 1, &n, &err), 0);
    assert_int_equal(n, 1);
    /* keys outside the catalogue (field options) only through _or */
    assert_int_equal(pm_options_get_i64_or(&o, "fields.a.count-limit", 9, &n, &err), 0);
    assert_int_equal(n, 9);

    /* using a getter against the catalogue is refused */
    assert_int_equal(pm_options_get_i64(&o, "commit.timeout", &n, &err), PAIMON_EINVALID);
    assert_int_equal(pm_options_get_duration(&o, "commit.timeout", &n, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "Java declares no default"));
    assert_int_equal(pm_options_get_i64_or(&o, "bucket", 1, &n, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "Java declares a default"));
    assert_int_equal(pm_options_get_bool(&o, "write-buffer-size", &b, &err), PAIMON_EINVALID);
    assert_int_equal(pm_options_get_bool(&o, "no-such-option", &b, &err), PAIMON_EINVALID);
    assert_int_equal(pm_options_get_memory(&o, "bucket", &n, &err), PAIMON_EINVALID);
    pm_options_free(&o);
}

/* Values the types allow that paimon-c can never use: refused by the getter, so a table
 * written by others fails with this message when it is opened for write. */
static void test_limits(void **state)
{
    static const struct {
        const char *key, *value;
        int rc;
    } CASES[] = {
        {"num-sorted-run.compaction-trigger", "0", PAIMON_EINVALID},
        {"num-sorted-run.compaction-trigger", "-3", PAIMON_EINVALID},
        {"num-sorted-run.compaction-trigger", "1", 0},
        {"target-file-size", "0", PAIMON_EINVALID},
        {"target-file-size", "1 b", 0},
        {"write-buffer-size", "0 mb", PAIMON_EINVALID},
        {"manifest.target-file-size", "0", PAIMON_EINVALID},
        {"manifest.full-compaction-threshold-size", "0 kb", PAIMON_EINVALID},
        {"num-levels", "1", PAIMON_EINVALID},
        {"num-levels", "2", 0},
        {"num-levels", "1001", PAIMON_EINVALID},
        {"file.compression.zstd-level", "0", PAIMON_EUNSUPPORTED},
        {"file.compression.zstd-level", "22", 0},
        {"file.compression.zstd-level", "23", PAIMON_EUNSUPPORTED},
        {"dynamic-bucket.target-row-num", "0", PAIMON_EINVALID},
        {"full-compaction.delta-commits", "-1", PAIMON_EINVALID},
        {"lookup.hash-load-factor", "1", PAIMON_EINVALID},
        {"lookup.hash-load-factor", "0.99", 0},
        {"lookup.hash-load-factor", "NaN", PAIMON_EINVALID},
        {"lookup.cache.bloom.filter.fpp", "0", PAIMON_EINVALID},
        {"cache-page-size", "32 b", PAIMON_EUNSUPPORTED},
        {"cache-page-size", "2 gb", PAIMON_EUNSUPPORTED},
        {"changelog.precommit-compact.buffer-size", "2 gb", PAIMON_EINVALID},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
        const pm_option_def *d = pm_option_lookup(CASES[i].key);
        pm_option_value v;
        paimon_error err = {0, {0}};
        assert_non_null(d);
        if (pm_option_parse(d->type, CASES[i].key, CASES[i].value, &v, &err) != CASES[i].rc)
            fail_msg("%s=%s: got '%s', want code %d", CASES[i].key, CASES[i].value, err.message,
                     CASES[i].rc);
        if (CASES[i].rc != 0)
            assert_non_null(strstr(err.message, "is out of range"));
    }
    {
        pm_options o;
        paimon_error err = {0, {0}};
        int64_t n;
        pm_options_init(&o);
        assert_int_equal(pm_options_set(&o, "num-sorted-run.compaction-trigger", "0"), 0);
        assert_int_equal(pm_options_get_i64(&o, "num-sorted-run.compaction-trigger", &n, &err),
                         PAIMON_EINVALID);
        assert_string_equal(err.message,
                            "option num-sorted-run.compaction-trigger: '0' is out of range: at "
                            "least 1");
        pm_options_free(&o);
    }
}

/* ---- every call site in src/ ------------------------------------------------------------- */

typedef struct call_check {
    regex_t re;
    size_t calls;
    pm_buf problems;
} call_check;

static bool kind_fits(const char *kind, pm_opt_type t)
{
    if (strncmp(kind, "i64", 3) == 0)
        return t == PM_OPT_INT || t == PM_OPT_LONG;
    if (strncmp(kind, "bool", 4) == 0)
        return t == PM_OPT_BOOL;
    if (strncmp(kind, "double", 6) == 0)
        return t == PM_OPT_DOUBLE;
    if (strncmp(kind, "memory", 6) == 0)
        return t == PM_OPT_MEMORY;
    if (strncmp(kind, "duration", 8) == 0)
        return t == PM_OPT_DURATION;
    return t == PM_OPT_STRING || t == PM_OPT_ENUM || t == PM_OPT_MAP; /* str */
}

static void check_calls(call_check *cc, const char *path, const char *text)
{
    regmatch_t m[3];
    for (const char *p = text; regexec(&cc->re, p, 3, m, 0) == 0; p += m[0].rm_eo) {
        char kind[32], key[256];
        const pm_option_def *d;
        size_t kl = (size_t)(m[1].rm_eo - m[1].rm_so), kyl = (size_t)(m[2].rm_eo - m[2].rm_so);
        bool is_or;
        if (kl >= sizeof(kind) || kyl >= sizeof(key))
            continue;
        memcpy(kind, p + m[1].rm_so, kl);
        kind[kl] = '\0';
        memcpy(key, p + m[2].rm_so, kyl);
        key[kyl] = '\0';
        cc->calls++;
        is_or = kl > 3 && strcmp(kind + kl - 3, "_or") == 0;
        d = pm_option_canonical(key);
        if (d == NULL) {
            if (!is_or && strcmp(kind, "str") != 0)
                pm_buf_printf(&cc->problems, "%s: %s not in the catalogue (use _or)\n", path, key);
            continue;
        }
        if (!kind_fits(kind, d->type))
            pm_buf_printf(&cc->problems, "%s: %s read with pm_options_get_%s\n", path, key, kind);
        if (strcmp(kind, "str") != 0 && is_or == (d->dflt != NULL))
            pm_buf_printf(&cc->problems, "%s: %s read with pm_options_get_%s (default %s)\n", path,
                          key, kind, d->dflt != NULL ? d->dflt : "none");
    }
}

static void scan_dir(call_check *cc, const char *dir)
{
    DIR *dh = opendir(dir);
    struct dirent *e;
    assert_non_null(dh);
    while ((e = readdir(dh)) != NULL) {
        char path[1024];
        struct stat st;
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        assert_int_equal(stat(path, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            scan_dir(cc, path);
        } else if (n > 2 && strcmp(e->d_name + n - 2, ".c") == 0) {
            FILE *f = fopen(path, "rb");
            char *text = pm_malloc((size_t)st.st_size + 1);
            assert_non_null(f);
            assert_non_null(text);
            assert_int_equal(fread(text, 1, (size_t)st.st_size, f), (size_t)st.st_size);
            text[st.st_size] = '\0';
            fclose(f);
            check_calls(cc, path, text);
            pm_free(text);
        }
    }
    closedir(dh);
}

static void test_call_sites(void **state)
{
    const char *root = getenv("PAIMON_SOURCE_DIR");
    char src[1024];
    call_check cc;
    (void)state;
    assert_non_null(root);
    snprintf(src, sizeof(src), "%s/src", root);
    memset(&cc, 0, sizeof(cc));
    pm_buf_init(&cc.problems, 0);
    assert_int_equal(regcomp(&cc.re,
                             "pm_options_get_([a-z0-9_]+)\\([^,()]+,[[:space:]]*\"([^\"]+)\"",
                             REG_EXTENDED),
                     0);
    scan_dir(&cc, src);
    regfree(&cc.re);
    if (cc.problems.len > 0)
        fail_msg("%s", pm_buf_cstr(&cc.problems));
    assert_true(cc.calls > 80); /* the scan found the call sites */
    pm_buf_free(&cc.problems);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_java_defaults), cmocka_unit_test(test_every_default_parses),
        cmocka_unit_test(test_getters),       cmocka_unit_test(test_limits),
        cmocka_unit_test(test_call_sites),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
