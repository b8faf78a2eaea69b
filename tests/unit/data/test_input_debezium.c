/*
 * Debezium JSON input (data/input.h): change events with and without the schema/payload
 * envelope, every op, tombstones, the merge of a partial `before` with `after`, updates
 * split across batches, and every encoding Debezium's JSON converter uses for types Paimon
 * has, with values worked out by hand:
 *
 *   Decimal "AeI=" = 0x01E2 = 482, scale 2          -> 4.82
 *   Decimal "/s4=" = 0xFECE = -306                  -> -3.06 (scale 2), -306 (scale 0)
 *   VariableScaleDecimal {scale 3, "MDk="} = 12345  -> 12.345
 *   Date 19000                                      -> 2022-01-08
 *   MicroTimestamp 1718000000123456                 -> 2024-06-10 06:13:20.123456
 *   Timestamp 1718000000123                         -> 2024-06-10 06:13:20.123
 *   NanoTimestamp 1718000000123456789               -> 2024-06-10 06:13:20.123456789
 *   ZonedTimestamp 2024-06-10T08:13:20.5+02:00      -> 2024-06-10 06:13:20.500 (UTC)
 *   MicroTime 3723004005                            -> 01:02:03.004005
 *   NanoTime 3723004005006                          -> 01:02:03.004005006
 *   Time 3723004                                    -> 01:02:03.004
 *   ZonedTime 10:15:30.5-02:00                      -> 12:15:30.500
 *   bytes "AQID"                                    -> 01 02 03
 *   Bits "AYA=" = 01 80, little-endian              -> 80 01 ("gAE=")
 *   bytes "aMOp" read into a STRING                 -> "hé"
 */
#include <string.h>

#include "data/input.h"
#include "testlib.h"
#include "util/alloc.h"

static const char *KINDS[] = {"+I", "-U", "+U", "-D"};

/* Reads `text` and returns the rows as canonical JSONL with "_ROW_KIND" first, or
 * "ERROR: message" (caller frees). */
static char *read_all(const char *cols, const char *text, int64_t batch_rows)
{
    pm_type *row = NULL;
    pm_row_input *in = NULL;
    pm_input_options opts = PM_INPUT_OPTIONS_INIT;
    paimon_error err = {0};
    pm_batch *b;
    const int8_t *k;
    pm_buf out;
    int rc;
    pm_buf_init(&out, 0);
    if (pm_columns_parse(cols, &row, &err) != 0)
        fail_msg("%s", err.message);
    opts.batch_rows = batch_rows;
    assert_int_equal(
        pm_input_open_buffer(&in, PM_INPUT_DEBEZIUM_JSON, text, strlen(text), row, &opts, &err), 0);
    while ((rc = pm_input_next(in, &b, &k, &err)) == 0) {
        assert_true(b->row_count <= batch_rows);
        for (int64_t r = 0; r < b->row_count; r++) {
            size_t at = out.len;
            assert_int_equal(pm_batch_row_json(&out, b, r, &err), 0);
            /* splice "_ROW_KIND":"..", after the brace */
            {
                char head[32];
                size_t hn =
                    (size_t)snprintf(head, sizeof(head), "\"_ROW_KIND\":\"%s\",", KINDS[k[r]]);
                pm_buf_zero(&out, hn);
                memmove(out.data + at + 1 + hn, out.data + at + 1, out.len - at - 1 - hn);
                memcpy(out.data + at + 1, head, hn);
            }
            pm_buf_putc(&out, '\n');
        }
    }
    if (rc != PAIMON_ITEROVER) {
        pm_buf_reset(&out);
        pm_buf_printf(&out, "ERROR: %s", err.message);
    }
    pm_input_free(in);
    pm_type_free(row);
    pm_buf_cstr(&out);
    return (char *)pm_buf_detach(&out, NULL);
}

/* `text` with every `from` replaced by `to` (caller frees). */
static char *replace_all(const char *text, const char *from, const char *to)
{
    pm_buf out;
    const char *p = text, *q;
    pm_buf_init(&out, 0);
    while ((q = strstr(p, from)) != NULL) {
        pm_buf_append(&out, p, (size_t)(q - p));
        pm_buf_puts(&out, to);
        p = q + strlen(from);
    }
    pm_buf_puts(&out, p);
    pm_buf_cstr(&out);
    return (char *)pm_buf_detach(&out, NULL);
}

/* A create event with `schema` and the `after` object (caller frees). */
static char *envelope(const char *schema, const char *after)
{
    pm_buf out;
    pm_buf_init(&out, 0);
    pm_buf_printf(&out, "{\"schema\":%s,\"payload\":{\"op\":\"c\",\"after\":%s}}\n", schema, after);
    pm_buf_cstr(&out);
    return (char *)pm_buf_detach(&out, NULL);
}

static void expect(const char *cols, const char *text, int64_t batch_rows, const char *want)
{
    char *got = read_all(cols, text, batch_rows);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "input:\n%s\nexpected:\n%s\ngot:\n%s\n", text, want, got);
        pm_free(got);
        fail();
    }
    pm_free(got);
}

#define MYSQL_FIELDS                                                                               \
    "[{\"type\":\"int32\",\"optional\":false,\"field\":\"id\"},"                                   \
    "{\"type\":\"string\",\"optional\":true,\"field\":\"name\"},"                                  \
    "{\"type\":\"bytes\",\"optional\":true,\"name\":\"org.apache.kafka.connect.data.Decimal\","    \
    "\"version\":1,\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"},"         \
    "\"field\":\"amount\"},"                                                                       \
    "{\"type\":\"int32\",\"optional\":true,\"name\":\"io.debezium.time.Date\",\"version\":1,"      \
    "\"field\":\"birth\"},"                                                                        \
    "{\"type\":\"int64\",\"optional\":true,\"name\":\"io.debezium.time.MicroTimestamp\","          \
    "\"version\":1,\"field\":\"created\"},"                                                        \
    "{\"type\":\"int64\",\"optional\":true,\"name\":\"io.debezium.time.Timestamp\",\"version\":1," \
    "\"field\":\"updated\"},"                                                                      \
    "{\"type\":\"string\",\"optional\":true,\"name\":\"io.debezium.time.ZonedTimestamp\","         \
    "\"version\":1,\"field\":\"seen\"},"                                                           \
    "{\"type\":\"int64\",\"optional\":true,\"name\":\"io.debezium.time.MicroTime\",\"version\":1," \
    "\"field\":\"at\"},"                                                                           \
    "{\"type\":\"bytes\",\"optional\":true,\"field\":\"raw\"}]"

#define MYSQL_SCHEMA                                                                               \
    "{\"type\":\"struct\",\"fields\":[{\"type\":\"struct\",\"fields\":" MYSQL_FIELDS               \
    ",\"optional\":true,\"name\":\"db.inv.t.Value\",\"field\":\"before\"},"                        \
    "{\"type\":\"struct\",\"fields\":" MYSQL_FIELDS                                                \
    ",\"optional\":true,\"name\":\"db.inv.t.Value\",\"field\":\"after\"},"                         \
    "{\"type\":\"struct\",\"fields\":[{\"type\":\"string\",\"optional\":false,"                    \
    "\"field\":\"connector\"}],\"optional\":false,"                                                \
    "\"name\":\"io.debezium.connector.mysql.Source\",\"field\":\"source\"},"                       \
    "{\"type\":\"string\",\"optional\":false,\"field\":\"op\"},"                                   \
    "{\"type\":\"int64\",\"optional\":true,\"field\":\"ts_ms\"}],\"optional\":false,"              \
    "\"name\":\"db.inv.t.Envelope\"}"

#define ANNA                                                                                       \
    "{\"id\":1,\"name\":\"anna\",\"amount\":\"AeI=\",\"birth\":19000,"                             \
    "\"created\":1718000000123456,\"updated\":1718000000123,"                                      \
    "\"seen\":\"2024-06-10T08:13:20.5+02:00\",\"at\":3723004005,\"raw\":\"AQID\"}"

#define ANNA_ROW                                                                                   \
    "\"id\":1,\"name\":\"anna\",\"amount\":\"4.82\",\"birth\":\"2022-01-08\","                     \
    "\"created\":\"2024-06-10 06:13:20.123456\",\"updated\":\"2024-06-10 06:13:20.123\","          \
    "\"seen\":\"2024-06-10 06:13:20.500\",\"at\":\"01:02:03.004005\",\"raw\":\"base64:AQID\"}"

static const char *MYSQL_COLS =
    "id INT NOT NULL, name STRING, amount DECIMAL(10, 2), birth DATE, created TIMESTAMP(6), "
    "updated TIMESTAMP(3), seen TIMESTAMP(3) WITH LOCAL TIME ZONE, at TIME(6), raw BYTES";

static void test_envelope_ops(void **state)
{
    const char *text =
        /* create */
        "{\"schema\":" MYSQL_SCHEMA ",\"payload\":{\"before\":null,\"after\":" ANNA
        ",\"source\":{\"connector\":\"mysql\"},\"op\":\"c\",\"ts_ms\":1718000000456}}\n"
        /* update with a partial before: -U takes the missing fields from after */
        "{\"schema\":" MYSQL_SCHEMA ",\"payload\":{\"before\":{\"id\":1,\"amount\":\"/s4=\"},"
        "\"after\":" ANNA ",\"source\":{\"connector\":\"mysql\"},\"op\":\"u\"}}\n"
        /* a tombstone with and without the envelope, a blank line */
        "{\"schema\":null,\"payload\":null}\n"
        "null\n"
        "\n"
        /* delete */
        "{\"schema\":" MYSQL_SCHEMA ",\"payload\":{\"before\":" ANNA
        ",\"after\":null,\"op\":\"d\"}}\n";
    (void)state;
    expect(MYSQL_COLS, text, 100,
           "{\"_ROW_KIND\":\"+I\"," ANNA_ROW "\n"
           "{\"_ROW_KIND\":\"-U\",\"id\":1,\"name\":\"anna\",\"amount\":\"-3.06\","
           "\"birth\":\"2022-01-08\",\"created\":\"2024-06-10 06:13:20.123456\","
           "\"updated\":\"2024-06-10 06:13:20.123\",\"seen\":\"2024-06-10 06:13:20.500\","
           "\"at\":\"01:02:03.004005\",\"raw\":\"base64:AQID\"}\n"
           "{\"_ROW_KIND\":\"+U\"," ANNA_ROW "\n"
           "{\"_ROW_KIND\":\"-D\"," ANNA_ROW "\n");
    /* one row per batch: the update's two rows land in two batches, in order */
    expect(MYSQL_COLS, text, 1,
           "{\"_ROW_KIND\":\"+I\"," ANNA_ROW "\n"
           "{\"_ROW_KIND\":\"-U\",\"id\":1,\"name\":\"anna\",\"amount\":\"-3.06\","
           "\"birth\":\"2022-01-08\",\"created\":\"2024-06-10 06:13:20.123456\","
           "\"updated\":\"2024-06-10 06:13:20.123\",\"seen\":\"2024-06-10 06:13:20.500\","
           "\"at\":\"01:02:03.004005\",\"raw\":\"base64:AQID\"}\n"
           "{\"_ROW_KIND\":\"+U\"," ANNA_ROW "\n"
           "{\"_ROW_KIND\":\"-D\"," ANNA_ROW "\n");
}

static void test_without_envelope(void **state)
{
    const char *text =
        "{\"before\":null,\"after\":{\"id\":2,\"name\":\"bob\",\"amount\":\"12.50\","
        "\"birth\":\"2020-02-29\",\"created\":\"2020-02-29 10:00:00.000001\","
        "\"updated\":\"2020-02-29T10:00:00.001\",\"seen\":\"2020-02-29 10:00:00Z\","
        "\"at\":\"10:00:00.5\",\"raw\":\"base64:AAE=\"},\"source\":{\"ts_ms\":1},\"op\":\"r\"}\n"
        /* an update without before (PostgreSQL's default replica identity): only +U */
        "{\"before\":null,\"after\":{\"id\":2,\"amount\":13},\"op\":\"u\"}\n"
        /* the schema of a previous line does not carry over */
        "{\"schema\":null,\"payload\":{\"after\":{\"id\":3},\"op\":\"c\"}}\n";
    (void)state;
    expect(MYSQL_COLS, text, 10,
           "{\"_ROW_KIND\":\"+I\",\"id\":2,\"name\":\"bob\",\"amount\":\"12.50\",\"birth\":"
           "\"2020-02-29\",\"created\":\"2020-02-29 10:00:00.000001\",\"updated\":\"2020-02-29 "
           "10:00:00.001\",\"seen\":\"2020-02-29 10:00:00.000\",\"at\":\"10:00:00.500000\","
           "\"raw\":\"base64:AAE=\"}\n"
           "{\"_ROW_KIND\":\"+U\",\"id\":2,\"name\":null,\"amount\":\"13.00\",\"birth\":null,"
           "\"created\":null,\"updated\":null,\"seen\":null,\"at\":null,\"raw\":null}\n"
           "{\"_ROW_KIND\":\"+I\",\"id\":3,\"name\":null,\"amount\":null,\"birth\":null,"
           "\"created\":null,\"updated\":null,\"seen\":null,\"at\":null,\"raw\":null}\n");
}

#define OTHER_FIELDS                                                                               \
    "[{\"type\":\"struct\",\"name\":\"io.debezium.data.VariableScaleDecimal\",\"fields\":["        \
    "{\"type\":\"int32\",\"field\":\"scale\"},{\"type\":\"bytes\",\"field\":\"value\"}],"          \
    "\"field\":\"v\"},"                                                                            \
    "{\"type\":\"int64\",\"name\":\"io.debezium.time.NanoTimestamp\",\"field\":\"n\"},"            \
    "{\"type\":\"int64\",\"name\":\"io.debezium.time.NanoTime\",\"field\":\"nt\"},"                \
    "{\"type\":\"int32\",\"name\":\"io.debezium.time.Time\",\"field\":\"t\"},"                     \
    "{\"type\":\"int32\",\"name\":\"org.apache.kafka.connect.data.Date\",\"field\":\"cd\"},"       \
    "{\"type\":\"int32\",\"name\":\"org.apache.kafka.connect.data.Time\",\"field\":\"ct\"},"       \
    "{\"type\":\"int64\",\"name\":\"org.apache.kafka.connect.data.Timestamp\",\"field\":\"cts\"}," \
    "{\"type\":\"bytes\",\"name\":\"io.debezium.data.Bits\",\"field\":\"bits\"},"                  \
    "{\"type\":\"array\",\"items\":{\"type\":\"int32\",\"optional\":true,"                         \
    "\"name\":\"io.debezium.time.Date\"},\"field\":\"days\"},"                                     \
    "{\"type\":\"string\",\"name\":\"io.debezium.time.ZonedTime\",\"field\":\"zt\"},"              \
    "{\"type\":\"map\",\"keys\":{\"type\":\"string\"},\"values\":{\"type\":\"int64\","             \
    "\"name\":\"io.debezium.time.MicroTimestamp\"},\"field\":\"m\"},"                              \
    "{\"type\":\"bytes\",\"field\":\"blob\"},"                                                     \
    "{\"type\":\"int32\",\"name\":\"io.debezium.time.Date\",\"field\":\"tsd\"},"                   \
    "{\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\","                      \
    "\"parameters\":{\"scale\":\"0\"},\"field\":\"neg\"},"                                         \
    "{\"type\":\"struct\",\"fields\":[{\"type\":\"int32\",\"name\":\"io.debezium.time.Date\","     \
    "\"field\":\"d\"}],\"field\":\"r\"}]"

static void test_other_encodings(void **state)
{
    const char *text =
        "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"struct\",\"fields\":" OTHER_FIELDS
        ",\"field\":\"after\"},{\"type\":\"string\",\"field\":\"op\"}]},"
        "\"payload\":{\"op\":\"c\",\"after\":{\"v\":{\"scale\":3,\"value\":\"MDk=\"},"
        "\"n\":1718000000123456789,\"nt\":3723004005006,\"t\":3723004,\"cd\":19000,"
        "\"ct\":3723004,\"cts\":1718000000123,\"bits\":\"AYA=\",\"days\":[0,19000,null],"
        "\"zt\":\"10:15:30.5-02:00\",\"m\":{\"a\":0,\"b\":1000},\"blob\":\"aMOp\",\"tsd\":1,"
        "\"neg\":\"/s4=\",\"r\":{\"d\":-1}}}}\n";
    (void)state;
    expect("v DECIMAL(20, 4), n TIMESTAMP(9), nt TIME(9), t TIME(3), cd DATE, ct TIME(3), "
           "cts TIMESTAMP(3), bits BINARY(2), days ARRAY<DATE>, zt TIME(3), "
           "m MAP<STRING, TIMESTAMP(3)>, blob STRING, tsd TIMESTAMP(0), neg DECIMAL(5, 2), "
           "r ROW<d DATE>",
           text, 10,
           "{\"_ROW_KIND\":\"+I\",\"v\":\"12.3450\",\"n\":\"2024-06-10 06:13:20.123456789\","
           "\"nt\":\"01:02:03.004005006\",\"t\":\"01:02:03.004\",\"cd\":\"2022-01-08\","
           "\"ct\":\"01:02:03.004\",\"cts\":\"2024-06-10 06:13:20.123\",\"bits\":"
           "\"base64:gAE=\",\"days\":[\"1970-01-01\",\"2022-01-08\",null],\"zt\":"
           "\"12:15:30.500\",\"m\":[[\"a\",\"1970-01-01 00:00:00.000\"],[\"b\",\"1970-01-01 "
           "00:00:00.001\"]],\"blob\":\"hé\",\"tsd\":\"1970-01-02 00:00:00\",\"neg\":"
           "\"-306.00\",\"r\":{\"d\":\"1969-12-31\"}}\n");
}

/* Errors name the line and the column; an encoding that would lose digits is refused. */
static void test_errors(void **state)
{
    (void)state;
    expect(MYSQL_COLS, "\n{\"op\":\"t\",\"before\":null,\"after\":null}\n", 10,
           "ERROR: line 2: op \"t\" (truncate) cannot be written to a table");
    expect(MYSQL_COLS, "{\"op\":\"x\",\"after\":{\"id\":1}}\n", 10,
           "ERROR: line 1: op \"x\" is not one of \"c\", \"r\", \"u\", \"d\"");
    expect(MYSQL_COLS, "{\"op\":7,\"after\":{\"id\":1}}\n", 10,
           "ERROR: line 1: op 7 is not one of \"c\", \"r\", \"u\", \"d\"");
    expect(MYSQL_COLS, "{\"after\":{\"id\":1}}\n", 10,
           "ERROR: line 1: no \"op\": not a Debezium change event");
    expect(MYSQL_COLS, "{\"op\":\"d\",\"before\":null}\n", 10,
           "ERROR: line 1: op \"d\" without \"before\"");
    expect(MYSQL_COLS, "{\"op\":\"c\"}\n", 10, "ERROR: line 1: op \"c\" without \"after\"");
    expect(MYSQL_COLS, "{\"op\":\"c\",\"after\":{\"id\":1,\"zzz\":2}}\n", 10,
           "ERROR: line 1: unknown column \"zzz\" in after");
    expect(MYSQL_COLS, "{\"op\":\"c\",\"after\":{\"name\":\"x\"}}\n", 10,
           "ERROR: line 1, column id: missing from after, but the column is NOT NULL");
    expect(MYSQL_COLS, "{\"op\":\"c\",\"after\":{\"id\":1,\"birth\":19000}}\n", 10,
           "ERROR: line 1, column birth: expected a date string (a number needs the envelope's "
           "schema to name its encoding), got 19000");
    expect(MYSQL_COLS, "[1]\n", 10,
           "ERROR: line 1: expected a Debezium change event (a JSON object), got [1]");
    /* a Decimal whose scale exceeds the column's: 0.482 does not fit DECIMAL(10, 2) */
    {
        char *schema = replace_all(MYSQL_SCHEMA, "\"scale\":\"2\"", "\"scale\":\"3\"");
        char *text = envelope(schema, "{\"id\":1,\"amount\":\"AeI=\"}");
        expect(MYSQL_COLS, text, 10,
               "ERROR: line 1, column amount: 0.482 has more digits than DECIMAL(10, 2) allows");
        pm_free(text);
        pm_free(schema);
    }
    /* a MicroTimestamp into TIMESTAMP(3) would drop the micros */
    {
        char *schema = replace_all(MYSQL_SCHEMA, "io.debezium.time.Timestamp",
                                   "io.debezium.time.MicroTimestamp");
        char *text = envelope(schema, "{\"id\":1,\"updated\":1718000000123456}");
        expect(MYSQL_COLS, text, 10,
               "ERROR: line 1, column updated: 1718000000123456 (io.debezium.time.MicroTimestamp) "
               "has more fractional digits than TIMESTAMP(3) allows");
        pm_free(text);
        text = envelope(schema, "{\"id\":1,\"updated\":1718000000123000}");
        expect(MYSQL_COLS, text, 10,
               "{\"_ROW_KIND\":\"+I\",\"id\":1,\"name\":null,\"amount\":null,\"birth\":null,"
               "\"created\":null,\"updated\":\"2024-06-10 06:13:20.123\",\"seen\":null,"
               "\"at\":null,\"raw\":null}\n");
        pm_free(text);
        pm_free(schema);
    }
    {
        char *text = envelope(MYSQL_SCHEMA, "{\"id\":1,\"amount\":\"A=eI\"}");
        expect(MYSQL_COLS, text, 10,
               "ERROR: line 1, column amount: A=eI is not valid base64 "
               "(org.apache.kafka.connect.data.Decimal)");
        pm_free(text);
        /* a ZonedTimestamp without its offset is still a timestamp; a bad one is not */
        text = envelope(MYSQL_SCHEMA, "{\"id\":1,\"seen\":\"2024-06-10T08:13:20+25:00\"}");
        expect(MYSQL_COLS, text, 10,
               "ERROR: line 1, column seen: 2024-06-10T08:13:20+25:00 is not a valid TIMESTAMP(3) "
               "WITH LOCAL TIME ZONE: no such time of day");
        pm_free(text);
    }
    /* a broken schema is reported as such */
    expect(MYSQL_COLS, "{\"schema\":{\"fields\":[1,2,{]},\"payload\":{\"op\":\"c\"}}\n", 10,
           "ERROR: line 1: expected a key string, got ]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_envelope_ops),
        cmocka_unit_test(test_without_envelope),
        cmocka_unit_test(test_other_encodings),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
