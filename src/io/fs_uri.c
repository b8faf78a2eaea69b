/*
 * Which file system a table root or file path lives on (pm_fs_for_path, io/fs.h).
 *
 * The rule, as Java Paimon's FileIO.get() reads a path (java.net.URI, schemes compared
 * exactly, so `S3://` is not `s3://`):
 *
 *   path                         file system
 *   ---------------------------  ---------------------------------------------------------
 *   /data/t, data/t, ./t         local (no scheme)
 *   file:/data/t, file:///data/t local; the path proper is what follows (pm_fs_local_path)
 *   file://host/t                refused: a host names another machine
 *   s3://bucket/t, s3a://bucket  S3 (pm_fs_s3_new with the run's settings)
 *   s3:/bucket, s3:bucket        refused: no bucket (a typo of s3://bucket)
 *   gs://, oss://, hdfs://, S3:// and any other scheme: PAIMON_EUNSUPPORTED naming it
 *
 * A scheme is RFC 3986's `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` followed by ':' in the
 * first path segment (before any '/').  A relative local path whose first segment contains a
 * ':' (`a:b/t`) therefore reads as a URI with scheme `a` and is refused; write `./a:b/t`.
 * That is the point of the refusal: before it, `paimon create s3:/bucket/t` made a local
 * folder named `s3:` and reported success (issue 14).
 */
#include <stdbool.h>
#include <string.h>

#include "io/fs.h"
#include "util/error.h"

/* The length of the scheme of `path` (the text before its ':'), or 0 when it has none. */
static size_t scheme_len(const char *path)
{
    size_t i = 0;
    if (!((path[0] >= 'a' && path[0] <= 'z') || (path[0] >= 'A' && path[0] <= 'Z')))
        return 0;
    while ((path[i] >= 'a' && path[i] <= 'z') || (path[i] >= 'A' && path[i] <= 'Z') ||
           (path[i] >= '0' && path[i] <= '9') || path[i] == '+' || path[i] == '-' || path[i] == '.')
        i++;
    return path[i] == ':' ? i : 0;
}

static bool scheme_is(const char *path, size_t len, const char *name)
{
    return strlen(name) == len && strncmp(path, name, len) == 0;
}

const char *pm_fs_local_path(const char *path)
{
    size_t n = scheme_len(path);
    if (n == 0 || !scheme_is(path, n, "file"))
        return path;
    path += n + 1;
    /* file:///x and file:/x are /x; file://host/x keeps its host (pm_fs_for_path refuses) */
    if (strncmp(path, "///", 3) == 0)
        return path + 2;
    return path;
}

int pm_fs_for_path(pm_fs **out, const char *path, const pm_options *settings, bool sync,
                   paimon_error *err)
{
    size_t n;
    const char *rest;

    *out = NULL;
    if (path == NULL || path[0] == '\0')
        return pm_err_set(err, PAIMON_EINVALID, "no path given");
    n = scheme_len(path);
    rest = path + n + 1;
    if (n == 0 || scheme_is(path, n, "file")) {
        if (n > 0 && strncmp(rest, "//", 2) == 0 && rest[2] != '/')
            return pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "%s: a file: URI with a host is not supported (write file:///PATH "
                              "or a plain path)",
                              path);
        if ((*out = pm_fs_local_new(sync)) == NULL)
            return pm_nomem(err);
        return 0;
    }
    if (scheme_is(path, n, "s3") || scheme_is(path, n, "s3a")) {
        if (strncmp(rest, "//", 2) != 0 || rest[2] == '/' || rest[2] == '\0')
            return pm_err_set(err, PAIMON_EINVALID,
                              "%s: an S3 location names its bucket: %.*s://BUCKET/PATH", path,
                              (int)n, path);
        return pm_fs_s3_new(out, settings, err);
    }
    return pm_err_set(err, PAIMON_EUNSUPPORTED,
                      "%s: unsupported file system scheme '%.*s' (paimon-c supports local paths "
                      "and s3://)",
                      path, (int)n, path);
}
