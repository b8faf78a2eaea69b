#!/usr/bin/env python3
"""The error-idiom check (ctest checks/must_check): failures cannot be dropped silently.

The library's functions return 0 or a negative PAIMON_E* code and fill a paimon_error
(src/util/error.h).  The rules, for every library file under src/ (not src/cli, a client of
the public API):

  - a function that returns `int` and takes a `paimon_error *` is declared PM_MUST_CHECK
    (warn_unused_result: a call that drops the code does not compile with -Werror), in its
    header for pm_* functions and at its definition for static ones;
  - the one cleanup label is `done:` (no `fail:`, `finish:`, `out:`, `cleanup:`, `bad:`
    labels); labels that set an error code and fall into `done:` (`nomem:`) are allowed.

Every violation is printed as FILE:LINE: RULE, and the exit status is 1 when there is one.
With --fix, the missing PM_MUST_CHECK are added in place (labels are left to a person).

Usage: must_check.py [--fix] [SOURCE_DIR]   (default: the checkout this script is in)
"""
import os
import re
import sys

SKIP = ("src/cli/",)
# the error helpers return the code they set, for `return pm_nomem(err);`: not a result
EXEMPT = {"pm_err_set", "pm_err_prefix", "pm_corrupt", "pm_nomem", "vset"}
DECL = re.compile(r"^(static )?int ([a-z_0-9]+)\(([^;{]*?)\)(\s*[;{])", re.M | re.S)
BAD_LABEL = re.compile(r"^\s*(fail|finish|out|cleanup|bad|error|err|end):\s*$")


def check_file(root, rel, fix):
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    problems = []
    header = rel.endswith(".h")

    def visit(m):
        static, name, params = m.group(1), m.group(2), m.group(3)
        if "paimon_error" not in params or name in EXEMPT:
            return m.group(0)
        if header == bool(static):  # pm_* functions in headers, static ones in .c files
            return m.group(0)
        line = text.count("\n", 0, m.start()) + 1
        problems.append(f"{rel}:{line}: {name} returns an error code: declare it PM_MUST_CHECK")
        return "PM_MUST_CHECK " + m.group(0)

    fixed = DECL.sub(visit, text)
    for i, line in enumerate(text.split("\n"), 1):
        if BAD_LABEL.match(line):
            problems.append(f"{rel}:{i}: cleanup label '{line.strip()}': the one cleanup label is done:")
    if fix and fixed != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(fixed)
    return problems


def main(argv):
    fix = "--fix" in argv
    args = [a for a in argv if a != "--fix"]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    problems = []
    for folder, _, files in os.walk(os.path.join(root, "src")):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            rel = os.path.relpath(os.path.join(folder, name), root)
            if rel.startswith(SKIP) or rel == "src/util/error.h":
                continue
            problems += check_file(root, rel, fix)
    for p in problems:
        print(p)
    if problems and not fix:
        print(f"{len(problems)} problem(s); see tests/checks/must_check.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
