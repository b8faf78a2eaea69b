/*
 * `credential_process` of an AWS profile (~/.aws/config): a command that prints temporary
 * credentials as JSON, as the AWS CLI and SDKs run it (SSO helpers, vaults, aws-vault):
 *
 *   {"Version": 1, "AccessKeyId": "...", "SecretAccessKey": "...",
 *    "SessionToken": "...", "Expiration": "2026-12-04T01:00:00Z"}
 *
 * It is run once, when the file system is configured (a command lives far shorter than
 * such credentials), through /bin/sh as the SDKs do.  Its output holds secrets: no error
 * quotes it, and the buffer is wiped.  Expiration is not read: there is no refresh.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include <jansson.h>

#include "io/s3/s3_config.h"
#include "util/alloc.h"
#include "util/error.h"

#define OUTPUT_MAX (64u << 10) /* a credentials document is a few hundred bytes */

/* A required string member of the document, copied; PAIMON_EINVALID naming the key. */
PM_MUST_CHECK static int member(json_t *doc, const char *key, bool required, char **out,
                                paimon_error *err)
{
    json_t *v = json_object_get(doc, key);
    *out = NULL;
    if (v == NULL || json_is_null(v)) {
        if (!required)
            return 0;
        return pm_err_set(err, PAIMON_EINVALID,
                          "AWS profile credential_process: its output has no %s", key);
    }
    if (!json_is_string(v) || json_string_length(v) == 0)
        return pm_err_set(err, PAIMON_EINVALID,
                          "AWS profile credential_process: %s in its output is not a string", key);
    /* The values go into HTTP headers (Authorization, x-amz-security-token): a CR or LF
     * would end the header and start another; no key or token holds a control byte. */
    for (const char *c = json_string_value(v); *c != '\0'; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return pm_err_set(err, PAIMON_EINVALID,
                              "AWS profile credential_process: %s in its output holds a control "
                              "character",
                              key);
    if ((*out = pm_strdup(json_string_value(v))) == NULL)
        return pm_nomem(err);
    return 0;
}

int pm_s3_credential_process(const char *command, char **access_key, char **secret_key,
                             char **session_token, paimon_error *err)
{
    char *buf = pm_malloc(OUTPUT_MAX + 1);
    size_t len = 0, n;
    json_t *doc = NULL, *version;
    json_error_t jerr;
    FILE *p;
    int status, rc = 0;

    *access_key = *secret_key = *session_token = NULL;
    if (buf == NULL)
        return pm_nomem(err);
    fflush(NULL);
    if ((p = popen(command, "r")) == NULL) {
        rc = pm_err_set(err, PAIMON_EIO, "AWS profile credential_process: cannot run it");
        goto done;
    }
    while (len < OUTPUT_MAX && (n = fread(buf + len, 1, OUTPUT_MAX - len, p)) > 0)
        len += n;
    while (len == OUTPUT_MAX && fgetc(p) != EOF) /* drain: the child must not block */
        ;
    status = pclose(p);
    buf[len] = '\0';
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "AWS profile credential_process: the command failed (exit status %d)",
                        status == -1 || !WIFEXITED(status) ? -1 : WEXITSTATUS(status));
        goto done;
    }
    if (len == OUTPUT_MAX) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "AWS profile credential_process: its output exceeds %u bytes", OUTPUT_MAX);
        goto done;
    }
    if ((doc = json_loadb(buf, len, 0, &jerr)) == NULL || !json_is_object(doc)) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "AWS profile credential_process: its output is not a JSON object");
        goto done;
    }
    version = json_object_get(doc, "Version");
    if (!json_is_integer(version) || json_integer_value(version) != 1) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "AWS profile credential_process: its output is not Version 1");
        goto done;
    }
    if ((rc = member(doc, "AccessKeyId", true, access_key, err)) != 0 ||
        (rc = member(doc, "SecretAccessKey", true, secret_key, err)) != 0 ||
        (rc = member(doc, "SessionToken", false, session_token, err)) != 0)
        goto done;
done:
    if (rc != 0) {
        if (*secret_key != NULL)
            memset(*secret_key, 0, strlen(*secret_key));
        pm_free(*access_key);
        pm_free(*secret_key);
        pm_free(*session_token);
        *access_key = *secret_key = *session_token = NULL;
    }
    json_decref(doc);
    memset(buf, 0, OUTPUT_MAX + 1);
    pm_free(buf);
    return rc;
}
