/*
 * PM_ASSERT: checks of the program's own invariants, in debug builds.
 *
 * PM_ASSERT(cond) is active when NDEBUG is not defined (the debug and coverage presets):
 * a false condition prints "FILE:LINE: assertion failed: COND" on stderr and aborts.  With
 * NDEBUG (release, fuzz) it compiles to nothing: the condition is not evaluated, but it
 * stays visible to the compiler (inside sizeof), so a variable or function used only by
 * assertions is not reported unused.
 *
 * What it is for (STYLE.md): structure the program itself builds and must keep -- a loser
 * tree's winner, the order of the LSM levels, a buffer's len <= cap, a batch's column
 * lengths.  Never for facts about input: bytes from disk, user rows and options are checked
 * and returned as errors (PAIMON_ECORRUPT, PAIMON_EINVALID), in every build.
 *
 * A static function that only assertions call is marked PM_ASSERT_HELPER, so that release
 * builds (where it is never called) do not warn about it.  Checks worth testing on their
 * own are ordinary functions (pm_levels_check, pm_batch_is_aligned) that tests call.
 */
#ifndef PM_UTIL_ASSERT_H
#define PM_UTIL_ASSERT_H

/* Prints "FILE:LINE: assertion failed: COND" and aborts.  Called by PM_ASSERT only. */
_Noreturn void pm_assert_fail(const char *file, int line, const char *cond);

#ifndef NDEBUG
#define PM_ASSERT(cond) ((cond) ? (void)0 : pm_assert_fail(__FILE__, __LINE__, #cond))
#else
#define PM_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

#define PM_ASSERT_HELPER __attribute__((unused))

#endif /* PM_UTIL_ASSERT_H */
