/*
 * Fuzz target: the SQLite layer's readers of text it is handed (src/sqlite): a value of an
 * INSERT or UPDATE (ps_value_get(), as one SQLite value of every class the first byte picks)
 * against a column of each mapped type, the JSON syntax check of nested columns
 * (ps_json_check(), txn_json.c), the base64 of BLOB columns (values.c) and a column's type
 * text (ps_column_init()).  Statements are user input: untrusted.
 *
 * Beyond "no crash" it checks two properties:
 *  - every text jansson decodes (any value, nested at most 200 deep, ps_json_check's limit)
 *    passes ps_json_check's syntax check: the check refuses no JSON the reader would take;
 *  - base64 that decodes re-encodes to the same text: a malformed one is refused, never
 *    read as a shorter value.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "sqlite/sqlite_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const TYPES[] = {"TINYINT",        "INT NOT NULL",
                                    "BIGINT",         "BOOLEAN",
                                    "FLOAT",          "DOUBLE",
                                    "DECIMAL(10, 2)", "DECIMAL(38, 4)",
                                    "BYTES",          "DATE",
                                    "TIME(3)",        "TIMESTAMP(6)",
                                    "ARRAY<INT>",     "MAP<STRING, INT>",
                                    "ROW<a INT>",     "MULTISET<STRING>",
                                    "STRING"};
#define NTYPES (sizeof(TYPES) / sizeof(TYPES[0]))

static sqlite3 *db;
static sqlite3_stmt *select_one;

static size_t depth_of(json_t *j)
{
    size_t d = 0, k;
    const char *key;
    json_t *v;
    if (json_is_array(j)) {
        json_array_foreach(j, k, v)
        {
            size_t e = depth_of(v);
            d = e > d ? e : d;
        }
        return d + 1;
    }
    if (json_is_object(j)) {
        json_object_foreach(j, key, v)
        {
            size_t e = depth_of(v);
            d = e > d ? e : d;
        }
        return d + 1;
    }
    return 0;
}

static void check_json(const ps_column *cols, const char *text, size_t len)
{
    json_error_t jerr;
    /* jansson stops at a NUL byte, which no JSON text holds: those inputs are not compared */
    json_t *j = memchr(text, 0, len) == NULL ? json_loadb(text, len, JSON_DECODE_ANY, &jerr) : NULL;
    for (size_t k = 0; k < NTYPES; k++) {
        if (cols[k].cls != PS_JSON)
            continue;
        const char *why = ps_json_check(&cols[k], text, len);
        /* depth_of counts containers; ps_json_check takes PS_JSON_DEPTH + 1 levels */
        if (j != NULL && depth_of(j) <= 200 && why != NULL && strncmp(why, "is not valid", 12) == 0)
            abort(); /* jansson reads it; the check calls it invalid */
    }
    json_decref(j);
}

static void check_base64(const char *text, size_t len)
{
    size_t n = 0;
    unsigned char *b = ps_base64_decode(text, len, &n);
    if (b != NULL) {
        char *again = ps_base64_encode(b, n);
        if (again == NULL || strlen(again) != len || memcmp(again, text, len) != 0)
            abort(); /* decoded from text that is not the value's base64 */
        sqlite3_free(again);
    }
    sqlite3_free(b);
    char *enc = ps_base64_encode((const unsigned char *)text, len);
    if (enc != NULL) {
        b = ps_base64_decode(enc, strlen(enc), &n);
        if (b == NULL || n != len || memcmp(b, text, len) != 0)
            abort(); /* a round trip changed the bytes */
        sqlite3_free(b);
    }
    sqlite3_free(enc);
}

/* The input as one SQLite value of the class `which` picks, protected (sqlite3_value_dup). */
static sqlite3_value *as_value(uint8_t which, const uint8_t *p, size_t n)
{
    sqlite3_value *v = NULL;
    int64_t i = 0;
    double d = 0;
    sqlite3_reset(select_one);
    switch (which % 4) {
    case 0:
        sqlite3_bind_text64(select_one, 1, (const char *)p, n, SQLITE_STATIC, SQLITE_UTF8);
        break;
    case 1: sqlite3_bind_blob64(select_one, 1, p, n, SQLITE_STATIC); break;
    case 2:
        memcpy(&i, p, n < sizeof(i) ? n : sizeof(i));
        sqlite3_bind_int64(select_one, 1, i);
        break;
    default:
        memcpy(&d, p, n < sizeof(d) ? n : sizeof(d));
        sqlite3_bind_double(select_one, 1, d);
        break;
    }
    if (sqlite3_step(select_one) == SQLITE_ROW)
        v = sqlite3_value_dup(sqlite3_column_value(select_one, 0));
    sqlite3_reset(select_one);
    sqlite3_clear_bindings(select_one);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ps_column cols[NTYPES];
    char scratch[48];
    char *text;
    if (size == 0)
        return 0;
    if (db == NULL) {
        if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
            sqlite3_prepare_v2(db, "SELECT ?1", -1, &select_one, NULL) != SQLITE_OK)
            abort();
    }
    memset(cols, 0, sizeof(cols));
    for (size_t k = 0; k < NTYPES; k++)
        if (ps_column_init(&cols[k], TYPES[k]) != 0)
            abort();
    /* the rest as text, NUL-terminated as SQLite hands it over */
    if ((text = malloc(size)) == NULL)
        abort();
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';

    sqlite3_value *v = as_value(data[0], data + 1, size - 1);
    for (size_t k = 0; v != NULL && k < NTYPES; k++) {
        paimon_value out;
        char *msg = NULL;
        cols[k].name = NULL;
        (void)ps_value_get("fuzz", &cols[k], v, &out, scratch, sizeof(scratch), &msg);
        if (out.type == PAIMON_VALUE_TEXT && out.v.s.ptr == NULL)
            abort();
        sqlite3_free(msg);
    }
    sqlite3_value_free(v);
    check_json(cols, text, size - 1);
    check_base64(text, size - 1);
    {
        ps_column c = {0};
        if (ps_column_init(&c, text) == 0)
            (void)ps_column_decltype(&c);
        ps_column_clear(&c);
    }
    for (size_t k = 0; k < NTYPES; k++)
        ps_column_clear(&cols[k]);
    free(text);
    return 0;
}
