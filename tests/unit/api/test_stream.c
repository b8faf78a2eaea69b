/* The public streaming API (include/paimon/stream.h) on a table written through the writer
 * API with changelog-producer=input: the full read of the start and each snapshot's changes
 * with their kinds, an Arrow stream of a snapshot, waiting (PAIMON_STREAM_IDLE within the
 * timeout, a commit made meanwhile picked up), the position and a resume from it, consumer
 * checkpoints, $audit_log, and the misuse checks. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testlib.h"

#include "paimon.h"
#include "util/alloc.h"

/* Commits JSON lines to the table at `path` through a second handle. */
static void commit_jsonl(const char *path, const char *lines)
{
    paimon_table *t;
    paimon_writer *w;
    paimon_input *in;
    paimon_commit_messages *m;
    paimon_error err;
    FILE *f = fmemopen((void *)lines, strlen(lines), "r");
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_writer_open(&w, t, NULL, &err), 0);
    assert_int_equal(paimon_input_open(&in, w, f, "jsonl", &err), 0);
    assert_int_equal(paimon_input_write(in, w, 0, NULL, &err), PAIMON_ITEROVER);
    assert_int_equal(paimon_commit_messages_new(&m, &err), 0);
    assert_int_equal(paimon_writer_prepare_commit(w, m, &err), 0);
    assert_int_equal(paimon_table_commit(t, m, NULL, NULL, &err), 0);
    paimon_commit_messages_free(m);
    paimon_input_free(in);
    paimon_writer_free(w);
    paimon_table_free(t);
    fclose(f);
}

/* Commits one row (id, v). */
static void commit_row(const char *path, int64_t id, const char *v)
{
    char line[64];
    snprintf(line, sizeof(line), "{\"id\":%lld,\"v\":\"%s\"}\n", (long long)id, v);
    commit_jsonl(path, line);
}

/* The rows of the current snapshot as JSON lines. */
static void read_json(paimon_stream *st, char *out, size_t cap)
{
    paimon_cursor *cur;
    paimon_error err;
    const char *row;
    size_t len;
    int rc;
    out[0] = '\0';
    assert_int_equal(paimon_stream_cursor(&cur, st, &err), 0);
    while ((rc = paimon_cursor_next(cur, &err)) == 0) {
        size_t used = strlen(out);
        assert_int_equal(paimon_cursor_row_json(cur, &row, &len, &err), 0);
        snprintf(out + used, cap - used, "%.*s\n", (int)len, row);
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    paimon_cursor_free(cur);
}

/* The rows of the current snapshot as "KIND:id:v;" text. */
static void read_rows(paimon_stream *st, char *out, size_t cap)
{
    paimon_cursor *cur;
    paimon_error err;
    int rc;
    out[0] = '\0';
    assert_int_equal(paimon_stream_cursor(&cur, st, &err), 0);
    while ((rc = paimon_cursor_next(cur, &err)) == 0) {
        for (size_t c = 0; c < 3; c++) {
            const char *text; /* borrowed until the next call: copied at once */
            size_t used = strlen(out);
            assert_int_equal(paimon_cursor_value_text(cur, c, &text, NULL, &err), 0);
            snprintf(out + used, cap - used, "%s%s", text, c < 2 ? ":" : ";");
        }
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    paimon_cursor_free(cur);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_follow(void **state)
{
    char *path = pm_test_changes_table("stream-api"), rows[512];
    paimon_table *t;
    paimon_stream *st;
    paimon_stream_snapshot info;
    paimon_stream_options o = PAIMON_STREAM_OPTIONS_INIT;
    paimon_cursor *cur;
    paimon_error err;
    int64_t t0, position;
    (void)state;
    assert_int_equal(paimon_table_open(&t, path, &err), 0);
    assert_int_equal(paimon_stream_open(&st, t, NULL, &err), 0);
    assert_int_equal(paimon_stream_position(st), 0); /* not started */
    assert_int_equal(paimon_stream_column_count(st), 3);
    assert_string_equal(paimon_stream_column_name(st, 0), "_ROW_KIND");
    assert_string_equal(paimon_stream_column_type(st, 0), "STRING NOT NULL");
    assert_int_equal(paimon_stream_cursor(&cur, st, &err), PAIMON_EINVALID);
    /* latest-full: snapshot 2 merged, each row with its stored kind (key 1's last record is
     * +U), the retraction of key 2 dropped (Java's first plan without forceKeepDelete) */
    assert_int_equal(paimon_stream_next(st, 0, &info, &err), 0);
    assert_int_equal(info.id, 2);
    assert_int_equal(info.full, 1);
    assert_string_equal(info.commit_kind, "APPEND");
    read_rows(st, rows, sizeof(rows));
    assert_string_equal(rows, "+U:1:c;");
    assert_int_equal(paimon_stream_cursor(&cur, st, &err), PAIMON_EINVALID); /* a second */
    assert_int_equal(paimon_stream_position(st), 3);
    /* nothing new: IDLE after the timeout, not before */
    t0 = now_ms();
    assert_int_equal(paimon_stream_next(st, 150, &info, &err), PAIMON_STREAM_IDLE);
    assert_true(now_ms() - t0 >= 140);
    assert_int_equal(paimon_stream_checkpoint(st, &err), PAIMON_EINVALID); /* no consumer */
    /* a commit: its changes, as an Arrow stream */
    commit_row(path, 3, "d");
    assert_int_equal(paimon_stream_next(st, 5000, &info, &err), 0);
    assert_int_equal(info.id, 3);
    assert_int_equal(info.full, 0);
    {
        struct ArrowArrayStream as;
        struct ArrowArray batch;
        int64_t n = 0;
        assert_int_equal(paimon_stream_cursor(&cur, st, &err), 0);
        assert_int_equal(paimon_cursor_arrow_stream(cur, &as, &err), 0);
        paimon_cursor_free(cur);
        while (as.get_next(&as, &batch) == 0 && batch.release != NULL) {
            n += batch.length;
            assert_int_equal(batch.n_children, 3);
            batch.release(&batch);
        }
        as.release(&as);
        assert_int_equal(n, 1);
    }
    position = paimon_stream_position(st);
    assert_int_equal(position, 4);
    paimon_stream_free(st);

    /* resume from the stored position: only what came after */
    commit_row(path, 4, "e");
    o.position = position;
    assert_int_equal(paimon_stream_open(&st, t, &o, &err), 0);
    assert_int_equal(paimon_stream_next(st, 0, &info, &err), 0);
    assert_int_equal(info.id, 4);
    read_rows(st, rows, sizeof(rows));
    assert_string_equal(rows, "+I:4:e;");
    assert_int_equal(paimon_stream_next(st, 0, &info, &err), PAIMON_STREAM_IDLE);
    paimon_stream_free(st);

    /* a range start, a last snapshot, a consumer */
    o = (paimon_stream_options)PAIMON_STREAM_OPTIONS_INIT;
    o.from = PAIMON_CHANGES_FROM_EARLIEST;
    o.to_snapshot = 2;
    o.consumer_id = "c1";
    assert_int_equal(paimon_stream_open(&st, t, &o, &err), 0);
    assert_int_equal(paimon_stream_next(st, 0, &info, &err), 0);
    read_rows(st, rows, sizeof(rows));
    assert_string_equal(rows, "+I:1:a;+I:2:b;");
    assert_int_equal(paimon_stream_checkpoint(st, &err), 0);
    assert_int_equal(paimon_stream_next(st, 0, &info, &err), 0);
    read_rows(st, rows, sizeof(rows));
    assert_string_equal(rows, "-U:1:a;+U:1:c;-D:2:b;");
    assert_int_equal(paimon_stream_next(st, -1, &info, &err), PAIMON_ITEROVER);
    paimon_stream_free(st);
    {
        /* the consumer file holds the checkpoint after snapshot 1, and a reopen resumes */
        char file[4096];
        size_t len;
        uint8_t *data;
        snprintf(file, sizeof(file), "%s/consumer/consumer-c1", path);
        data = pm_test_read_file(file, &len);
        assert_non_null(strstr((const char *)data, "\"nextSnapshot\" : 2"));
        pm_free(data);
    }
    o = (paimon_stream_options)PAIMON_STREAM_OPTIONS_INIT;
    o.consumer_id = "c1";
    o.system_table = "AUDIT_LOG";
    assert_int_equal(paimon_stream_open(&st, t, &o, &err), 0);
    assert_string_equal(paimon_stream_column_name(st, 0), "rowkind");
    assert_int_equal(paimon_stream_next(st, 0, &info, &err), 0);
    assert_int_equal(info.id, 2);
    assert_int_equal(paimon_stream_cursor(&cur, st, &err), 0);
    assert_int_equal(paimon_cursor_next(cur, &err), 0);
    assert_int_equal(paimon_cursor_row_kind(cur), PAIMON_ROW_INSERT); /* a value here */
    paimon_cursor_free(cur);
    paimon_stream_free(st);
    /* $audit_log's full phase (snapshot 4) keeps retractions (AuditLogRead forceKeepDelete) */
    o = (paimon_stream_options)PAIMON_STREAM_OPTIONS_INIT;
    o.system_table = "audit_log";
    assert_int_equal(paimon_stream_open(&st, t, &o, &err), 0);
    assert_int_equal(paimon_stream_next(st, 0, &info, &err), 0);
    assert_int_equal(info.full, 1);
    read_rows(st, rows, sizeof(rows));
    assert_string_equal(rows, "+U:1:c;-D:2:b;+I:3:d;+I:4:e;");
    paimon_stream_free(st);

    /* $binlog: -U/+U packed into one +U row, also when a batch ends between them */
    for (int64_t batch_rows = 0; batch_rows <= 1; batch_rows++) {
        char json[1024] = "";
        o = (paimon_stream_options)PAIMON_STREAM_OPTIONS_INIT;
        o.system_table = "binlog";
        o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
        o.from_value = 2;
        o.to_snapshot = 2;
        o.batch_rows = batch_rows;
        assert_int_equal(paimon_stream_open(&st, t, &o, &err), 0);
        assert_string_equal(paimon_stream_column_type(st, 1), "ARRAY<BIGINT>");
        assert_int_equal(paimon_stream_next(st, 0, &info, &err), 0);
        assert_int_equal(paimon_stream_cursor(&cur, st, &err), 0);
        while (paimon_cursor_next(cur, &err) == 0) {
            const char *row;
            size_t len;
            assert_int_equal(paimon_cursor_row_json(cur, &row, &len, &err), 0);
            strncat(json, row, sizeof(json) - strlen(json) - 2);
            strncat(json, "\n", sizeof(json) - strlen(json) - 1);
        }
        paimon_cursor_free(cur);
        assert_string_equal(json, "{\"rowkind\":\"+U\",\"id\":[1,1],\"v\":[\"a\",\"c\"]}\n"
                                  "{\"rowkind\":\"-D\",\"id\":[2],\"v\":[\"b\"]}\n");
        paimon_stream_free(st);
    }

    /* misuse */
    o = (paimon_stream_options)PAIMON_STREAM_OPTIONS_INIT;
    o.version = 99;
    assert_int_equal(paimon_stream_open(&st, t, &o, &err), PAIMON_EINVALID);
    o = (paimon_stream_options)PAIMON_STREAM_OPTIONS_INIT;
    o.system_table = "snapshots";
    assert_int_equal(paimon_stream_open(&st, t, &o, &err), PAIMON_EUNSUPPORTED);
    o.system_table = NULL;
    o.consumer_id = "../x";
    assert_int_equal(paimon_stream_open(&st, t, &o, &err), PAIMON_EINVALID);
    o.consumer_id = NULL;
    {
        const char *keys[] = {"scan.mode", "incremental-between"};
        const char *vals[] = {"incremental", "1,2"};
        o.option_keys = keys;
        o.option_values = vals;
        o.option_count = 2;
        assert_int_equal(paimon_stream_open(&st, t, &o, &err), PAIMON_EINVALID);
        assert_non_null(strstr(err.message, "Cannot read incremental in streaming mode."));
        /* the options are validated together, as Java's table.copy does: a start option
         * the mode does not take is refused */
        keys[1] = "scan.snapshot-id";
        vals[0] = "latest";
        vals[1] = "2";
        assert_int_equal(paimon_stream_open(&st, t, &o, &err), PAIMON_EINVALID);
        assert_non_null(
            strstr(err.message, "scan.snapshot-id must be null when you use latest for scan.mode"));
    }
    o = (paimon_stream_options)PAIMON_STREAM_OPTIONS_INIT;
    {
        const char *cols[] = {"nope"};
        o.columns = cols;
        o.column_count = 1;
        assert_int_equal(paimon_stream_open(&st, t, &o, &err), PAIMON_ENOTFOUND);
    }
    assert_int_equal(paimon_stream_next(NULL, 0, NULL, &err), PAIMON_EINVALID);
    {
        paimon_stream_options v1;
        assert_int_equal(paimon_stream_options_init(&v1, 1), 0);
        assert_int_equal(v1.from, PAIMON_STREAM_FROM_SCAN_MODE);
        assert_int_equal(paimon_stream_options_init(&v1, PAIMON_STREAM_OPTIONS_VERSION + 1),
                         PAIMON_EINVALID);
    }
    paimon_table_free(t);
    pm_test_rmtree(path);
    pm_free(path);
}

/* table-read.sequence-number.enabled: $audit_log and $binlog streams carry each row's
 * _SEQUENCE_NUMBER after rowkind in the full phase and in the follow-up (AuditLogTable adds
 * it to every read); a packed binlog +U carries its -U's. */
static void test_sequence_number(void **state)
{
    char *path = pm_test_table_path("stream-seq"), rows[1024];
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    const char *pks[1] = {"id"},
               *keys[3] = {"bucket", "changelog-producer", "table-read.sequence-number.enabled"},
               *vals[3] = {"1", "input", "true"};
    paimon_table *t;
    paimon_stream *st;
    paimon_stream_snapshot info;
    paimon_stream_options o = PAIMON_STREAM_OPTIONS_INIT;
    paimon_error err;
    (void)state;
    co.columns = "id BIGINT, v STRING";
    co.primary_keys = pks;
    co.primary_key_count = 1;
    co.option_keys = keys;
    co.option_values = vals;
    co.option_count = 3;
    assert_int_equal(paimon_table_create(path, &co, &err), 0);
    commit_row(path, 1, "a"); /* sequence 0 */
    commit_row(path, 2, "b"); /* 1 */
    commit_row(path, 1, "c"); /* 2 */
    assert_int_equal(paimon_table_open(&t, path, &err), 0);

    o.system_table = "audit_log";
    assert_int_equal(paimon_stream_open(&st, t, &o, &err), 0);
    assert_int_equal(paimon_stream_column_count(st), 4);
    assert_string_equal(paimon_stream_column_name(st, 1), "_SEQUENCE_NUMBER");
    assert_string_equal(paimon_stream_column_type(st, 1), "BIGINT NOT NULL");
    assert_int_equal(paimon_stream_next(st, 0, &info, &err), 0); /* full: snapshot 3 merged */
    assert_int_equal(info.full, 1);
    read_json(st, rows, sizeof(rows));
    assert_string_equal(rows, "{\"rowkind\":\"+I\",\"_SEQUENCE_NUMBER\":2,\"id\":1,\"v\":\"c\"}\n"
                              "{\"rowkind\":\"+I\",\"_SEQUENCE_NUMBER\":1,\"id\":2,\"v\":\"b\"}\n");
    commit_jsonl(path, "{\"_ROW_KIND\":\"-U\",\"id\":2,\"v\":\"b\"}\n"
                       "{\"_ROW_KIND\":\"+U\",\"id\":2,\"v\":\"d\"}\n"); /* 3, 4 */
    assert_int_equal(paimon_stream_next(st, 5000, &info, &err), 0);      /* the follow-up */
    assert_int_equal(info.full, 0);
    read_json(st, rows, sizeof(rows));
    assert_string_equal(rows, "{\"rowkind\":\"-U\",\"_SEQUENCE_NUMBER\":3,\"id\":2,\"v\":\"b\"}\n"
                              "{\"rowkind\":\"+U\",\"_SEQUENCE_NUMBER\":4,\"id\":2,\"v\":\"d\"}\n");
    paimon_stream_free(st);

    /* $binlog with a column selection: the sequence number stays a value */
    o = (paimon_stream_options)PAIMON_STREAM_OPTIONS_INIT;
    o.system_table = "binlog";
    o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
    o.from_value = 4;
    o.to_snapshot = 4;
    {
        const char *cols[] = {"v"};
        o.columns = cols;
        o.column_count = 1;
        assert_int_equal(paimon_stream_open(&st, t, &o, &err), 0);
    }
    assert_string_equal(paimon_stream_column_type(st, 1), "BIGINT NOT NULL");
    assert_string_equal(paimon_stream_column_type(st, 2), "ARRAY<STRING>");
    assert_int_equal(paimon_stream_next(st, 0, &info, &err), 0);
    read_json(st, rows, sizeof(rows));
    assert_string_equal(rows, "{\"rowkind\":\"+U\",\"_SEQUENCE_NUMBER\":3,\"v\":[\"b\",\"d\"]}\n");
    assert_int_equal(paimon_stream_next(st, 0, &info, &err), PAIMON_ITEROVER);
    paimon_stream_free(st);

    /* Java refuses it as a dynamic option */
    o = (paimon_stream_options)PAIMON_STREAM_OPTIONS_INIT;
    o.system_table = "audit_log";
    o.option_keys = keys + 2;
    o.option_values = vals + 2;
    o.option_count = 1;
    assert_int_equal(paimon_stream_open(&st, t, &o, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "is not supported by hint."));
    paimon_table_free(t);
    pm_test_rmtree(path);
    pm_free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_follow),
                                       cmocka_unit_test(test_sequence_number)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
