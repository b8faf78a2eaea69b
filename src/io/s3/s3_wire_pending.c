/*
 * TEMPORARY (branch i14-wire only): a stand-in for the S3 file system that branch i14-fs
 * defines, so that the layers above io/ build and test before it lands.  Deleted by the
 * merge of i14-fs into i14-wire; if this file reaches main, delete it.
 */
#include "io/fs.h"
#include "util/error.h"

int pm_fs_s3_new(pm_fs **out, const pm_options *settings, paimon_error *err)
{
    (void)settings;
    *out = NULL;
    return pm_err_set(err, PAIMON_EUNSUPPORTED, "s3: the S3 file system is not built in yet");
}
