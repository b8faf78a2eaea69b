/*
 * The progress line of long commands (issue 18): `write`, `compact`, `cat` to a file,
 * `expire` and `remove-orphans` show on stderr, when it is a terminal, how far they are:
 *
 *     compact: 12 files, 1200000 rows, 48 MiB written, 9.6 MiB/s, 5.0 s
 *
 * redrawn in place (carriage return) every 250 ms by a thread of its own, and left on the
 * screen with a newline when the command ends.  Nothing is printed when stderr is not a
 * terminal, or with --quiet (every command accepts it: cli.c sets cli_progress_quiet).
 *
 * What is counted: CLI_PROGRESS_WRITTEN, the data files the library finished since the start
 * (paimon_progress_read); CLI_PROGRESS_REMOVED, the files snapshot expiration removed;
 * CLI_PROGRESS_OUTPUT, what the command itself reports with cli_progress_add() (rows, files
 * and bytes; without bytes, stdout's position), shown only when stdout is not a terminal
 * (else the command's own lines are the progress).  An error line (cli_error) ends the
 * progress line first, so that it stands on a line of its own.
 *
 * Thread safety: one progress line at a time per process; cli_progress_add() may be called
 * from any thread.
 */
#ifndef PM_CLI_PROGRESS_H
#define PM_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum cli_progress_kind {
    CLI_PROGRESS_WRITTEN,
    CLI_PROGRESS_REMOVED,
    CLI_PROGRESS_OUTPUT
} cli_progress_kind;

/* --quiet was given. */
extern bool cli_progress_quiet;

/* Starts the progress line of command `what`; does nothing (and the others neither) when
 * stderr is not a terminal or --quiet was given. */
void cli_progress_start(const char *what, cli_progress_kind kind);

/* CLI_PROGRESS_OUTPUT: `rows` more rows, `files` more files, `bytes` more bytes done. */
void cli_progress_add(int64_t rows, int64_t files, int64_t bytes);

/* Draws the last state and ends the line; the thread is gone afterwards.  Calling it again,
 * or without a start, does nothing. */
void cli_progress_end(void);

#endif /* PM_CLI_PROGRESS_H */
