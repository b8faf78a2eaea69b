/*
 * paimon demo [DIR]: a guided tour on a local warehouse (default ./warehouse).  It creates
 * a primary-key table of orders and inspects it; when the Java-written fixture tables are
 * beside the project, it also inspects one of them, to show that paimon-c reads what Java
 * Paimon writes.  The demo grows as the tool does.
 */
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Runs `paimon ARGS...` as this same program, echoing the command first. */
static int run(const char *self, const char *const *args)
{
    char cmd[8192];
    size_t n = (size_t)snprintf(cmd, sizeof(cmd), "'%s'", self);
    printf("\n$ paimon");
    for (size_t i = 0; args[i] != NULL; i++) {
        bool quote = strpbrk(args[i], " ,()<>'$*") != NULL;
        printf(quote ? " '%s'" : " %s", args[i]);
        n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " '%s'", args[i]);
    }
    printf("\n");
    fflush(stdout);
    return system(cmd);
}

int cli_cmd_demo(int argc, char **argv)
{
    const char *dir = argc > 0 ? argv[0] : "warehouse";
    char self[4096], table[4200], db[4120], schema_dir[4300];
    const char *fixtures = getenv("PAIMON_FIXTURES");
    struct stat st;
    ssize_t n;

    if (argc > 1 || (argc == 1 && argv[0][0] == '-')) {
        if (argc == 1 && strcmp(argv[0], "--help") == 0) {
            printf("usage: paimon demo [DIR]   (default DIR: ./warehouse)\n");
            return CLI_EXIT_OK;
        }
        return cli_usage_error("demo", "usage: paimon demo [DIR]");
    }
    n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) {
        fprintf(stderr, "paimon: demo: cannot find the paimon executable\n");
        return CLI_EXIT_FAILED;
    }
    self[n] = '\0';
    snprintf(db, sizeof(db), "%s/demo.db", dir);
    snprintf(table, sizeof(table), "%s/orders", db);
    snprintf(schema_dir, sizeof(schema_dir), "%s/schema", table);
    /* Start over only if the demo's own table is there (never delete anything else). */
    if (stat(schema_dir, &st) == 0)
        nftw(table, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (mkdir(dir, 0755) != 0 && stat(dir, &st) != 0) {
        fprintf(stderr, "paimon: demo: cannot create %s\n", dir);
        return CLI_EXIT_FAILED;
    }

    printf("paimon-c %s demo: a Paimon warehouse in %s\n", paimon_version(), dir);
    printf("\nCreate a primary-key table of orders, partitioned by day, in 4 buckets:");
    if (run(self,
            (const char *const[]){"create", table, "--schema",
                                  "order_id BIGINT, dt DATE, customer STRING, "
                                  "amount DECIMAL(18, 2), status STRING, "
                                  "updated_at TIMESTAMP(3)",
                                  "--primary-key", "dt,order_id", "--partition-by", "dt",
                                  "--option", "bucket=4", "--option", "changelog-producer=input",
                                  "--comment", "orders of the demo shop", NULL}) != 0)
        return CLI_EXIT_FAILED;
    printf("\nThe schema file, as Java Paimon writes it:\n");
    fflush(stdout);
    {
        char path[4300];
        FILE *f;
        snprintf(path, sizeof(path), "%s/schema/schema-0", table);
        f = fopen(path, "r");
        if (f != NULL) {
            int c;
            while ((c = fgetc(f)) != EOF)
                putchar(c);
            putchar('\n');
            fclose(f);
        }
    }
    run(self, (const char *const[]){"inspect", table, NULL});
    run(self, (const char *const[]){"inspect", table, "schemas", NULL});
    run(self, (const char *const[]){"inspect", table, "options", NULL});

    if (fixtures == NULL || stat(fixtures, &st) != 0)
        fixtures = "../shared/fixtures";
    if (stat(fixtures, &st) == 0) {
        char java[4300];
        snprintf(java, sizeof(java), "%s/cpp-parquet-pk-dv", fixtures);
        if (stat(java, &st) == 0) {
            char snapshots[4320], files[4320];
            snprintf(snapshots, sizeof(snapshots), "%s$snapshots", java);
            snprintf(files, sizeof(files), "%s$files", java);
            printf("\nA table written by Java Paimon (deletion vectors, 2 buckets, 6 commits):");
            run(self, (const char *const[]){"inspect", java, "snapshots", NULL});
            printf("\nIts rows, merged and with deletion vectors applied, as Java reads them:");
            run(self, (const char *const[]){"cat", java, "--format", "table", NULL});
            printf("\nTime travel to snapshot 3, with a filter:");
            run(self, (const char *const[]){"cat", java, "--snapshot", "3", "--where",
                                            "f3 > 12 AND f1 = 10", "--format", "table", NULL});
            printf("\nSystem tables, as in Flink and Spark SQL:");
            run(self, (const char *const[]){"cat", snapshots, "--select",
                                            "snapshot_id,commit_kind,total_record_count",
                                            "--format", "table", NULL});
            run(self, (const char *const[]){"cat", files, "--select",
                                            "partition,bucket,level,record_count,file_path",
                                            "--format", "table", NULL});
        }
    }
    printf("\nWriting rows comes with the next release of paimon-c.\n");
    return CLI_EXIT_OK;
}
