/*
 * paimon demo [DIR]: a guided tour on a local warehouse (default ./warehouse).  It creates
 * a primary-key table of orders, writes three commits of inserts, updates and deletes
 * through the writer API (include/paimon/write.h), and shows the result with paimon cat and
 * paimon inspect; when the Java-written fixture tables are beside the project, it also
 * inspects one of them, to show that paimon-c reads what Java Paimon writes.
 */
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "paimon.h"
#include "paimon/write.h"

/* One order of the demo: the row kind and the columns of the orders table. */
typedef struct demo_order {
    int8_t kind;
    int64_t order_id;
    const char *dt, *customer, *amount, *status, *updated_at;
} demo_order;

static const char *const KIND_NAMES[] = {"+I", "-U", "+U", "-D"};

static paimon_value text(const char *s)
{
    paimon_value v;
    memset(&v, 0, sizeof(v));
    v.type = PAIMON_VALUE_TEXT;
    v.v.s.ptr = s;
    v.v.s.len = strlen(s);
    return v;
}

/* Writes one batch of orders and commits it as snapshot `identifier`. */
static int write_batch(const char *table_path, const char *title, const demo_order *orders,
                       size_t count, int64_t identifier)
{
    paimon_table *table = NULL;
    paimon_writer *writer = NULL;
    paimon_commit_messages *messages = NULL;
    paimon_writer_options wo = PAIMON_WRITER_OPTIONS_INIT;
    paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
    paimon_error err;
    int64_t snapshot = 0;
    int rc;

    printf("\n%s\n", title);
    for (size_t i = 0; i < count; i++)
        printf("  %s order_id=%lld dt=%s customer=%s amount=%s status=%s updated_at=%s\n",
               KIND_NAMES[orders[i].kind], (long long)orders[i].order_id, orders[i].dt,
               orders[i].customer, orders[i].amount, orders[i].status, orders[i].updated_at);
    wo.commit_user = "demo";
    co.commit_user = "demo";
    co.identifier = identifier;
    if ((rc = paimon_table_open(&table, table_path, &err)) != 0 ||
        (rc = paimon_writer_open(&writer, table, &wo, &err)) != 0)
        goto done;
    for (size_t i = 0; i < count; i++) {
        paimon_value v[6];
        memset(&v[0], 0, sizeof(v[0]));
        v[0].type = PAIMON_VALUE_INT;
        v[0].v.i = orders[i].order_id;
        v[1] = text(orders[i].dt);
        v[2] = text(orders[i].customer);
        v[3] = text(orders[i].amount);
        v[4] = text(orders[i].status);
        v[5] = text(orders[i].updated_at);
        if ((rc = paimon_writer_write_row(writer, v, 6, orders[i].kind, &err)) != 0)
            goto done;
    }
    if ((rc = paimon_commit_messages_new(&messages, &err)) != 0 ||
        (rc = paimon_writer_prepare_commit(writer, messages, &err)) != 0 ||
        (rc = paimon_table_commit(table, messages, &co, &snapshot, &err)) != 0)
        goto done;
    printf("  -> committed snapshot %lld (%zu new data files)\n", (long long)snapshot,
           paimon_commit_messages_count(messages));
done:
    if (rc != 0)
        fprintf(stderr, "paimon: demo: %s\n", err.message);
    paimon_commit_messages_free(messages);
    paimon_writer_free(writer);
    paimon_table_free(table);
    fflush(stdout);
    return rc;
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
    run(self, (const char *const[]){"inspect", table, "options", NULL});

    printf("\nWrite three commits of orders: inserts, then updates (+U) and deletes (-D) of\n"
           "the same keys.  Each commit is a snapshot; changelog-producer=input also keeps\n"
           "the rows as changelog files.");
    if (write_batch(table, "Commit 1: six new orders", BATCH1, 6, 1) != 0 ||
        write_batch(table, "Commit 2: two orders ship, one is inserted, one deleted", BATCH2, 4,
                    2) != 0 ||
        write_batch(table, "Commit 3: one delivered, one shipped, one deleted, one new", BATCH3, 4,
                    3) != 0)
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
