/*
 * A tiny scanner for the XML that S3 answers: error bodies (<Error><Code>...), listings
 * (ListObjectsV2: <Contents><Key>..</Key><Size>..</Size></Contents>, <NextContinuationToken>),
 * multipart replies (<UploadId>) and batch-delete results (<Error><Key>..).
 *
 * Not a general XML parser: those documents are flat records whose element names never nest
 * inside an element of the same name, so "the first <Name> at or after here, up to the first
 * </Name> after it" finds each one.  Attributes, a namespace on the root, the <?xml ...?>
 * declaration and comments are skipped because only start tags of the asked name match.
 * Bodies come from the network and are untrusted: every scan is bounded by the length given,
 * nothing is assumed NUL-terminated, and malformed input is "not found" or PAIMON_ECORRUPT,
 * never a read out of bounds.
 *
 * Thread safety: pure functions.
 */
#ifndef PM_IO_S3_XML_H
#define PM_IO_S3_XML_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* A slice of the document. */
typedef struct pm_s3_xml_span {
    const char *ptr; /* borrowed from the document */
    size_t len;
} pm_s3_xml_span;

/* Finds the next element `name` that starts at or after *pos in doc[0..len): *inner is its
 * content (between the start and end tags, raw: entities not decoded; empty for <Name/>),
 * and *pos moves past its end tag.  False when there is none, or when its end tag is
 * missing (the rest of the document is then not searched again: *pos = len). */
bool pm_s3_xml_next(const char *doc, size_t len, size_t *pos, const char *name,
                    pm_s3_xml_span *inner);

/* Appends the text `len` bytes of `s` decode to: the five named entities (&amp; &lt; &gt;
 * &quot; &apos;) and numeric references (&#65; &#x41;, written as UTF-8).  An unknown or
 * unterminated entity, or a reference to no valid code point, is PAIMON_ECORRUPT. */
int pm_s3_xml_unescape(pm_buf *out, const char *s, size_t len);

/* The decoded text of the first element `name` of doc[0..len), as a NUL-terminated string
 * of the library's allocator (caller frees with pm_free).  0, PAIMON_ENOTFOUND,
 * PAIMON_ECORRUPT or PAIMON_ENOMEM. */
int pm_s3_xml_text(const char *doc, size_t len, const char *name, char **out);

#endif /* PM_IO_S3_XML_H */
