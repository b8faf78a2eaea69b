/*
 * The file formats and compressions a table's options name, checked at create and alter
 * (option_catalog.h, pm_options_check_formats) so that a table never records a format or
 * codec that fails its first write.
 *
 * Java 1.4.2 knows the formats of its FileFormatFactory services (parquet, orc, avro, csv,
 * json, text, lance, blob); paimon-c writes parquet, orc and avro (format/file_writer.h).
 * Each format's writer takes the compression its own way:
 *
 *   parquet  ParquetWriterFactory: "none" (exactly) is no compression; anything else is
 *            CompressionCodecName.valueOf(upper case): uncompressed, snappy, gzip, lzo,
 *            brotli, lz4, zstd, lz4_raw.  parquet.compression, when set, replaces the codec.
 *   orc      OrcWriterFactory: CompressionKind.valueOf(upper case) of ORC 1.9: none, zlib,
 *            snappy, lzo, lz4, zstd.  orc.compress, when set, replaces it.
 *   avro     AvroFileFormat.createCodecFactory: zstd (any case), else Avro's
 *            CodecFactory.fromString (exact): null, deflate, snappy, bzip2, xz, zstandard.
 *            avro.codec, when set, replaces it (and goes to fromString as well).
 *
 * A name Java refuses is PAIMON_EINVALID; one Java writes and paimon-c cannot (lzo, brotli,
 * bzip2, xz; the csv, json, text, lance and blob formats) is PAIMON_EUNSUPPORTED.  The
 * pairs checked are those the writer would use (table/write/write_ctx.c level_settings):
 * for the default level and every level file.format.per.level or
 * file.compression.per.level lists, its format and codec, and for its changelog files
 * changelog-file.format and changelog-file.compression (each defaulting to the level's);
 * and manifest.format with manifest.compression (paimon-c writes manifests with the codecs
 * Avro names: no lz4 or lzo in ORC manifests).
 */
#include <string.h>
#include <strings.h>

#include "format/avro/avro_container.h"
#include "format/file_writer.h"
#include "meta/manifest.h"
#include "meta/option_catalog.h"
#include "util/error.h"
#include "util/strlist.h"
#include "util/units.h"

static const char *const JAVA_FORMATS[] = {"parquet", "orc",   "avro", "csv", "json",
                                           "text",    "lance", "blob", NULL};

static bool in(const char *v, const char *const *names, bool ignore_case)
{
    for (size_t i = 0; names[i] != NULL; i++)
        if ((ignore_case ? strcasecmp(v, names[i]) : strcmp(v, names[i])) == 0)
            return true;
    return false;
}

/* Java's names and the ones among them paimon-c cannot write, per format. */
typedef struct codec_rule {
    const char *format;
    const char *const *names;       /* every name Java takes */
    const char *const *unsupported; /* the ones paimon-c does not write */
    bool ignore_case;               /* valueOf(toUpperCase) rather than an exact match */
    const char *extra;              /* a name accepted only as the codec (not the override) */
    bool extra_ignore_case;
    const char *override; /* the format's own option that replaces the codec */
} codec_rule;

static const char *const PARQUET_NAMES[] = {"uncompressed", "snappy", "gzip",    "lzo", "brotli",
                                            "lz4",          "zstd",   "lz4_raw", NULL};
static const char *const PARQUET_UNSUPPORTED[] = {"lzo", "brotli", NULL};
static const char *const ORC_NAMES[] = {"none", "zlib", "snappy", "lzo", "lz4", "zstd", NULL};
static const char *const ORC_UNSUPPORTED[] = {"lzo", NULL};
static const char *const AVRO_NAMES[] = {"null", "deflate",   "snappy", "bzip2",
                                         "xz",   "zstandard", NULL};
static const char *const AVRO_UNSUPPORTED[] = {"bzip2", "xz", NULL};

static const codec_rule RULES[] = {
    {"parquet", PARQUET_NAMES, PARQUET_UNSUPPORTED, true, "none", false, "parquet.compression"},
    {"orc", ORC_NAMES, ORC_UNSUPPORTED, true, NULL, false, "orc.compress"},
    {"avro", AVRO_NAMES, AVRO_UNSUPPORTED, false, "zstd", true, "avro.codec"},
};

static const codec_rule *rule_of(const char *format)
{
    for (size_t i = 0; i < sizeof(RULES) / sizeof(RULES[0]); i++)
        if (strcasecmp(RULES[i].format, format) == 0)
            return &RULES[i];
    return NULL;
}

PM_MUST_CHECK static int check_format(const char *key, const char *format, paimon_error *err)
{
    const pm_file_format *f;
    if (!in(format, JAVA_FORMATS, true))
        return pm_err_set(err, PAIMON_EINVALID,
                          "option %s: '%s' is not a file format (Java knows parquet, orc, avro, "
                          "csv, json, text, lance and blob)",
                          key, format);
    if (pm_file_format_find(format, &f, NULL) != 0)
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "option %s: paimon-c cannot write %s files (it writes parquet, orc and "
                          "avro)",
                          key, format);
    return 0;
}

PM_MUST_CHECK static int check_name(const codec_rule *r, const char *key, const char *codec,
                                    bool is_override, paimon_error *err)
{
    bool known =
        in(codec, r->names, r->ignore_case) ||
        (!is_override && r->extra != NULL &&
         (r->extra_ignore_case ? strcasecmp(codec, r->extra) : strcmp(codec, r->extra)) == 0);
    if (!known) {
        char list[160] = "";
        size_t n = 0;
        if (!is_override && r->extra != NULL)
            n += (size_t)snprintf(list, sizeof(list), "%s%s, or ", r->extra,
                                  r->extra_ignore_case ? " in any case" : "");
        for (size_t i = 0; r->names[i] != NULL && n < sizeof(list); i++)
            n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i > 0 ? ", " : "",
                                  r->names[i]);
        return pm_err_set(err, PAIMON_EINVALID,
                          "option %s: '%s' is not a compression of %s files (Java takes %s%s)", key,
                          codec, r->format, list, r->ignore_case ? " in any case" : "");
    }
    if (in(codec, r->unsupported, true))
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "option %s: paimon-c cannot write %s compression in %s files", key, codec,
                          r->format);
    return 0;
}

/* The format and codec one kind of file is written with (its codec from `codec_key`). */
PM_MUST_CHECK static int check_pair(const pm_options *o, const char *format_key, const char *format,
                                    const char *codec_key, const char *codec, paimon_error *err)
{
    const codec_rule *r;
    const char *override;
    int rc;
    if ((rc = check_format(format_key, format, err)) != 0)
        return rc;
    if ((r = rule_of(format)) == NULL)
        return 0;
    if ((override = pm_options_get(o, r->override)) != NULL)
        return check_name(r, r->override, override, true, err);
    return check_name(r, codec_key, codec, false, err);
}

/* A per-level map option: its levels must be integers (Integer.valueOf of each key). */
PM_MUST_CHECK static int level_map(const pm_options *o, const char *key, pm_strlist *pairs,
                                   paimon_error *err)
{
    const char *v = pm_options_get(o, key);
    int rc;
    if (v == NULL)
        return 0;
    if ((rc = pm_parse_map(v, pairs)) != 0)
        return rc == PAIMON_ENOMEM
                   ? pm_nomem(err)
                   : pm_err_set(err, PAIMON_EINVALID,
                                "option %s: '%s' is not a map of levels (e.g. '0:avro,3:parquet')",
                                key, v);
    for (size_t i = 0; i < pairs->count; i += 2) {
        int32_t level;
        if (pm_parse_int32(pairs->items[i], &level) != 0)
            return pm_err_set(err, PAIMON_EINVALID, "option %s: level '%s' is not an integer", key,
                              pairs->items[i]);
    }
    return 0;
}

static const char *level_value(const pm_strlist *pairs, const char *level)
{
    int32_t want, got;
    (void)pm_parse_int32(level, &want);
    for (size_t i = 0; i < pairs->count; i += 2)
        if (pm_parse_int32(pairs->items[i], &got) == 0 && got == want)
            return pairs->items[i + 1];
    return NULL;
}

int pm_options_check_formats(const pm_options *o, paimon_error *err)
{
    static const char *const PER_LEVEL[] = {"file.format.per.level", "file.compression.per.level",
                                            "metadata.stats-mode.per.level"};
    pm_strlist maps[3], levels;
    pm_manifest_format manifest;
    const char *manifest_codec;
    int rc = 0;
    pm_strlist_init(&levels);
    for (size_t m = 0; m < 3; m++)
        pm_strlist_init(&maps[m]);
    for (size_t m = 0; m < 3; m++) {
        PM_TRY(level_map(o, PER_LEVEL[m], &maps[m], err));
        for (size_t i = 0; i < maps[m].count && m < 2; i += 2)
            if (pm_strlist_push(&levels, maps[m].items[i]) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
    }
    /* the default level (NULL), then every level a per-level option lists */
    for (size_t i = 0; i <= levels.count; i++) {
        const char *level = i == 0 ? NULL : levels.items[i - 1];
        const char *fmt = level != NULL ? level_value(&maps[0], level) : NULL;
        const char *codec = level != NULL ? level_value(&maps[1], level) : NULL;
        const char *fmt_key = fmt != NULL ? PER_LEVEL[0] : "file.format";
        const char *codec_key = codec != NULL ? PER_LEVEL[1] : "file.compression";
        const char *cl_fmt = pm_options_get(o, "changelog-file.format");
        const char *cl_codec = pm_options_get(o, "changelog-file.compression");
        if (fmt == NULL)
            fmt = pm_options_get_str(o, "file.format");
        if (codec == NULL)
            codec = pm_options_get_str(o, "file.compression");
        PM_TRY(check_pair(o, fmt_key, fmt, codec_key, codec, err));
        PM_TRY(check_pair(o, cl_fmt != NULL ? "changelog-file.format" : fmt_key,
                          cl_fmt != NULL ? cl_fmt : fmt,
                          cl_codec != NULL ? "changelog-file.compression" : codec_key,
                          cl_codec != NULL ? cl_codec : codec, err));
    }
    /* manifests: Avro or ORC (meta/manifest.h), compressed as data files of that format;
     * paimon-c's manifest writers take the codecs Avro names (table/commit.c) */
    manifest_codec = pm_options_get_str(o, "manifest.compression");
    PM_TRY(pm_manifest_format_parse(pm_options_get_str(o, "manifest.format"), &manifest, err));
    PM_TRY(check_name(rule_of(manifest == PM_MANIFEST_ORC ? "orc" : "avro"), "manifest.compression",
                      manifest_codec, false, err));
    if (pm_avro_codec_for_option(manifest_codec) == NULL)
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED,
                        "option manifest.compression: paimon-c cannot write %s compression in "
                        "manifest files",
                        manifest_codec);
done:
    for (size_t m = 0; m < 3; m++)
        pm_strlist_free(&maps[m]);
    pm_strlist_free(&levels);
    return rc;
}
