/*
 * Listing and batch deletion on S3: ListObjectsV2 (a "directory" is the key prefix `dir/`,
 * listed with delimiter '/', 1000 keys a page, pages chained by continuation token) and
 * DeleteObjects (POST ?delete with up to 1000 keys and the Content-MD5 S3 requires), plus the
 * small scanner of the flat XML that both answer with.
 *
 * Names: an object `dir/name` lists as "name", a common prefix `dir/sub/` as "sub" (a local
 * directory's entry); the object `dir/` itself (a directory marker some tools write) is no
 * entry, but it makes the directory exist.  A prefix with no keys at all is PAIMON_ENOTFOUND,
 * as a missing local directory.
 */
#include <string.h>

#include <openssl/evp.h>

#include "io/s3/s3_fs_int.h"
#include "io/s3/s3_xml.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"

#define LIST_PAGE    1000 /* S3's maximum keys per ListObjectsV2 page */
#define DELETE_BATCH 1000 /* S3's maximum keys per DeleteObjects request */

/* The body of a response as a document for the XML scanner ("" when there is none). */
static const char *doc_of(const pm_buf *body)
{
    return body->data != NULL ? (const char *)body->data : "";
}

/* The decoded text of the first <name> of span, or NULL (absent).  PAIMON_ECORRUPT names
 * the listing or request of `what`. */
PM_MUST_CHECK static int text_in(const char *doc, size_t len, const char *name, char **out,
                                 const char *what, paimon_error *err)
{
    int rc = pm_s3_xml_text(doc, len, name, out);
    *out = rc == 0 ? *out : NULL;
    if (rc == PAIMON_ENOTFOUND)
        return 0;
    if (rc == PAIMON_ENOMEM)
        return pm_nomem(err);
    if (rc != 0)
        return pm_corrupt(err, "%s: malformed <%s> in the answer", what, name);
    return 0;
}

/* Appends the entry `full` (a key or common prefix) relative to `prefix` to `names`; sets
 * *any.  The marker object `prefix` itself is no entry. */
PM_MUST_CHECK static int add_entry(const char *full, const char *prefix, pm_strlist *names,
                                   bool *any, paimon_error *err)
{
    size_t pl = strlen(prefix), fl = strlen(full);
    *any = true;
    if (names == NULL || fl <= pl || strncmp(full, prefix, pl) != 0)
        return 0;
    while (fl > pl && full[fl - 1] == '/')
        fl--;
    if (fl == pl)
        return 0;
    /* With delimiter=/ a store lists only direct children; a name holding '/' would join
     * into a path below a child that the listing did not describe.  Not an entry. */
    if (memchr(full + pl, '/', fl - pl) != NULL)
        return 0;
    if (pm_strlist_pushn(names, full + pl, fl - pl) != 0)
        return pm_nomem(err);
    return 0;
}

/* Adds the <leaf> of every <block> element of the page (Contents/Key, CommonPrefixes/Prefix). */
PM_MUST_CHECK static int page_entries(const pm_buf *body, const char *block, const char *leaf,
                                      const char *prefix, pm_strlist *names, bool *any,
                                      paimon_error *err)
{
    const char *xml = doc_of(body);
    size_t pos = 0;
    pm_s3_xml_span span;
    while (pm_s3_xml_next(xml, body->len, &pos, block, &span)) {
        char *text = NULL;
        int rc = text_in(span.ptr, span.len, leaf, &text, prefix, err);
        if (rc == 0 && text != NULL)
            rc = add_entry(text, prefix, names, any, err);
        pm_free(text);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* Parses one ListObjectsV2 page; *token is the next continuation token or NULL. */
PM_MUST_CHECK static int parse_page(const pm_buf *body, const char *prefix, pm_strlist *names,
                                    bool *any, char **token, paimon_error *err)
{
    const char *xml = doc_of(body);
    char *trunc = NULL;
    int rc = 0;

    *token = NULL;
    PM_TRY(page_entries(body, "Contents", "Key", prefix, names, any, err));
    PM_TRY(page_entries(body, "CommonPrefixes", "Prefix", prefix, names, any, err));
    PM_TRY(text_in(xml, body->len, "IsTruncated", &trunc, prefix, err));
    if (trunc != NULL && strcmp(trunc, "true") == 0)
        PM_TRY(text_in(xml, body->len, "NextContinuationToken", token, prefix, err));
done:
    pm_free(trunc);
    return rc;
}

int pm_s3_list_prefix(pm_s3_fs *fs, const char *bucket, const char *prefix, size_t limit,
                      pm_strlist *names, bool *any, paimon_error *err)
{
    char max_keys[24];
    char *token = NULL;
    pm_s3_response resp;
    int rc = 0;

    *any = false;
    snprintf(max_keys, sizeof(max_keys), "%zu", limit > 0 && limit < LIST_PAGE ? limit : LIST_PAGE);
    pm_s3_response_init(&resp);
    for (;;) {
        const char *query[] = {"list-type",          "2",  "prefix",   prefix,
                               "delimiter",          "/",  "max-keys", max_keys,
                               "continuation-token", token};
        pm_s3_request req = {.method = "GET",
                             .bucket = bucket,
                             .key = "",
                             .query = query,
                             .query_count = token != NULL ? 5 : 4};
        char *next = NULL;
        PM_TRY(pm_s3_perform(fs->client, &req, &resp, err));
        if (resp.status / 100 != 2) {
            /* Name the listed prefix, not the bucket. */
            req.key = prefix;
            rc = pm_s3_status_error(&req, &resp, err);
            goto done;
        }
        PM_TRY(parse_page(&resp.body, prefix, names, any, &next, err));
        if (next != NULL && token != NULL && strcmp(next, token) == 0) {
            /* The answer bytes are untrusted: a store that hands back the token it was asked
             * with would keep this loop going for ever. */
            pm_free(next);
            rc = pm_err_set(err, PAIMON_ECORRUPT,
                            "s3://%s/%s: the listing repeats its continuation token", bucket,
                            prefix);
            goto done;
        }
        pm_free(token);
        token = next;
        if (token == NULL || limit > 0)
            break;
        pm_s3_response_free(&resp);
        pm_s3_response_init(&resp);
    }
done:
    pm_free(token);
    pm_s3_response_free(&resp);
    return rc;
}

int pm_s3_fs_list(pm_fs *base, const char *dir, pm_strlist *names, paimon_error *err)
{
    pm_s3_fs *fs = (pm_s3_fs *)base;
    pm_s3_path p;
    pm_buf prefix;
    bool any = false;
    int rc = 0;

    pm_buf_init(&prefix, 0);
    PM_TRY(pm_s3_path_split(&p, dir, err));
    if (pm_buf_printf(&prefix, "%s/", p.key) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_s3_list_prefix(fs, p.bucket, pm_buf_cstr(&prefix), 0, names, &any, err));
    if (!any)
        rc = pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such directory", dir);
done:
    pm_buf_free(&prefix);
    pm_s3_path_free(&p);
    return rc;
}

/* Appends `s` with the five XML special characters escaped. */
static int xml_escape(pm_buf *b, const char *s)
{
    int rc = 0;
    for (; *s != '\0' && rc == 0; s++) {
        switch (*s) {
        case '&': rc = pm_buf_puts(b, "&amp;"); break;
        case '<': rc = pm_buf_puts(b, "&lt;"); break;
        case '>': rc = pm_buf_puts(b, "&gt;"); break;
        case '"': rc = pm_buf_puts(b, "&quot;"); break;
        case '\'': rc = pm_buf_puts(b, "&apos;"); break;
        default: rc = pm_buf_putc(b, (uint8_t)*s); break;
        }
    }
    return rc;
}

/* One DeleteObjects request for keys[0..n) of one bucket (Quiet: only failures answer). */
PM_MUST_CHECK static int delete_batch(pm_s3_fs *fs, const char *bucket, const pm_s3_path *keys,
                                      size_t n, paimon_error *err)
{
    static const char *const query[] = {"delete", ""};
    pm_buf body;
    pm_s3_response resp;
    unsigned char md5[EVP_MAX_MD_SIZE];
    unsigned int md5_len = 0;
    char md5_b64[32];
    int rc = 0;

    pm_buf_init(&body, 0);
    pm_s3_response_init(&resp);
    if (pm_buf_puts(&body,
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete><Quiet>true</Quiet>") != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if (pm_buf_puts(&body, "<Object><Key>") != 0 || xml_escape(&body, keys[i].key) != 0 ||
            pm_buf_puts(&body, "</Key></Object>") != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    if (pm_buf_puts(&body, "</Delete>") != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    if (EVP_Digest(body.data, body.len, md5, &md5_len, EVP_md5(), NULL) != 1 || md5_len != 16) {
        rc = pm_err_set(err, PAIMON_EIO, "s3://%s: MD5 of the delete request failed", bucket);
        goto done;
    }
    EVP_EncodeBlock((unsigned char *)md5_b64, md5, 16);
    {
        const char *headers[] = {"Content-MD5", md5_b64, "Content-Type", "application/xml"};
        pm_s3_request req = {.method = "POST",
                             .bucket = bucket,
                             .key = "",
                             .query = query,
                             .query_count = 1,
                             .headers = headers,
                             .header_count = 2,
                             .body = body.data,
                             .body_len = body.len};
        size_t pos = 0;
        pm_s3_xml_span e;
        PM_TRY(pm_s3_perform(fs->client, &req, &resp, err));
        if (resp.status / 100 != 2) {
            req.key = keys[0].key;
            rc = pm_s3_status_error(&req, &resp, err);
            goto done;
        }
        /* Per-key failures: <Error><Key>k</Key><Code>c</Code><Message>m</Message></Error>. */
        if (pm_s3_xml_next(doc_of(&resp.body), resp.body.len, &pos, "Error", &e)) {
            char *key = NULL, *code = NULL, *msg = NULL;
            rc = text_in(e.ptr, e.len, "Key", &key, keys[0].key, err);
            if (rc == 0)
                rc = text_in(e.ptr, e.len, "Code", &code, keys[0].key, err);
            if (rc == 0)
                rc = text_in(e.ptr, e.len, "Message", &msg, keys[0].key, err);
            if (rc == 0)
                rc = pm_err_set(err, PAIMON_EIO, "s3://%s/%s: delete failed: %s: %s", bucket,
                                key != NULL ? key : "?", code != NULL ? code : "?",
                                msg != NULL ? msg : "");
            pm_free(key);
            pm_free(code);
            pm_free(msg);
        }
    }
done:
    pm_s3_response_free(&resp);
    pm_buf_free(&body);
    return rc;
}

int pm_s3_fs_remove_many(pm_fs *base, const char *const *paths, size_t count, paimon_error *err)
{
    pm_s3_fs *fs = (pm_s3_fs *)base;
    pm_s3_path *keys = NULL;
    size_t n = 0, start = 0;
    int rc = 0;

    if (count == 0)
        return 0;
    if ((keys = pm_calloc(count, sizeof(*keys))) == NULL)
        return pm_nomem(err);
    for (n = 0; n < count; n++)
        PM_TRY(pm_s3_path_split(&keys[n], paths[n], err));
    /* Runs of one bucket, at most DELETE_BATCH keys a request, in the order given. */
    while (start < count) {
        size_t end = start + 1;
        while (end < count && end - start < DELETE_BATCH &&
               strcmp(keys[end].bucket, keys[start].bucket) == 0)
            end++;
        PM_TRY(delete_batch(fs, keys[start].bucket, keys + start, end - start, err));
        start = end;
    }
done:
    for (size_t i = 0; i < n; i++)
        pm_s3_path_free(&keys[i]);
    pm_free(keys);
    return rc;
}
