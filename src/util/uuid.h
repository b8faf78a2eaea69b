/* Random (version 4) UUIDs in the lower-case dashed form Paimon file names use. */
#ifndef PM_UTIL_UUID_H
#define PM_UTIL_UUID_H

#define PM_UUID_STRLEN 36

/* Writes 36 characters and a NUL into `out`.  Returns 0 or PAIMON_EIO. */
int pm_uuid_v4(char out[PM_UUID_STRLEN + 1]);

#endif /* PM_UTIL_UUID_H */
