#!/usr/bin/env python3
"""The layer check (ctest checks/layers): every #include points down the layers.

The order is ../shared/DESIGN.md's: util < io < data < format < meta < lsm < table < api,
with the top layers above them as peers.  The rules, for each project file:

  - a library layer includes its own headers, those of lower layers and the public API
    (include/paimon.h, include/paimon/*.h), never a higher layer's or a top layer's;
  - a top layer (a client of the public API) includes the public API and its own headers only;
  - a public header includes public headers only;
  - a quoted include names a file of the tree (resolved as the compiler does: the
    including file's folder, then include/, then src/).

System headers (<stdio.h>, <zstd.h>) are not checked.  Every violation is printed as
FILE:LINE: RULE, and the exit status is 1 when there is one.  Exceptions live in
layers.allow beside this script (FILE: INCLUDE per line); one that no longer matches an
include is an error too, so an exception goes with the include it excused.

Usage: layers.py [SOURCE_DIR]   (default: the checkout this script is in)
"""
import os
import re
import sys

# The layer table: one line per folder, bottom up.  A number is a library layer's rank (a
# layer may include the ranks at or below its own); "top" is a client of the public API
# (cli, and the sqlite and cdc layers when they come: one line each).
LAYERS = """
src/util     1
src/io       2
src/data     3
src/format   4
src/meta     5
src/lsm      6
src/table    7
src/api      8
src/cli      top
src/sqlite   top
src/cdc      top
examples     top
"""

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCE_EXT = (".c", ".h", ".inc")


def parse_layers():
    layers = {}
    for line in LAYERS.strip().splitlines():
        folder, rank = line.split()
        layers[folder] = None if rank == "top" else int(rank)
    return layers


def layer_of(rel, layers):
    """The layer folder holding `rel` (a path relative to the checkout), or None."""
    best = None
    for folder in layers:
        if rel.startswith(folder + "/") and (best is None or len(folder) > len(best)):
            best = folder
    return best


def resolve(root, rel, name, quoted):
    """The file `name` names, relative to root, or None (a system header)."""
    candidates = []
    if quoted:
        candidates.append(os.path.join(os.path.dirname(rel), name))
    candidates += [os.path.join("include", name), os.path.join("src", name)]
    for c in candidates:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(root, c)):
            return c
    return None


def describe(layers, folder):
    rank = layers[folder]
    lower = [f.split("/")[-1] for f, r in layers.items() if r is not None and r <= rank]
    return "%s (layer %d) may include only %s and the public headers" % (
        folder, rank, ", ".join(lower))


def check_file(root, rel, layers, out):
    """Appends (line, include, message) for each rule `rel` breaks."""
    own = layer_of(rel, layers)
    public = rel.startswith("include/")
    if not public and own is None:
        out.append((1, None, "%s is in no layer: add its folder to the table in %s" % (
            os.path.dirname(rel), os.path.relpath(__file__, root))))
        return
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            m = INCLUDE_RE.match(line)
            if m is None:
                continue
            quoted, name = m.group(1) == '"', m.group(2)
            target = resolve(root, rel, name, quoted)
            if target is None:
                if quoted:
                    out.append((lineno, name, "#include \"%s\" names no file of the tree" % name))
                continue
            if target.startswith("include/"):
                continue  # the public API: every layer may use it
            theirs = layer_of(target, layers)
            if public:
                out.append((lineno, name, "public header includes internal %s" % target))
            elif theirs == own:
                continue
            elif layers[own] is None:
                out.append((lineno, name, "%s is a top layer: it may include only paimon.h, "
                            "paimon/*.h and its own headers, not %s" % (own, target)))
            elif theirs is None or layers[theirs] is None or layers[theirs] > layers[own]:
                out.append((lineno, name, "upward include of %s: %s" % (target,
                                                                       describe(layers, own))))


def read_allow(path):
    allow = {}
    if not os.path.exists(path):
        return allow
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            rel, _, name = line.partition(":")
            allow[(rel.strip(), name.strip())] = lineno
    return allow


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), "..", ".."))
    layers = parse_layers()
    files = []
    for top in ["src", "include"] + [f for f in layers if not f.startswith("src/")]:
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith(SOURCE_EXT):
                    files.append(os.path.relpath(os.path.join(d, n), root))
    allow_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers.allow")
    allow = read_allow(allow_path)
    used = set()
    bad = 0
    for rel in sorted(set(files)):
        found = []
        check_file(root, rel, layers, found)
        for lineno, name, msg in found:
            if (rel, name) in allow:
                used.add((rel, name))
                continue
            print("%s:%d: %s" % (rel, lineno, msg))
            bad += 1
    for key, lineno in sorted(allow.items(), key=lambda kv: kv[1]):
        if key not in used:
            print("%s:%d: exception %s: %s matches no violation: remove it" % (
                os.path.relpath(allow_path, root), lineno, key[0], key[1]))
            bad += 1
    print("layers: %d files, %d violation(s)" % (len(set(files)), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
