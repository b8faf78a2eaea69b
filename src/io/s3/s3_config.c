/*
 * The S3 configuration: settings of the run > environment > ~/.aws profile (s3_config.h).
 *
 * The settings keys are Java Paimon's (`s3.endpoint`, `s3.access-key`, `s3.secret-key`,
 * `s3.region`, `s3.path.style.access`) and, for tuning, Hadoop S3A's names without the
 * `fs.s3a.` prefix (Java Paimon forwards `s3.x` to `fs.s3a.x`), with paimon-c's own for what
 * S3A has no name for (`s3.commit-mode`, `s3.coalesce.gap`, `s3.multipart.min-size-check`).
 * KEYS below is the one list; an `s3.*` key not in it is refused, so a typo is never a
 * silently ignored setting.
 *
 * ~/.aws files are INI: `[section]` lines, `key = value` lines, `#` and `;` comments.  The
 * credentials file names a profile `[name]`; the config file `[profile name]`, except the
 * default profile, which is `[default]` in both.
 */
#include "io/s3/s3_config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/units.h"

enum key_type { T_STRING, T_SECRET, T_BOOL, T_SIZE, T_DURATION, T_INT, T_MODE };

/* Every key this layer reads, with its type and default (NULL: derived, see load). */
static const struct key_spec {
    const char *name;
    enum key_type type;
    const char *dflt;
} KEYS[] = {
    {"s3.endpoint", T_STRING, NULL},
    {"s3.region", T_STRING, NULL},
    {"s3.access-key", T_SECRET, NULL},
    {"s3.secret-key", T_SECRET, NULL},
    {"s3.session.token", T_SECRET, NULL},
    {"s3.path.style.access", T_BOOL, NULL}, /* default: true for an IP or localhost host */
    {"s3.commit-mode", T_MODE, "auto"},
    {"s3.multipart.size", T_SIZE, "16 mb"},
    {"s3.multipart.min-size-check", T_BOOL, "true"}, /* false: parts below 5 MiB (tests) */
    {"s3.multipart.threshold", T_SIZE, NULL},        /* default: s3.multipart.size */
    {"s3.attempts.maximum", T_INT, "8"},
    {"s3.retry.interval", T_DURATION, "100 ms"},
    {"s3.retry.max-interval", T_DURATION, "5 s"},
    {"s3.connection.establish.timeout", T_DURATION, "5 s"},
    {"s3.connection.timeout", T_DURATION, "30 s"},
    {"s3.connection.maximum", T_INT, "16"},
    {"s3.readahead.range", T_SIZE, "1 mb"},
    {"s3.coalesce.gap", T_SIZE, "1 mb"},
    {"s3.prefetch.block.size", T_SIZE, "2 mb"},
    {"s3.prefetch.block.count", T_INT, "4"},
    {"s3.fast.upload.active.blocks", T_INT, "4"},
};
#define KEY_COUNT (sizeof(KEYS) / sizeof(KEYS[0]))

/* Other spellings Java Paimon 1.4.2 accepts for the same setting (S3FileIO's
 * MIRRORED_CONFIG_KEYS, and S3A's own dotted names), so a Java table's options read the
 * same here.  The name in KEYS wins when both are given. */
static const char *const ALIASES[][2] = {
    {"s3.access.key", "s3.access-key"},
    {"s3.secret.key", "s3.secret-key"},
    {"s3.path-style-access", "s3.path.style.access"},
    {"s3.session-token", "s3.session.token"},
};
#define ALIAS_COUNT (sizeof(ALIASES) / sizeof(ALIASES[0]))

/* The name in KEYS that `key` spells, or NULL when it is no key of this layer. */
static const struct key_spec *key_of(const char *key)
{
    for (size_t i = 0; i < ALIAS_COUNT; i++)
        if (strcmp(ALIASES[i][0], key) == 0)
            key = ALIASES[i][1];
    for (size_t i = 0; i < KEY_COUNT; i++)
        if (strcmp(KEYS[i].name, key) == 0)
            return &KEYS[i];
    return NULL;
}

#define MIN_PART_SIZE  ((int64_t)5 << 20) /* S3's smallest part but the last */
#define MAX_PART_SIZE  ((int64_t)5 << 30) /* and its largest */
#define AWS_FILE_LIMIT (1 << 20)          /* a ~/.aws file larger than this is not read */

bool pm_s3_config_is_key(const char *key)
{
    return key != NULL && strncmp(key, "s3.", 3) == 0;
}

bool pm_s3_config_is_secret(const char *key)
{
    const struct key_spec *k = key != NULL ? key_of(key) : NULL;
    return k != NULL && k->type == T_SECRET;
}

void pm_s3_config_free(pm_s3_config *c)
{
    if (c == NULL)
        return;
    pm_free(c->endpoint);
    pm_free(c->region);
    if (c->secret_key != NULL)
        memset(c->secret_key, 0, strlen(c->secret_key));
    if (c->session_token != NULL)
        memset(c->session_token, 0, strlen(c->session_token));
    pm_free(c->access_key);
    pm_free(c->secret_key);
    pm_free(c->session_token);
    memset(c, 0, sizeof(*c));
}

static int dup_or_null(char **dst, const char *src)
{
    *dst = NULL;
    if (src != NULL && (*dst = pm_strdup(src)) == NULL)
        return PAIMON_ENOMEM;
    return 0;
}

int pm_s3_config_copy(pm_s3_config *dst, const pm_s3_config *src)
{
    *dst = *src;
    dst->endpoint = dst->region = dst->access_key = dst->secret_key = dst->session_token = NULL;
    if (dup_or_null(&dst->endpoint, src->endpoint) != 0 ||
        dup_or_null(&dst->region, src->region) != 0 ||
        dup_or_null(&dst->access_key, src->access_key) != 0 ||
        dup_or_null(&dst->secret_key, src->secret_key) != 0 ||
        dup_or_null(&dst->session_token, src->session_token) != 0) {
        pm_s3_config_free(dst);
        return PAIMON_ENOMEM;
    }
    return 0;
}

/* ---- ~/.aws ------------------------------------------------------------------------------ */

/* The values of one profile found in the two files (owned strings, NULL when absent). */
typedef struct profile_values {
    char *access_key, *secret_key, *session_token, *region, *endpoint;
    char *credential_process; /* a command printing credentials (config file) */
    bool found;               /* the profile's section exists in either file */
} profile_values;

static void profile_free(profile_values *p)
{
    if (p->secret_key != NULL)
        memset(p->secret_key, 0, strlen(p->secret_key));
    pm_free(p->access_key);
    pm_free(p->secret_key);
    pm_free(p->session_token);
    pm_free(p->region);
    pm_free(p->endpoint);
    pm_free(p->credential_process);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* Reads the section `want` of an INI file into p (values already set are kept: the
 * credentials file is read first and wins).  A missing file is no error. */
static int read_ini(const char *path, const char *want, profile_values *p)
{
    int rc = 0;
    FILE *f = fopen(path, "r");
    char line[4096];
    bool in_section = false;
    long total = 0;
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        total += (long)strlen(line);
        if (total > AWS_FILE_LIMIT)
            break;
        char *s = trim(line);
        size_t n = strlen(s);
        if (n > 0 && s[n - 1] == '\n')
            s[--n] = '\0';
        s = trim(s);
        if (*s == '\0' || *s == '#' || *s == ';')
            continue;
        if (*s == '[') {
            char *end = strchr(s, ']');
            if (end == NULL) {
                in_section = false;
                continue;
            }
            *end = '\0';
            in_section = strcmp(trim(s + 1), want) == 0;
            p->found |= in_section;
            continue;
        }
        char *eq = strchr(s, '=');
        if (!in_section || eq == NULL)
            continue;
        *eq = '\0';
        char *k = trim(s), *v = trim(eq + 1);
        char **slot = NULL;
        if (strcmp(k, "aws_access_key_id") == 0)
            slot = &p->access_key;
        else if (strcmp(k, "aws_secret_access_key") == 0)
            slot = &p->secret_key;
        else if (strcmp(k, "aws_session_token") == 0)
            slot = &p->session_token;
        else if (strcmp(k, "region") == 0)
            slot = &p->region;
        else if (strcmp(k, "endpoint_url") == 0)
            slot = &p->endpoint;
        else if (strcmp(k, "credential_process") == 0)
            slot = &p->credential_process;
        if (slot != NULL && *slot == NULL && *v != '\0' && (*slot = pm_strdup(v)) == NULL) {
            rc = PAIMON_ENOMEM;
            break;
        }
    }
    memset(line, 0, sizeof(line));
    fclose(f);
    return rc;
}

PM_MUST_CHECK static int read_profile(profile_values *p, paimon_error *err)
{
    const char *name = getenv("AWS_PROFILE");
    const char *home = getenv("HOME");
    const char *cred = getenv("AWS_SHARED_CREDENTIALS_FILE");
    const char *conf = getenv("AWS_CONFIG_FILE");
    bool named = name != NULL && *name != '\0';
    char cred_path[4096], conf_path[4096], section[512];
    int rc;

    if (!named)
        name = "default";
    cred_path[0] = conf_path[0] = '\0';
    if (cred != NULL && *cred != '\0')
        snprintf(cred_path, sizeof(cred_path), "%s", cred);
    else if (home != NULL && *home != '\0')
        snprintf(cred_path, sizeof(cred_path), "%s/.aws/credentials", home);
    if (conf != NULL && *conf != '\0')
        snprintf(conf_path, sizeof(conf_path), "%s", conf);
    else if (home != NULL && *home != '\0')
        snprintf(conf_path, sizeof(conf_path), "%s/.aws/config", home);

    if (cred_path[0] != '\0' && (rc = read_ini(cred_path, name, p)) != 0)
        return pm_nomem(err);
    if (strcmp(name, "default") == 0)
        snprintf(section, sizeof(section), "default");
    else
        snprintf(section, sizeof(section), "profile %s", name);
    if (conf_path[0] != '\0' && (rc = read_ini(conf_path, section, p)) != 0)
        return pm_nomem(err);
    /* the CLI also accepts `[profile default]` in the config file */
    if (strcmp(name, "default") == 0 && conf_path[0] != '\0' &&
        (rc = read_ini(conf_path, "profile default", p)) != 0)
        return pm_nomem(err);
    if (named && !p->found)
        return pm_err_set(err, PAIMON_EINVALID, "AWS_PROFILE: profile '%s' is in neither %s nor %s",
                          name, cred_path[0] != '\0' ? cred_path : "~/.aws/credentials",
                          conf_path[0] != '\0' ? conf_path : "~/.aws/config");
    return 0;
}

/* ---- values ------------------------------------------------------------------------------ */

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? v : NULL;
}

static const char *setting(const pm_options *settings, const char *key)
{
    const char *v = settings != NULL ? pm_options_get(settings, key) : NULL;
    for (size_t i = 0; v == NULL && settings != NULL && i < ALIAS_COUNT; i++)
        if (strcmp(ALIASES[i][1], key) == 0)
            v = pm_options_get(settings, ALIASES[i][0]);
    if (v != NULL)
        return v;
    const struct key_spec *k = key_of(key);
    return k != NULL ? k->dflt : NULL;
}

PM_MUST_CHECK static int bad_value(paimon_error *err, const char *key, const char *value,
                                   const char *want)
{
    return pm_err_set(err, PAIMON_EINVALID, "%s: invalid value '%s' (%s)", key, value, want);
}

PM_MUST_CHECK static int get_size(const pm_options *s, const char *key, int64_t min, int64_t *out,
                                  paimon_error *err)
{
    const char *v = setting(s, key);
    if (pm_parse_memory_size(v, out) != 0 || *out < min)
        return bad_value(err, key, v,
                         min > 1 ? "expected a size of at least 5 mb, as '16 mb'"
                                 : "expected a positive size, as '1 mb'");
    return 0;
}

PM_MUST_CHECK static int get_duration(const pm_options *s, const char *key, int64_t *out,
                                      paimon_error *err)
{
    const char *v = setting(s, key);
    if (pm_parse_duration_ms(v, out) != 0 || *out < 0)
        return bad_value(err, key, v, "expected a duration, as '100 ms' or '5 s'");
    return 0;
}

PM_MUST_CHECK static int get_int(const pm_options *s, const char *key, int *out, paimon_error *err)
{
    const char *v = setting(s, key);
    int32_t n = 0;
    if (pm_parse_int32(v, &n) != 0 || n < 1 || n > 1000)
        return bad_value(err, key, v, "expected an integer from 1 to 1000");
    *out = n;
    return 0;
}

/* The host of "scheme://host[:port]" into out. */
static void endpoint_host(const char *endpoint, char *out, size_t cap)
{
    const char *h = strstr(endpoint, "://");
    h = h != NULL ? h + 3 : endpoint;
    size_t n = 0;
    if (*h == '[') { /* [IPv6] */
        const char *e = strchr(h, ']');
        n = e != NULL ? (size_t)(e - h - 1) : strlen(h + 1);
        h++;
    } else {
        while (h[n] != '\0' && h[n] != ':' && h[n] != '/')
            n++;
    }
    if (n >= cap)
        n = cap - 1;
    memcpy(out, h, n);
    out[n] = '\0';
}

static bool host_is_ip_or_local(const char *host)
{
    unsigned char addr[16];
    return strcasecmp(host, "localhost") == 0 || inet_pton(AF_INET, host, addr) == 1 ||
           inet_pton(AF_INET6, host, addr) == 1;
}

static bool host_is_oss(const char *host)
{
    size_t n = strlen(host), s = strlen("aliyuncs.com");
    return n >= s && strcasecmp(host + n - s, "aliyuncs.com") == 0 &&
           (n == s || host[n - s - 1] == '.');
}

/* Endpoint as "scheme://host[:port]": https:// added when there is no scheme, the trailing
 * '/' dropped; a path or an unknown scheme refused. */
PM_MUST_CHECK static int set_endpoint(pm_s3_config *c, const char *v, const char *source,
                                      paimon_error *err)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    const char *rest = v;
    if (strncasecmp(v, "http://", 7) == 0 || strncasecmp(v, "https://", 8) == 0)
        rest = strstr(v, "://") + 3;
    else if (strstr(v, "://") != NULL) {
        return pm_err_set(err, PAIMON_EINVALID, "%s: endpoint '%s' is neither http:// nor https://",
                          source, v);
    }
    size_t n = strlen(rest);
    while (n > 0 && rest[n - 1] == '/')
        n--;
    if (n == 0 || memchr(rest, '/', n) != NULL || memchr(rest, '@', n) != NULL ||
        memchr(rest, ' ', n) != NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "%s: endpoint '%s' is not of the form [http[s]://]host[:port]", source,
                          v);
    if (pm_buf_printf(&b, "%.*s%.*s", (int)(rest - v), v, (int)n, rest) != 0 ||
        pm_buf_putc(&b, '\0') != 0) {
        pm_buf_free(&b);
        return pm_nomem(err);
    }
    if (rest == v) {
        pm_buf_reset(&b);
        if (pm_buf_printf(&b, "https://%.*s", (int)n, rest) != 0 || pm_buf_putc(&b, '\0') != 0) {
            pm_buf_free(&b);
            return pm_nomem(err);
        }
    }
    size_t len;
    c->endpoint = (char *)pm_buf_detach(&b, &len);
    return 0;
}

PM_MUST_CHECK static int check_keys(const pm_options *settings, paimon_error *err)
{
    for (size_t i = 0; settings != NULL && i < settings->count; i++) {
        const char *k = settings->keys[i];
        if (!pm_s3_config_is_key(k))
            continue;
        if (key_of(k) == NULL)
            return pm_err_set(err, PAIMON_EINVALID,
                              "%s: unknown S3 setting (known: s3.endpoint, s3.region, "
                              "s3.access-key, s3.secret-key, s3.session.token, "
                              "s3.path.style.access, s3.commit-mode, s3.multipart.*, "
                              "s3.attempts.maximum, s3.retry.*, s3.connection.*, "
                              "s3.readahead.range, s3.coalesce.gap, s3.prefetch.block.*, "
                              "s3.fast.upload.active.blocks)",
                              k);
    }
    return 0;
}

int pm_s3_config_load(pm_s3_config *c, const pm_options *settings, paimon_error *err)
{
    int rc = 0;
    profile_values prof = {0};
    char host[256];
    const char *v, *ak, *sk, *tok = NULL;
    int64_t part = 0, threshold = 0;
    bool check_min = true, b = false;

    memset(c, 0, sizeof(*c));
    PM_TRY(check_keys(settings, err));
    PM_TRY(read_profile(&prof, err));

    /* credentials: a pair from one source, never half from each */
    ak = setting(settings, "s3.access-key");
    sk = setting(settings, "s3.secret-key");
    if ((ak == NULL) != (sk == NULL)) {
        rc = pm_err_set(err, PAIMON_EINVALID, "%s is set but %s is not",
                        ak != NULL ? "s3.access-key" : "s3.secret-key",
                        ak != NULL ? "s3.secret-key" : "s3.access-key");
        goto done;
    }
    if (ak != NULL) {
        tok = setting(settings, "s3.session.token");
    } else if (env("AWS_ACCESS_KEY_ID") != NULL || env("AWS_SECRET_ACCESS_KEY") != NULL) {
        ak = env("AWS_ACCESS_KEY_ID");
        sk = env("AWS_SECRET_ACCESS_KEY");
        tok = env("AWS_SESSION_TOKEN");
        if (ak == NULL || sk == NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID, "%s is set but %s is not",
                            ak != NULL ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
                            ak != NULL ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
            goto done;
        }
    } else if (prof.access_key != NULL || prof.secret_key != NULL) {
        ak = prof.access_key;
        sk = prof.secret_key;
        tok = prof.session_token;
        if (ak == NULL || sk == NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "AWS profile: aws_access_key_id and aws_secret_access_key must "
                            "both be set");
            goto done;
        }
    } else if (prof.credential_process != NULL) {
        /* the profile's helper prints them (after the profile's own keys, as the SDKs) */
        PM_TRY(pm_s3_credential_process(prof.credential_process, &c->access_key, &c->secret_key,
                                        &c->session_token, err));
    }
    if ((ak != NULL && (c->access_key = pm_strdup(ak)) == NULL) ||
        (sk != NULL && (c->secret_key = pm_strdup(sk)) == NULL) ||
        (tok != NULL && (c->session_token = pm_strdup(tok)) == NULL)) {
        rc = pm_nomem(err);
        goto done;
    }

    /* region */
    if ((v = setting(settings, "s3.region")) == NULL && (v = env("AWS_REGION")) == NULL &&
        (v = env("AWS_DEFAULT_REGION")) == NULL && (v = prof.region) == NULL)
        v = "us-east-1";
    if (*v == '\0' || strpbrk(v, "/ \t\n") != NULL) {
        rc = bad_value(err, "s3.region", v, "expected a region name, as 'us-east-1'");
        goto done;
    }
    if ((c->region = pm_strdup(v)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }

    /* endpoint */
    if ((v = setting(settings, "s3.endpoint")) != NULL)
        PM_TRY(set_endpoint(c, v, "s3.endpoint", err));
    else if ((v = env("AWS_ENDPOINT_URL_S3")) != NULL)
        PM_TRY(set_endpoint(c, v, "AWS_ENDPOINT_URL_S3", err));
    else if ((v = env("AWS_ENDPOINT_URL")) != NULL)
        PM_TRY(set_endpoint(c, v, "AWS_ENDPOINT_URL", err));
    else if (prof.endpoint != NULL)
        PM_TRY(set_endpoint(c, prof.endpoint, "AWS profile endpoint_url", err));
    else {
        char aws[300];
        snprintf(aws, sizeof(aws), "https://s3.%s.amazonaws.com", c->region);
        PM_TRY(set_endpoint(c, aws, "s3.region", err));
    }
    endpoint_host(c->endpoint, host, sizeof(host));

    /* addressing */
    if ((v = setting(settings, "s3.path.style.access")) != NULL) {
        if (pm_parse_bool(v, &b) != 0) {
            rc = bad_value(err, "s3.path.style.access", v, "expected true or false");
            goto done;
        }
        c->path_style = b;
    } else {
        c->path_style = host_is_ip_or_local(host);
    }

    /* commit mode */
    v = setting(settings, "s3.commit-mode");
    if (strcasecmp(v, "auto") == 0)
        c->commit_mode = host_is_oss(host) ? PM_S3_COMMIT_OSS_FORBID : PM_S3_COMMIT_IF_NONE_MATCH;
    else if (strcasecmp(v, "if-none-match") == 0)
        c->commit_mode = PM_S3_COMMIT_IF_NONE_MATCH;
    else if (strcasecmp(v, "oss-forbid-overwrite") == 0)
        c->commit_mode = PM_S3_COMMIT_OSS_FORBID;
    else if (strcasecmp(v, "single-writer") == 0)
        c->commit_mode = PM_S3_COMMIT_SINGLE_WRITER;
    else {
        rc = bad_value(err, "s3.commit-mode", v,
                       "expected auto, if-none-match, oss-forbid-overwrite or single-writer");
        goto done;
    }

    /* multipart */
    v = setting(settings, "s3.multipart.min-size-check");
    if (pm_parse_bool(v, &check_min) != 0) {
        rc = bad_value(err, "s3.multipart.min-size-check", v, "expected true or false");
        goto done;
    }
    PM_TRY(get_size(settings, "s3.multipart.size", check_min ? MIN_PART_SIZE : 1, &part, err));
    if (part > MAX_PART_SIZE) {
        rc = bad_value(err, "s3.multipart.size", setting(settings, "s3.multipart.size"),
                       "S3 parts are at most 5 gb");
        goto done;
    }
    c->part_size = (size_t)part;
    if (setting(settings, "s3.multipart.threshold") != NULL) {
        PM_TRY(get_size(settings, "s3.multipart.threshold", 1, &threshold, err));
        c->multipart_threshold = (size_t)threshold;
    } else {
        c->multipart_threshold = c->part_size;
    }

    /* retries, connections, reads */
    PM_TRY(get_int(settings, "s3.attempts.maximum", &c->max_attempts, err));
    PM_TRY(get_duration(settings, "s3.retry.interval", &c->retry_base_ms, err));
    PM_TRY(get_duration(settings, "s3.retry.max-interval", &c->retry_max_ms, err));
    if (c->retry_max_ms < c->retry_base_ms)
        c->retry_max_ms = c->retry_base_ms;
    PM_TRY(get_duration(settings, "s3.connection.establish.timeout", &c->connect_timeout_ms, err));
    PM_TRY(get_duration(settings, "s3.connection.timeout", &c->request_timeout_ms, err));
    PM_TRY(get_int(settings, "s3.connection.maximum", &c->max_connections, err));
    {
        int64_t n = 0;
        PM_TRY(get_size(settings, "s3.readahead.range", 0, &n, err));
        c->readahead = (size_t)n;
        PM_TRY(get_size(settings, "s3.coalesce.gap", 0, &n, err));
        c->coalesce_gap = (size_t)n;
        PM_TRY(get_size(settings, "s3.prefetch.block.size", 1, &n, err));
        c->prefetch_block = (size_t)n;
    }
    PM_TRY(get_int(settings, "s3.prefetch.block.count", &c->prefetch_blocks, err));
    PM_TRY(get_int(settings, "s3.fast.upload.active.blocks", &c->upload_active, err));
done:
    profile_free(&prof);
    if (rc != 0)
        pm_s3_config_free(c);
    return rc;
}

int pm_s3_config_describe(const pm_s3_config *c, pm_buf *out)
{
    static const char *const MODES[] = {"if-none-match", "oss-forbid-overwrite", "single-writer"};
    return pm_buf_printf(
        out,
        "s3.endpoint=%s s3.region=%s credentials=%s%s s3.path.style.access=%s "
        "s3.commit-mode=%s s3.multipart.size=%zu s3.multipart.threshold=%zu "
        "s3.attempts.maximum=%d s3.retry.interval=%lldms s3.retry.max-interval=%lldms "
        "s3.connection.establish.timeout=%lldms s3.connection.timeout=%lldms "
        "s3.connection.maximum=%d s3.readahead.range=%zu s3.coalesce.gap=%zu "
        "s3.prefetch.block.size=%zu s3.prefetch.block.count=%d s3.fast.upload.active.blocks=%d",
        c->endpoint, c->region, c->access_key != NULL ? "set" : "anonymous",
        c->session_token != NULL ? "+session-token" : "", c->path_style ? "true" : "false",
        (unsigned)c->commit_mode < 3 ? MODES[c->commit_mode] : "?", c->part_size,
        c->multipart_threshold, c->max_attempts, (long long)c->retry_base_ms,
        (long long)c->retry_max_ms, (long long)c->connect_timeout_ms,
        (long long)c->request_timeout_ms, c->max_connections, c->readahead, c->coalesce_gap,
        c->prefetch_block, c->prefetch_blocks, c->upload_active);
}
