/*
 * TEMPORARY (branch i14-wire only): stand-ins for the S3 symbols that branches i14-client
 * (the configuration) and i14-fs (the file system) define, so that the layers above io/ build and test
 * before those land.  Deleted by the merge of i14-client and i14-fs into i14-wire; if this
 * file reaches main, delete it.
 */
#include <string.h>

#include "io/fs.h"
#include "io/s3/s3_config.h"
#include "util/error.h"

static const char *const KEYS[] = {
    "s3.endpoint",
    "s3.access-key",
    "s3.secret-key",
    "s3.session.token",
    "s3.region",
    "s3.path.style.access",
    "s3.commit-mode",
    "s3.multipart.size",
    "s3.multipart.threshold",
    "s3.attempts.maximum",
    "s3.retry.interval",
    "s3.retry.max-interval",
    "s3.connection.establish.timeout",
    "s3.connection.timeout",
    "s3.connection.maximum",
    "s3.readahead.range",
    "s3.coalesce.gap",
    NULL,
};

bool pm_s3_config_is_key(const char *key)
{
    for (size_t i = 0; KEYS[i] != NULL; i++)
        if (strcmp(KEYS[i], key) == 0)
            return true;
    return false;
}

bool pm_s3_config_is_secret(const char *key)
{
    return strcmp(key, "s3.access-key") == 0 || strcmp(key, "s3.secret-key") == 0 ||
           strcmp(key, "s3.session.token") == 0;
}

int pm_fs_s3_new(pm_fs **out, const pm_options *settings, paimon_error *err)
{
    (void)settings;
    *out = NULL;
    return pm_err_set(err, PAIMON_EUNSUPPORTED, "s3: the S3 file system is not built in yet");
}
