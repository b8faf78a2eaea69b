/* JSON helpers: see json.h. */
#include "util/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/utf8.h"

int pm_json_parse(const uint8_t *data, size_t len, const char *what, json_t **out,
                  paimon_error *err)
{
    json_error_t je;
    json_t *root = json_loadb((const char *)data, len, JSON_DECODE_ANY, &je);
    *out = NULL;
    if (root == NULL)
        return pm_corrupt(err, "%s: malformed JSON at line %d column %d: %s", what, je.line,
                          je.column, je.text);
    *out = root;
    return 0;
}

int pm_json_parse_object(const uint8_t *data, size_t len, const char *what, json_t **out,
                         paimon_error *err)
{
    int rc = pm_json_parse(data, len, what, out, err);
    if (rc == 0 && !json_is_object(*out)) {
        json_decref(*out);
        *out = NULL;
        rc = pm_corrupt(err, "%s: not a JSON object", what);
    }
    return rc;
}

int pm_json_get_i64(const json_t *obj, const char *key, bool required, int64_t *out, bool *present,
                    const char *what, paimon_error *err)
{
    const json_t *v = json_object_get(obj, key);
    if (present != NULL)
        *present = false;
    if (v == NULL || json_is_null(v)) {
        if (required)
            return pm_corrupt(err, "%s: missing \"%s\"", what, key);
        return 0;
    }
    if (!json_is_integer(v))
        return pm_corrupt(err, "%s: \"%s\" is not an integer", what, key);
    *out = (int64_t)json_integer_value(v);
    if (present != NULL)
        *present = true;
    return 0;
}

int pm_json_get_str(const json_t *obj, const char *key, bool required, const char **out,
                    const char *what, paimon_error *err)
{
    const json_t *v = json_object_get(obj, key);
    if (v == NULL || json_is_null(v)) {
        if (required)
            return pm_corrupt(err, "%s: missing \"%s\"", what, key);
        *out = NULL;
        return 0;
    }
    if (!json_is_string(v))
        return pm_corrupt(err, "%s: \"%s\" is not a string", what, key);
    *out = json_string_value(v);
    return 0;
}

/* `jackson`: escape other control characters as Jackson does (\u001F, upper-case hex). */
static int quote(pm_buf *out, const char *str, size_t len, bool jackson)
{
    const uint8_t *s = (const uint8_t *)str;
    size_t i = 0;
    int rc = pm_buf_reserve(out, len + 2);
    if (rc != 0)
        return rc;
    out->data[out->len++] = '"';
    while (rc == 0 && i < len) {
        uint8_t c = s[i];
        size_t n;
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            /* Fast path: a run of plain ASCII. */
            size_t j = i + 1;
            while (j < len && s[j] >= 0x20 && s[j] < 0x80 && s[j] != '"' && s[j] != '\\')
                j++;
            rc = pm_buf_append(out, s + i, j - i);
            i = j;
        } else if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            rc = pm_buf_append(out, esc, 2);
            i++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': rc = pm_buf_puts(out, "\\n"); break;
            case '\r': rc = pm_buf_puts(out, "\\r"); break;
            case '\t': rc = pm_buf_puts(out, "\\t"); break;
            case '\b': rc = pm_buf_puts(out, "\\b"); break;
            case '\f': rc = pm_buf_puts(out, "\\f"); break;
            default: rc = pm_buf_printf(out, jackson ? "\\u%04X" : "\\u%04x", c); break;
            }
            i++;
        } else if ((n = pm_utf8_decode(s + i, len - i, NULL)) != 0) {
            rc = pm_buf_append(out, s + i, n);
            i += n;
        } else {
            rc = pm_buf_puts(out, "\xef\xbf\xbd"); /* U+FFFD */
            i++;
        }
    }
    return rc != 0 ? rc : pm_buf_putc(out, '"');
}

int pm_json_quote(pm_buf *out, const char *str, size_t len)
{
    return quote(out, str, len, false);
}

int pm_json_quote_jackson(pm_buf *out, const char *str, size_t len)
{
    return quote(out, str, len, true);
}

static int write_real(pm_buf *out, double v)
{
    char buf[40];
    if (!isfinite(v))
        return pm_buf_puts(out, "null");
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof(buf), "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (strpbrk(buf, ".eE") == NULL)
        return pm_buf_printf(out, "%s.0", buf);
    return pm_buf_puts(out, buf);
}

static int indent(pm_buf *out, int depth)
{
    int rc = pm_buf_putc(out, '\n');
    for (int i = 0; rc == 0 && i < depth; i++)
        rc = pm_buf_puts(out, "  ");
    return rc;
}

static int write_value(pm_buf *out, const json_t *v, int depth, bool pretty)
{
    int rc = 0;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *key;
        const json_t *child;
        bool first = true;
        if (json_object_size(v) == 0)
            return pm_buf_puts(out, pretty ? "{ }" : "{}");
        rc = pm_buf_putc(out, '{');
        json_object_foreach((json_t *)v, key, child)
        {
            if (rc == 0 && !first)
                rc = pm_buf_putc(out, ',');
            first = false;
            if (rc == 0 && pretty)
                rc = indent(out, depth + 1);
            if (rc == 0)
                rc = pm_json_quote_jackson(out, key, strlen(key));
            if (rc == 0)
                rc = pm_buf_puts(out, pretty ? " : " : ":");
            if (rc == 0)
                rc = write_value(out, child, depth + 1, pretty);
        }
        if (rc == 0 && pretty)
            rc = indent(out, depth);
        return rc != 0 ? rc : pm_buf_putc(out, '}');
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        if (n == 0)
            return pm_buf_puts(out, pretty ? "[ ]" : "[]");
        rc = pm_buf_puts(out, pretty ? "[ " : "[");
        for (size_t i = 0; rc == 0 && i < n; i++) {
            if (i > 0)
                rc = pm_buf_puts(out, pretty ? ", " : ",");
            if (rc == 0)
                rc = write_value(out, json_array_get(v, i), depth, pretty);
        }
        return rc != 0 ? rc : pm_buf_puts(out, pretty ? " ]" : "]");
    }
    case JSON_STRING:
        return pm_json_quote_jackson(out, json_string_value(v), json_string_length(v));
    case JSON_INTEGER: return pm_buf_printf(out, "%lld", (long long)json_integer_value(v));
    case JSON_REAL: return write_real(out, json_real_value(v));
    case JSON_TRUE: return pm_buf_puts(out, "true");
    case JSON_FALSE: return pm_buf_puts(out, "false");
    case JSON_NULL: return pm_buf_puts(out, "null");
    }
    return PAIMON_EINVALID;
}

int pm_json_write_jackson(pm_buf *out, const json_t *value)
{
    return write_value(out, value, 0, true);
}

int pm_json_write_jackson_owned(pm_buf *out, json_t *value)
{
    int rc;
    if (value == NULL)
        return PAIMON_ENOMEM;
    rc = pm_json_write_jackson(out, value);
    json_decref(value);
    return rc;
}

int pm_json_write_compact(pm_buf *out, const json_t *value)
{
    return write_value(out, value, 0, false);
}
