/*
 * The filter expressions of `paimon cat --where` and paimon_scan_options.filter (DESIGN.md):
 *
 *   expr     := term (OR term)*
 *   term     := factor (AND factor)*
 *   factor   := NOT factor | '(' expr ')' | TRUE | FALSE | test
 *   test     := column ('=' | '!=' | '<>' | '<' | '<=' | '>' | '>=') literal
 *             | literal op column
 *             | column [NOT] IN '(' literal (',' literal)* ')'
 *             | column IS [NOT] NULL
 *   literal  := integer | decimal | float (1e-3) | 'text' ('' escapes a quote) | TRUE | FALSE
 *             | NULL | DATE 'yyyy-mm-dd' | TIME 'hh:mm:ss[.f]' | TIMESTAMP 'yyyy-mm-dd hh:mm:ss[.f]'
 *             | X'0aff'
 *   column   := [A-Za-z_][A-Za-z0-9_]* | `back-quoted`  (exact name, else case-insensitive)
 *               other than the keywords AND OR NOT IN IS BETWEEN LIKE (back-quote a column
 *               of that name)
 *
 * Literals are converted to the column's type: integers must fit the integer type, decimals
 * are rescaled only when no digit is lost, text compares with CHAR/VARCHAR and converts to
 * DATE/TIME/TIMESTAMP columns too.  A malformed expression (a keyword where a column
 * belongs, nesting deeper than PM_EXPR_MAX_DEPTH) or an unconvertible literal is
 * PAIMON_EINVALID naming the position; an unknown column PAIMON_ENOTFOUND naming it.
 */
#ifndef PM_DATA_EXPR_H
#define PM_DATA_EXPR_H

#include "data/predicate.h"
#include "util/error.h"

/* The deepest nesting of parentheses and NOTs: the parser recurses once per level, and so
 * does every walk over the predicate it builds.  SQLite's own default is 1000. */
#define PM_EXPR_MAX_DEPTH 256

/* Parses `text` into a predicate over `row` (a ROW type).  Caller owns `*out`; release with
 * pm_predicate_free(). */
PM_MUST_CHECK int pm_expr_parse(const char *text, const pm_type *row, pm_predicate **out,
                                paimon_error *err);

#endif /* PM_DATA_EXPR_H */
