/* The subcommands of `paimon`: one file each (cmd_<name>.c), registered in main.c. */
#ifndef PM_CLI_COMMANDS_H
#define PM_CLI_COMMANDS_H

int cli_cmd_create(int argc, char **argv);
int cli_cmd_alter(int argc, char **argv);
int cli_cmd_inspect(int argc, char **argv);
int cli_cmd_cat(int argc, char **argv);
int cli_cmd_demo(int argc, char **argv);
int cli_cmd_file(int argc, char **argv);
int cli_cmd_write(int argc, char **argv);
int cli_cmd_tail(int argc, char **argv);
int cli_cmd_compact(int argc, char **argv);
int cli_cmd_expire(int argc, char **argv);

#endif
