/* Compacted changelog names and the pieces they name: see compacted_changelog.h. */
#include "format/compacted_changelog.h"

#include <string.h>

#include "util/error.h"

#define PREFIX_LEN (sizeof(PM_COMPACTED_CHANGELOG_PREFIX) - 1)

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

bool pm_compacted_changelog_is(const char *path)
{
    return strncmp(base_name(path), PM_COMPACTED_CHANGELOG_PREFIX, PREFIX_LEN) == 0;
}

/* A decimal number of 1 to 19 digits, at most `max`, at *p; moves *p past it. */
static bool read_number(const char **p, int64_t max, int64_t *out)
{
    const char *s = *p;
    int64_t v = 0;
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9') {
        if (n == 19 || __builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, s[n] - '0', &v) || v > max)
            return false;
        n++;
    }
    if (n == 0)
        return false;
    *p = s + n;
    *out = v;
    return true;
}

PM_MUST_CHECK static int bad_name(paimon_error *err, const char *name, const char *why)
{
    return pm_corrupt(err, "%s: not a compacted changelog file name (%s)", name, why);
}

int pm_compacted_changelog_parse(const char *file_name, pm_compacted_changelog_name *out,
                                 paimon_error *err)
{
    const char *dollar, *dot, *p;
    int64_t bucket;

    memset(out, 0, sizeof(*out));
    if (strncmp(file_name, PM_COMPACTED_CHANGELOG_PREFIX, PREFIX_LEN) != 0)
        return bad_name(err, file_name, "no compacted-changelog- prefix");
    if (strchr(file_name, '/') != NULL)
        return bad_name(err, file_name, "a path, not a name");
    dollar = strchr(file_name, '$');
    dot = strchr(file_name, '.');
    if (dollar == NULL || strrchr(file_name, '$') != dollar)
        return bad_name(err, file_name, "expected exactly one '$'");
    if (dot == NULL || strrchr(file_name, '.') != dot || dot < dollar)
        return bad_name(err, file_name, "expected one '.' before the format, after the '$'");
    out->stem_len = (size_t)(dollar - file_name);
    p = dollar + 1;
    if (!read_number(&p, INT32_MAX, &bucket) || *p++ != '-' ||
        !read_number(&p, INT64_MAX, &out->first_len))
        return bad_name(err, file_name, "expected $<bucket>-<length>");
    out->bucket = (int32_t)bucket;
    out->len = out->first_len;
    if (*p == '-') {
        p++;
        out->is_piece = true;
        if (!read_number(&p, INT64_MAX, &out->off) || *p++ != '-' ||
            !read_number(&p, INT64_MAX, &out->len))
            return bad_name(err, file_name, "expected -<offset>-<length> after the first length");
    }
    if (p != dot)
        return bad_name(err, file_name, "unexpected characters before the format");
    if (strncmp(dot + 1, "cc-", 3) != 0 || dot[4] == '\0')
        return bad_name(err, file_name, "the format is not cc-<format>");
    out->format = dot + 4;
    return 0;
}

int pm_compacted_changelog_resolve(const char *path, pm_buf *real, uint64_t *off, uint64_t *len,
                                   paimon_error *err)
{
    const char *name = base_name(path);
    pm_compacted_changelog_name n;
    int rc;

    if ((rc = pm_compacted_changelog_parse(name, &n, err)) != 0) {
        if (name != path) /* name the whole path: the name alone may not say which table */
            pm_err_prefix(err, rc, "%.*s", (int)(name - path), path);
        return rc;
    }
    *off = (uint64_t)n.off;
    *len = (uint64_t)n.len;
    if (!n.is_piece) {
        rc = pm_buf_puts(real, path);
    } else {
        /* The bucket directory is the one before the name; the real file is in its sibling
         * bucket-<bucket>.  A bare name sits in the current directory (the bucket's). */
        size_t dir_len = (size_t)(name - path), up = 0;
        if (dir_len == 0) {
            rc = pm_buf_puts(real, "../");
        } else {
            for (up = dir_len - 1; up > 0 && path[up - 1] != '/'; up--)
                ;
            rc = pm_buf_append(real, path, up);
        }
        if (rc == 0)
            rc = pm_buf_printf(real, "bucket-%d/%.*s$%d-%lld.cc-%s", (int)n.bucket, (int)n.stem_len,
                               name, (int)n.bucket, (long long)n.first_len, n.format);
    }
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

int pm_compacted_changelog_open(pm_fs *fs, const char *path, pm_input **out, const char **format,
                                paimon_error *err)
{
    pm_compacted_changelog_name n;
    pm_input *in = NULL;
    pm_buf real;
    uint64_t off = 0, len = 0;
    int rc;

    *out = NULL;
    pm_buf_init(&real, 0);
    if ((rc = pm_compacted_changelog_resolve(path, &real, &off, &len, err)) != 0)
        goto done;
    if ((rc = pm_compacted_changelog_parse(base_name(path), &n, err)) != 0)
        goto done;
    *format = n.format;
    if ((rc = fs->open(fs, pm_buf_cstr(&real), &in, err)) != 0) {
        if (n.is_piece)
            pm_err_prefix(err, rc, "%s: its bytes are in ", path);
        goto done;
    }
    rc = pm_input_slice(out, in, off, len, path, err);
done:
    pm_buf_free(&real);
    return rc;
}

int pm_compacted_changelog_name_append(pm_buf *out, const char *uuid, int32_t bucket,
                                       int64_t first_len, int64_t off, int64_t len,
                                       const char *format)
{
    int rc = pm_buf_printf(out, "%s%s$%d-%lld", PM_COMPACTED_CHANGELOG_PREFIX, uuid, (int)bucket,
                           (long long)first_len);
    if (rc == 0 && off != 0)
        rc = pm_buf_printf(out, "-%lld-%lld", (long long)off, (long long)len);
    if (rc == 0)
        rc = pm_buf_printf(out, ".cc-%s", format);
    return rc;
}
