/*
 * The process-wide storage settings (include/paimon/storage.h) and the one way the public
 * functions make a file system for a path: pm_api_fs_for_path() takes a consistent copy of
 * the settings under the mutex and lets io/ pick the backend by the path's scheme.
 *
 * Credential values are wiped (explicit_bzero) before their memory is released, so that a
 * core dump taken later does not hold them longer than needed.
 */
#include "paimon/storage.h"

#include <pthread.h>
#include <string.h>

#include "api/api.h"
#include "io/fs.h"
#include "io/s3/s3_config.h"
#include "util/alloc.h"
#include "util/error.h"

static pthread_mutex_t settings_lock = PTHREAD_MUTEX_INITIALIZER;
static pm_options settings; /* zeroed: an empty map, as pm_options_init makes */

static void wipe_secrets(pm_options *o)
{
    for (size_t i = 0; i < o->count; i++)
        if (pm_s3_config_is_secret(o->keys[i]))
            explicit_bzero(o->values[i], strlen(o->values[i]));
}

void pm_api_settings_free(pm_options *o)
{
    wipe_secrets(o);
    pm_options_free(o);
}

/* An unknown `s3.*` key or a malformed value is refused now, by loading a configuration of
 * this setting over the others set so far (credentials left out): the loader names the key
 * it refuses first (s3_config.h), and a value that depends on another setting (a part size
 * under 5 MiB after s3.multipart.min-size-check=false) is judged with it.  Failures that
 * are not about this key (no credentials yet, ~/.aws unreadable) are not this call's to
 * report: they come when a file system is made.  Credentials are strings the loader only
 * pairs (an access key without its secret yet is fine here), so only their keys are
 * checked, and their values never reach a message. */
PM_MUST_CHECK static int check_setting(const char *key, const char *value, paimon_error *err)
{
    pm_options one;
    pm_s3_config c;
    paimon_error e;
    size_t len = strlen(key);
    int rc;

    pm_options_init(&one);
    pthread_mutex_lock(&settings_lock);
    for (size_t i = 0; i < settings.count; i++)
        if (!pm_s3_config_is_secret(settings.keys[i]) &&
            pm_options_set(&one, settings.keys[i], settings.values[i]) != 0) {
            pthread_mutex_unlock(&settings_lock);
            pm_options_free(&one);
            return pm_nomem(err);
        }
    pthread_mutex_unlock(&settings_lock);
    if (pm_options_set(&one, key, pm_s3_config_is_secret(key) ? "x" : value) != 0) {
        pm_options_free(&one);
        return pm_nomem(err);
    }
    memset(&e, 0, sizeof(e));
    rc = pm_s3_config_load(&c, &one, &e);
    pm_options_free(&one);
    if (rc == 0) {
        pm_s3_config_free(&c);
        return 0;
    }
    if (rc == PAIMON_EINVALID && strncmp(e.message, key, len) == 0 && e.message[len] == ':' &&
        (!pm_s3_config_is_secret(key) || strstr(e.message, "unknown") != NULL))
        return pm_err_set(err, rc, "%s", e.message);
    return rc == PAIMON_ENOMEM ? pm_nomem(err) : 0;
}

PAIMON_API bool paimon_storage_is_secret(const char *key)
{
    return key != NULL && pm_s3_config_is_secret(key);
}

PAIMON_API int paimon_storage_set(const char *key, const char *value, paimon_error *err)
{
    int rc = 0;
    paimon_error_clear(err);
    if (key == NULL || key[0] == '\0')
        return pm_err_set(err, PAIMON_EINVALID, "paimon_storage_set: no key given");
    if (!pm_s3_config_is_key(key))
        return pm_err_set(err, PAIMON_EINVALID,
                          "%s: unknown storage setting (known: the s3.* keys of "
                          "docs/OBJECT-STORAGE.md)",
                          key);
    if (value != NULL && (rc = check_setting(key, value, err)) != 0)
        return rc;
    pthread_mutex_lock(&settings_lock);
    for (size_t i = 0; i < settings.count; i++)
        if (strcmp(settings.keys[i], key) == 0 && pm_s3_config_is_secret(key))
            explicit_bzero(settings.values[i], strlen(settings.values[i]));
    if (value == NULL)
        pm_options_remove(&settings, key);
    else if (pm_options_set(&settings, key, value) != 0)
        rc = pm_nomem(err);
    pthread_mutex_unlock(&settings_lock);
    return rc;
}

PAIMON_API void paimon_storage_reset(void)
{
    pthread_mutex_lock(&settings_lock);
    pm_api_settings_free(&settings);
    pm_options_init(&settings);
    pthread_mutex_unlock(&settings_lock);
}

int pm_api_settings_copy(pm_options *out, paimon_error *err)
{
    int rc = 0;
    pthread_mutex_lock(&settings_lock);
    if (pm_options_copy(out, &settings) != 0)
        rc = pm_nomem(err);
    pthread_mutex_unlock(&settings_lock);
    return rc;
}

int pm_api_fs_for_path(pm_fs **out, const char *path, bool sync, paimon_error *err)
{
    pm_options copy;
    int rc;
    *out = NULL;
    pm_options_init(&copy);
    if ((rc = pm_api_settings_copy(&copy, err)) != 0)
        return rc;
    rc = pm_fs_for_path(out, path, &copy, sync, err);
    pm_api_settings_free(&copy);
    return rc;
}

PAIMON_API int paimon_path_exists(const char *path, bool *exists, paimon_error *err)
{
    pm_fs *fs = NULL;
    int rc = 0;

    paimon_error_clear(err);
    if (path == NULL || path[0] == '\0' || exists == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_path_exists: path and exists needed");
    *exists = false;
    PM_TRY(pm_api_fs_for_path(&fs, path, false, err));
    rc = pm_fs_exists(fs, pm_fs_local_path(path), exists, err);
done:
    pm_fs_free(fs);
    return rc;
}
