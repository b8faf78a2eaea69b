/* The subcommands of `paimon`: one file each (cmd_<name>.c), registered in main.c. */
#ifndef PM_CLI_COMMANDS_H
#define PM_CLI_COMMANDS_H

int cmd_file(int argc, char **argv); /* cmd_file.c */

#endif
