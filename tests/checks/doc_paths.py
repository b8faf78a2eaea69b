#!/usr/bin/env python3
"""The documentation-path check (ctest checks/doc_paths): every path the prose names exists.

Where it looks:
  - README.md and docs/**/*.md, every line;
  - the comments of src/**/*.{c,h} and include/**/*.h (string literals are skipped).

What counts as a path:
  - anything starting with src/, docs/, tests/, bench/, scripts/, examples/ or include/,
    relative to the checkout;
  - ../shared/... (and shared/..., the name DESIGN.md uses), checked when ../shared exists;
  - in comments of src/ and include/: a layer-relative file name with an extension, as
    headers cite each other (lsm/levels.h, format/avro/avro_container.c, paimon/write.h),
    relative to src/ (paimon/... to include/);
  - in comments of src/: a bare file name ending in .c or .h (table_write.c), which must be
    a file of src/.

How a path is matched: trailing punctuation is dropped; `*`, `?` and `[ch]` are globs, a
placeholder in angle brackets (src/<layer>/) matches any one name, and {a,b} lists
alternatives (each must exist); a glob must match at least one file.  A name without an
extension may be a program built from NAME.c (tests/tools/input_cat).  A path right after
an owner/repository name (apache/parquet-format src/main/...) is that repository's, not
ours.  GENERATED lists what the build or the test setup creates.

Every missing path is printed as FILE:LINE: missing PATH; the exit status is 1 when there
is one.  Usage: doc_paths.py [SOURCE_DIR]   (default: the checkout this script is in)
"""
import glob
import os
import re
import sys

# Made by the build or the test setup, not committed.
GENERATED = {
    "tests/interop/node_modules": "scripts/setup-node.sh",
}

ROOTS = r"(?:src|docs|tests|bench|scripts|examples|include)"
LAYERS = r"(?:util|io|data|format|meta|lsm|table|api|cli|sqlite|cdc|paimon)"
PATH_CHARS = r"(?:[A-Za-z0-9_.*?<>\-/]|\[[A-Za-z0-9]+\]|\{[A-Za-z0-9_.,\-]*\})"
ROOTED = re.compile(r"(?<![\w./\-])(" + ROOTS + "/" + PATH_CHARS + "*)")
SHARED = re.compile(r"(?<![\w./\-])((?:\.\./)?shared/" + PATH_CHARS + "+)")
LAYERED = re.compile(r"(?<![\w./\-])(" + LAYERS + "/" + PATH_CHARS + r"*\.(?:c|h|inc))(?![\w/])")
BARE = re.compile(r"(?<![\w./\-<\"])([A-Za-z0-9_]+\.[ch])(?![\w/.])")
# owner/name right before a path: a GitHub repository (not one of our folders or layers)
REPO_BEFORE = re.compile(r"(?<![\w./\-])(?!" + ROOTS + "/|" + LAYERS + "/)[A-Za-z][\w\-]*/[\w\-]+[\s`(]*$")


def comments(text):
    """(line number, text) of each comment line of C source `text`."""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k, part in enumerate(text[i:j].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, j)
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((line, text[i:j]))
            i = j
        elif text[i] in "\"'":
            quote, j = text[i], i + 1
            while j < n and text[j] != quote and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            if text[i] == "\n":
                line += 1
            i += 1
    return out


def expand(path):
    """The glob patterns a path stands for."""
    path = re.sub(r"<[^>/]*>", "*", path)
    m = re.search(r"\{([^}]*)\}", path)
    if m is None:
        return [path]
    return [p for alt in m.group(1).split(",") for p in expand(path[:m.start()] + alt + path[m.end():])]


def exists(base, path):
    for pattern in expand(path):
        full = os.path.join(base, pattern)
        if glob.glob(full) or (not os.path.splitext(pattern)[1] and os.path.exists(full + ".c")):
            continue
        return False
    return True


def clean(path):
    return path.rstrip(".,:;)")


def check_line(root, shared, rel, lineno, text, in_c, missing):
    def report(path):
        missing.append("%s:%d: missing %s" % (rel, lineno, path))

    for m in ROOTED.finditer(text):
        path = clean(m.group(1))
        if REPO_BEFORE.search(text[:m.start()]):
            continue  # another repository's path
        if any(path == g or path.startswith(g + "/") for g in GENERATED):
            continue
        if not exists(root, path):
            report(path)
    if shared is not None:
        for m in SHARED.finditer(text):
            path = clean(m.group(1))
            if not exists(shared, path.split("shared/", 1)[1]):
                report(path)
    if not in_c:
        return
    for m in LAYERED.finditer(text):
        path = clean(m.group(1))
        base = os.path.join(root, "include" if path.startswith("paimon/") else "src")
        if not exists(base, path):
            report(path)
    if rel.startswith("src/"):
        for m in BARE.finditer(text):
            name = m.group(1)
            here = os.path.join(root, os.path.dirname(rel), name)
            if not os.path.exists(here) and not glob.glob(os.path.join(root, "src", "**", name),
                                                          recursive=True):
                report(name)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), "..", ".."))
    shared = os.path.normpath(os.path.join(root, "..", "shared"))
    if not os.path.isdir(shared):
        print("doc_paths: %s is absent: ../shared paths are not checked" % shared)
        shared = None
    def files(pattern):
        return [os.path.relpath(p, root)
                for p in glob.glob(os.path.join(root, pattern), recursive=True)]
    docs = ["README.md"] + sorted(files("docs/**/*.md"))
    sources = sorted(files("src/**/*.[ch]") + files("include/**/*.h"))
    missing = []
    for rel in docs:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            for lineno, text in enumerate(f, 1):
                check_line(root, shared, rel, lineno, text, False, missing)
    for rel in sources:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for lineno, text in comments(f.read()):
                check_line(root, shared, rel, lineno, text, True, missing)
    for m in missing:
        print(m)
    print("doc_paths: %d documents, %d sources, %d missing path(s)" % (
        len(docs), len(sources), len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
