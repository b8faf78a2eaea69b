/* Where a file named by metadata lives, checked: see file_path.h. */
#include "meta/file_path.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "meta/path_factory.h"
#include "util/error.h"

#define EXTERNAL_PATHS "data-file.external-paths"
#define PATH_DIRECTORY "data-file.path-directory"

/* A URI cut into its parts, as Hadoop's Path reads one: a scheme only where a ':' comes
 * before any '/', an authority after "//".  Pointers into the parsed text. */
typedef struct uri {
    const char *scheme; /* NULL: none */
    size_t scheme_len;
    const char *auth; /* NULL: none ("file:/x" and "file:///x" both have no host) */
    size_t auth_len;
    const char *path; /* from the first '/' of the path part to the end */
    size_t path_len;
} uri;

static bool parse_uri(const char *s, size_t len, uri *u)
{
    size_t i = 0;
    memset(u, 0, sizeof(*u));
    if (len > 0 && isalpha((unsigned char)s[0])) {
        while (i < len &&
               (isalnum((unsigned char)s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.'))
            i++;
        if (i < len && s[i] == ':') {
            u->scheme = s;
            u->scheme_len = i;
            i++;
        } else {
            i = 0;
        }
    }
    if (u->scheme != NULL && len - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
        size_t a = i + 2, e = a;
        while (e < len && s[e] != '/')
            e++;
        if (e > a) {
            u->auth = s + a;
            u->auth_len = e - a;
        }
        i = e;
    }
    u->path = s + i;
    u->path_len = len - i;
    /* "s3://bucket" is the bucket's root */
    return (u->path_len > 0 && u->path[0] == '/') || (u->path_len == 0 && u->auth != NULL);
}

static bool is_file_scheme(const uri *u)
{
    return u->scheme == NULL || (u->scheme_len == 4 && strncasecmp(u->scheme, "file", 4) == 0);
}

/* The next non-empty '/'-separated segment of p[*pos..len), or false at the end. */
static bool next_segment(const char *p, size_t len, size_t *pos, const char **seg, size_t *seg_len)
{
    size_t i = *pos, e;
    while (i < len && p[i] == '/')
        i++;
    if (i == len)
        return false;
    e = i;
    while (e < len && p[e] != '/')
        e++;
    *seg = p + i;
    *seg_len = e - i;
    *pos = e;
    return true;
}

static bool is_dot_segment(const char *seg, size_t n)
{
    return (n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.');
}

/* Whether no segment of the path is "." or ".." (empty segments, "//", are collapsed). */
static bool segments_plain(const char *p, size_t len)
{
    const char *seg;
    size_t pos = 0, n;
    while (next_segment(p, len, &pos, &seg, &n))
        if (is_dot_segment(seg, n))
            return false;
    return true;
}

static bool same_scheme(const uri *a, const uri *b)
{
    if (is_file_scheme(a) || is_file_scheme(b))
        return is_file_scheme(a) && is_file_scheme(b);
    return a->scheme_len == b->scheme_len && strncasecmp(a->scheme, b->scheme, a->scheme_len) == 0;
}

static bool same_auth(const uri *a, const uri *b)
{
    return a->auth_len == b->auth_len &&
           (a->auth_len == 0 || strncasecmp(a->auth, b->auth, a->auth_len) == 0);
}

/* Whether `path` lies strictly under `root`, segment by segment, both plain. */
static bool under_root(const uri *root, const uri *path)
{
    const char *rs, *ps;
    size_t rpos = 0, ppos = 0, rn, pn;
    if (!same_scheme(root, path) || !same_auth(root, path) ||
        !segments_plain(root->path, root->path_len) || !segments_plain(path->path, path->path_len))
        return false;
    while (next_segment(root->path, root->path_len, &rpos, &rs, &rn)) {
        if (!next_segment(path->path, path->path_len, &ppos, &ps, &pn) || pn != rn ||
            memcmp(ps, rs, rn) != 0)
            return false;
    }
    /* at least the file itself below the root */
    return next_segment(path->path, path->path_len, &ppos, &ps, &pn);
}

/* Calls fn on each trimmed, non-empty root of the comma-separated `list` until it returns
 * true; whether one did. */
static bool each_root(const char *list, bool (*fn)(void *arg, const char *s, size_t len), void *arg)
{
    const char *p = list;
    while (p != NULL && *p != '\0') {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        const char *s = p;
        while (len > 0 && isspace((unsigned char)*s))
            s++, len--;
        while (len > 0 && isspace((unsigned char)s[len - 1]))
            len--;
        if (len > 0 && fn(arg, s, len))
            return true;
        p = comma != NULL ? comma + 1 : NULL;
    }
    return false;
}

static bool root_holds(void *arg, const char *s, size_t len)
{
    uri root;
    return parse_uri(s, len, &root) && under_root(&root, arg);
}

bool pm_file_name_is_plain(const char *name)
{
    return name != NULL && name[0] != '\0' && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
           strchr(name, '/') == NULL;
}

int pm_file_name_check(const char *table, const char *what, const char *name, paimon_error *err)
{
    if (pm_file_name_is_plain(name))
        return 0;
    return pm_corrupt(err, "%s: %s '%s' is not a plain file name", table, what,
                      name != NULL ? name : "");
}

bool pm_external_path_allowed(const pm_options *opts, const char *path, ptrdiff_t *local)
{
    const char *roots = opts != NULL ? pm_options_get(opts, EXTERNAL_PATHS) : NULL;
    uri u;
    if (roots == NULL || path == NULL || !parse_uri(path, strlen(path), &u) ||
        !each_root(roots, root_holds, &u))
        return false;
    if (local != NULL)
        *local = is_file_scheme(&u) ? u.path - path : -1;
    return true;
}

int pm_file_path_resolve(const char *table, const pm_options *opts, const char *dir,
                         const char *name, const char *external, pm_buf *out, paimon_error *err)
{
    ptrdiff_t local = -1;
    bool table_is_local = strstr(table, "://") == NULL;
    int rc;
    /* the entry is named by its file name: never echo where an outside path points */
    if (!pm_file_name_is_plain(name))
        return pm_corrupt(err, "%s: manifest entry '%s': the file name is not a plain file name",
                          table, name != NULL ? name : "");
    if (external == NULL) {
        rc = pm_buf_printf(out, "%s/%s", dir, name);
        return rc != 0 ? pm_buf_error(err, rc) : 0;
    }
    if (!pm_external_path_allowed(opts, external, &local))
        return pm_corrupt(err,
                          "%s: manifest entry '%s': its external path is not under a root of "
                          "option " EXTERNAL_PATHS,
                          table, name);
    if (table_is_local != (local >= 0))
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "%s: manifest entry '%s': its external path is on another file system "
                          "than the table",
                          table, name);
    rc = pm_buf_puts(out, external + (local >= 0 ? local : 0));
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

/* Whether `dir` is a relative path of plain segments without a scheme. */
static bool plain_relative(const char *dir)
{
    const char *colon = strchr(dir, ':'), *slash = strchr(dir, '/');
    if (dir[0] == '\0' || dir[0] == '/' || (colon != NULL && (slash == NULL || colon < slash)))
        return false;
    return segments_plain(dir, strlen(dir));
}

int pm_file_path_bucket_dir(const char *table, const pm_options *opts, const pm_field *const *parts,
                            size_t part_count, const pm_binrow *row,
                            const pm_partition_naming *naming, int32_t bucket, pm_buf *out,
                            paimon_error *err)
{
    const char *dir = opts != NULL ? pm_options_get(opts, PATH_DIRECTORY) : NULL;
    int rc;
    if (dir != NULL && !plain_relative(dir))
        return pm_corrupt(err,
                          "%s: option " PATH_DIRECTORY " '%s' is not a relative path inside "
                          "the table",
                          table, dir);
    if ((rc = pm_buf_printf(out, "%s/%s%s", table, dir != NULL ? dir : "",
                            dir != NULL ? "/" : "")) != 0)
        return pm_buf_error(err, rc);
    if ((rc = pm_partition_path(out, parts, part_count, row, naming, err)) != 0)
        return rc;
    if ((rc = pm_bucket_dir_name(bucket, out)) != 0)
        return pm_buf_error(err, rc);
    return 0;
}

/* The check of one root at create and alter; *bad names the first bad one. */
typedef struct root_check {
    const char *bad;
    size_t bad_len;
} root_check;

static bool root_bad(void *arg, const char *s, size_t len)
{
    root_check *c = arg;
    uri u;
    if (parse_uri(s, len, &u) && u.scheme != NULL && segments_plain(u.path, u.path_len))
        return false;
    c->bad = s;
    c->bad_len = len;
    return true;
}

int pm_file_path_check_options(const pm_options *opts, paimon_error *err)
{
    const char *dir = pm_options_get(opts, PATH_DIRECTORY);
    const char *roots = pm_options_get(opts, EXTERNAL_PATHS);
    root_check c = {0};
    if (dir != NULL && !plain_relative(dir))
        return pm_err_set(err, PAIMON_EINVALID,
                          "option " PATH_DIRECTORY ": '%s' is not a relative path inside the "
                          "table (no leading '/', scheme, '.' or '..')",
                          dir);
    if (roots != NULL && each_root(roots, root_bad, &c))
        return pm_err_set(err, PAIMON_EINVALID,
                          "option " EXTERNAL_PATHS ": '%.*s' is not an absolute path with a "
                          "scheme (e.g. file:///data/ext, s3://bucket/ext) without '.' or '..'",
                          (int)c.bad_len, c.bad);
    return 0;
}
