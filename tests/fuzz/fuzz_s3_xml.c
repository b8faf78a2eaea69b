/*
 * Fuzz target: the S3 XML scanner (io/s3/s3_xml.h) as its callers use it on bodies from the
 * network: an error body read for <Code> and <Message> (pm_s3_status_error), a
 * ListObjectsV2 page walked <Contents> by <Contents> for <Key> and <Size>, and the entity
 * decoder over the whole input; and the input as a Content-Range header value (a ranged
 * GET's, which names the object's size).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/s3/s3_client.h"
#include "io/s3/s3_xml.h"
#include "util/alloc.h"
#include "util/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *doc = (const char *)data;
    size_t pos = 0;
    pm_s3_xml_span span, inner;
    char *text = NULL;

    /* a listing page */
    while (pm_s3_xml_next(doc, size, &pos, "Contents", &span)) {
        size_t p = 0;
        if (pm_s3_xml_next(span.ptr, span.len, &p, "Key", &inner)) {
            pm_buf b;
            pm_buf_init(&b, 0);
            (void)pm_s3_xml_unescape(&b, inner.ptr, inner.len);
            pm_buf_free(&b);
        }
        if (pm_s3_xml_text(span.ptr, span.len, "Size", &text) == 0)
            pm_free(text);
        if (pos > size)
            __builtin_trap();
    }
    if (pm_s3_xml_text(doc, size, "NextContinuationToken", &text) == 0)
        pm_free(text);

    /* an error body */
    {
        pm_s3_request req;
        pm_s3_response resp;
        paimon_error err;
        memset(&req, 0, sizeof(req));
        req.method = "GET";
        req.bucket = "b";
        req.key = "k";
        pm_s3_response_init(&resp);
        resp.status = 403;
        if (pm_buf_append(&resp.body, data, size) == 0)
            PM_IGNORE(pm_s3_status_error(&req, &resp, &err));
        pm_s3_response_free(&resp);
    }

    /* the decoder over everything */
    {
        pm_buf b;
        pm_buf_init(&b, 0);
        (void)pm_s3_xml_unescape(&b, doc, size);
        pm_buf_free(&b);
    }

    /* the input as a Content-Range header value: a size in [0, 10^18), or -1 */
    {
        char *value = pm_malloc(size + 1);
        if (value != NULL) {
            memcpy(value, data, size);
            value[size] = '\0';
            int64_t total = pm_s3_content_range_size(value);
            if (total < -1 || total >= 1000000000000000000)
                abort();
            pm_free(value);
        }
    }
    return 0;
}
