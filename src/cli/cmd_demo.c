/*
 * paimon demo [DIR]: a guided tour on a local warehouse (default ./warehouse).  It creates
 * a primary-key table of orders, writes three commits of inserts, updates and deletes
 * with `paimon write` (JSONL files in DIR), and shows the result with paimon cat and
 * paimon inspect; when the Java-written fixture tables are beside the project, it also
 * inspects one of them, to show that paimon-c reads what Java Paimon writes.
 */
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "paimon.h"
#include "paimon/write.h" /* PAIMON_ROW_* */

/* One order of the demo: the row kind and the columns of the orders table. */
typedef struct demo_order {
    int8_t kind;
    int64_t order_id;
    const char *dt, *customer, *amount, *status, *updated_at;
} demo_order;

/* Writes one batch of orders as a JSONL file beside the table and commits it with
 * `paimon write`. */
static int run(const char *self, const char *const *args);

static int write_batch(const char *self, const char *dir, const char *table, const char *title,
                       const demo_order *orders, size_t count, int n)
{
    static const char *const KINDS[] = {"+I", "-U", "+U", "-D"};
    char path[4300];
    FILE *f;
    snprintf(path, sizeof(path), "%s/orders-%d.jsonl", dir, n);
    if ((f = fopen(path, "w")) == NULL) {
        cli_error("demo: cannot create %s", path);
        return -1;
    }
    printf("\n%s (%s):\n", title, path);
    for (size_t i = 0; i < count; i++) {
        char line[512];
        snprintf(line, sizeof(line),
                 "{\"order_id\":%lld,\"dt\":\"%s\",\"customer\":\"%s\",\"amount\":\"%s\","
                 "\"status\":\"%s\",\"updated_at\":\"%s\"%s%s%s}",
                 (long long)orders[i].order_id, orders[i].dt, orders[i].customer, orders[i].amount,
                 orders[i].status, orders[i].updated_at,
                 orders[i].kind != PAIMON_ROW_INSERT ? ",\"_ROW_KIND\":\"" : "",
                 orders[i].kind != PAIMON_ROW_INSERT ? KINDS[orders[i].kind] : "",
                 orders[i].kind != PAIMON_ROW_INSERT ? "\"" : "");
        fprintf(f, "%s\n", line);
        printf("  %s\n", line);
    }
    fclose(f);
    return run(self, (const char *const[]){"write", table, "--input", path, NULL});
}

static const demo_order BATCH1[] = {
    {PAIMON_ROW_INSERT, 1001, "2026-04-18", "ada", "25.50", "new", "2026-04-18 09:12:00"},
    {PAIMON_ROW_INSERT, 1002, "2026-04-18", "grace", "113.00", "new", "2026-04-18 10:40:00"},
    {PAIMON_ROW_INSERT, 1003, "2026-04-18", "alan", "7.25", "new", "2026-04-18 11:02:00"},
    {PAIMON_ROW_INSERT, 1004, "2026-04-19", "edsger", "64.90", "new", "2026-04-19 08:01:00"},
    {PAIMON_ROW_INSERT, 1005, "2026-04-19", "barbara", "19.99", "new", "2026-04-19 08:30:00"},
    {PAIMON_ROW_INSERT, 1006, "2026-04-19", "ken", "250.00", "new", "2026-04-19 09:15:00"},
};
static const demo_order BATCH2[] = {
    {PAIMON_ROW_UPDATE_AFTER, 1001, "2026-04-18", "ada", "25.50", "shipped", "2026-04-19 07:00:00"},
    {PAIMON_ROW_UPDATE_AFTER, 1002, "2026-04-18", "grace", "98.00", "shipped",
     "2026-04-19 07:05:00"},
    {PAIMON_ROW_INSERT, 1007, "2026-04-19", "dennis", "42.00", "new", "2026-04-19 12:00:00"},
    {PAIMON_ROW_DELETE, 1003, "2026-04-18", "alan", "7.25", "new", "2026-04-19 07:10:00"},
};
static const demo_order BATCH3[] = {
    {PAIMON_ROW_UPDATE_AFTER, 1001, "2026-04-18", "ada", "25.50", "delivered",
     "2026-04-20 16:20:00"},
    {PAIMON_ROW_UPDATE_AFTER, 1004, "2026-04-19", "edsger", "64.90", "shipped",
     "2026-04-20 09:00:00"},
    {PAIMON_ROW_DELETE, 1006, "2026-04-19", "ken", "250.00", "new", "2026-04-20 09:30:00"},
    {PAIMON_ROW_INSERT, 1008, "2026-04-20", "margaret", "310.00", "new", "2026-04-20 10:00:00"},
};

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
        printf(quote ? (strchr(args[i], '\'') != NULL ? " \"%s\"" : " '%s'") : " %s", args[i]);
        /* single-quoted for the shell, an embedded quote as '\'' */
        n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " '");
        for (const char *p = args[i]; *p != '\0' && n + 8 < sizeof(cmd); p++)
            n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, *p == '\'' ? "'\\''" : "%c", *p);
        n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, "'");
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
        cli_error("demo: cannot create %s", dir);
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
    run(self, (const char *const[]){"inspect", table, "options", NULL});

    printf("\nWrite three commits of orders with paimon write: inserts, then updates (+U) and\n"
           "deletes (-D) of the same keys, as JSONL rows with a _ROW_KIND.  Each commit is a\n"
           "snapshot; changelog-producer=input also keeps the rows as changelog files.\n");
    if (write_batch(self, dir, table, "Commit 1: six new orders", BATCH1, 6, 1) != 0 ||
        write_batch(self, dir, table, "Commit 2: two orders ship, one is inserted, one deleted",
                    BATCH2, 4, 2) != 0 ||
        write_batch(self, dir, table, "Commit 3: one delivered, one shipped, one deleted, one new",
                    BATCH3, 4, 3) != 0)
        return CLI_EXIT_FAILED;

    printf("\nThe table now (the merge engine keeps the latest row of each key):");
    run(self, (const char *const[]){"cat", table, "--format", "table", NULL});
    printf("\nAs it was after the first commit (time travel):");
    run(self, (const char *const[]){"cat", table, "--snapshot", "1", "--format", "table", NULL});
    printf("\nOnly shipped orders (filters skip files by their statistics):");
    run(self, (const char *const[]){"cat", table, "--where", "status = 'shipped'", "--format",
                                    "table", NULL});
    run(self, (const char *const[]){"inspect", table, NULL});
    run(self, (const char *const[]){"inspect", table, "snapshots", NULL});
    run(self, (const char *const[]){"inspect", table, "files", NULL});

    printf("\nThe changes of each commit, as a streaming reader sees them (the changelog\n"
           "files changelog-producer=input wrote):");
    run(self,
        (const char *const[]){"tail", table, "--from", "earliest", "--format", "table", NULL});
    printf("\nCompact every bucket fully: the level-0 files merge into one file per bucket at\n"
           "the highest level (a COMPACT snapshot); the rows stay the same:");
    run(self, (const char *const[]){"compact", table, "--full", NULL});
    run(self, (const char *const[]){"inspect", table, "files", NULL});
    run(self, (const char *const[]){"cat", table, "--format", "table", NULL});

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
    printf("\nThe demo table is in %s; read it again with: paimon cat %s\n", table, table);
    return CLI_EXIT_OK;
}
