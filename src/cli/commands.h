/* The subcommands of `paimon`: one file each (cmd_<name>.c), registered in main.c. */
#ifndef PM_CLI_COMMANDS_H
#define PM_CLI_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "paimon.h"

int cli_cmd_create(int argc, char **argv);
int cli_cmd_alter(int argc, char **argv);
int cli_cmd_inspect(int argc, char **argv);
int cli_cmd_cat(int argc, char **argv);
int cli_cmd_demo(int argc, char **argv);
int cli_cmd_file(int argc, char **argv);
int cli_cmd_write(int argc, char **argv);
int cli_cmd_tail(int argc, char **argv);
int cli_cmd_compact(int argc, char **argv);
int cli_cmd_tag(int argc, char **argv);
int cli_cmd_rollback(int argc, char **argv);
int cli_cmd_remove_orphans(int argc, char **argv);
int cli_cmd_consumer(int argc, char **argv);
int cli_cmd_expire_partitions(int argc, char **argv);
int cli_cmd_expire(int argc, char **argv);
int cli_cmd_sql(int argc, char **argv);
int cli_cmd_cdc(int argc, char **argv);

/* The tags of `t` as `tag list` and `inspect TABLE tags` print them (cmd_tag.c). */
int cli_print_tags(paimon_table *t, bool jsonl, paimon_error *err);

/* cmd_consumer.c: the consumers of `t` as `consumer list` and `inspect TABLE consumers` print
 * them (an aligned table, or JSON lines).  0 or the library's error code. */
int cli_consumers_print(paimon_table *t, bool jsonl, paimon_error *err);

/* option_values.c: the values of a repeatable `--option key=value`, split (a value without
 * '=' or with an empty key is a usage error, printed).  Release with
 * cli_option_values_free(). */
typedef struct cli_option_values {
    const char *keys[CLI_MAX_VALUES];
    const char *values[CLI_MAX_VALUES];
    char *copies[CLI_MAX_VALUES];
    size_t count;
} cli_option_values;
int cli_option_values_parse(const char *cmd, const cli_args *a, cli_option_values *out);
void cli_option_values_free(cli_option_values *v);

/* option_values.c: a duration as Java's options write it (5s, 200ms, 1 min, 2 d; no unit:
 * milliseconds), in milliseconds; -1 when it does not parse.  --idle-exit and the like. */
int64_t cli_duration_ms(const char *text);

#endif
