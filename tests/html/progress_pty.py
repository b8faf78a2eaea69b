#!/usr/bin/env python3
"""Progress lines (issue 18): `paimon compact` and `paimon write` print a progress line on
stderr when stderr is a terminal (a pseudo-terminal here), none when it is a pipe, none with
--quiet.  Usage: progress_pty.py PAIMON"""
import os
import pty
import re
import subprocess
import sys
import tempfile

PAIMON = sys.argv[1]


def run(args, tty, stdin=None):
    """Runs PAIMON args; stderr on a pty when `tty`; returns (exit, stdout, stderr)."""
    if not tty:
        p = subprocess.run([PAIMON] + args, input=stdin, capture_output=True)
        return p.returncode, p.stdout.decode(), p.stderr.decode()
    master, slave = pty.openpty()
    p = subprocess.Popen([PAIMON] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=slave)
    os.close(slave)
    out, _ = p.communicate(stdin)
    err = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    return p.returncode, out.decode(), err.decode(errors="replace")


def last(pattern, text):
    """The last match of `pattern` in `text` (the line is redrawn: the last draw is final)."""
    found = list(re.finditer(pattern, text))
    return found[-1] if found else None


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


with tempfile.TemporaryDirectory() as d:
    t = os.path.join(d, "t")
    rc, _, err = run(["create", t, "--schema", "id BIGINT NOT NULL, v STRING", "--primary-key",
                      "id", "--option", "bucket=1", "--option", "write-only=true"], False)
    check(rc == 0, "create: " + err)
    rows = "".join('{"id":%d,"v":"x"}\n' % i for i in range(2000)).encode()
    # write, on a terminal: "write: N files, R rows, ... written"
    rc, out, err = run(["write", t, "--commit-every", "500"], True, rows)
    check(rc == 0 and "wrote 2000 rows" in out, "write on a pty succeeds")
    m = last(r"write: (\d+) files?, (\d+) rows, [0-9.]+ \w+ written", err)
    check(m is not None, "write on a pty prints a progress line: %r" % err)
    check(int(m.group(2)) == 2000 and int(m.group(1)) == 4,
          "the write's line counts its 4 files and 2000 rows: %r" % err)
    for i in range(3):
        rc, _, err = run(["write", t], False, b'{"id":%d,"v":"y"}\n' % i)
        check(rc == 0 and err == "", "write, piped: no progress on stderr (%r)" % err)
    # compact on a terminal: the compaction's files and rows
    rc, out, err = run(["compact", t, "--full"], True)
    check(rc == 0 and "COMPACT" in out, "compact on a pty succeeds")
    m = last(r"compact: (\d+) files?, (\d+) rows, [0-9.]+ \w+ written, [0-9.]+ \w+/s, "
                  r"[0-9.]+ s", err)
    check(m is not None, "compact on a pty prints a progress line: %r" % err)
    check(int(m.group(2)) == 2000, "the compaction rewrote 2000 rows: %r" % err)
    # piped, or --quiet: nothing on stderr
    run(["write", t], False, b'{"id":1,"v":"z"}\n')
    rc, out, err = run(["compact", t, "--full"], False)
    check(rc == 0 and "COMPACT" in out and err == "", "compact, piped: no progress (%r)" % err)
    run(["write", t], False, b'{"id":2,"v":"z"}\n')
    rc, out, err = run(["compact", t, "--full", "--quiet"], True)
    check(rc == 0 and "COMPACT" in out and "compact:" not in err,
          "compact --quiet on a pty: no progress (%r)" % err)
    # cat to a file, stderr a terminal: rows counted
    with open(os.path.join(d, "out.jsonl"), "wb") as f:
        master, slave = pty.openpty()
        p = subprocess.run([PAIMON, "cat", t], stdout=f, stderr=slave)
        os.close(slave)
        err = os.read(master, 65536).decode(errors="replace")
        os.close(master)
    check(p.returncode == 0 and re.search(r"cat: 2000 rows, [0-9.]+ \w+ done", err) is not None,
          "cat to a file on a pty counts its 2000 rows: %r" % err)
    # an error during the command stands on a line of its own
    rc, _, err = run(["write", t], True, b'{"id":1,"v":"ok"}\n{"id":"bad"}\n')
    check(rc == 1 and re.search(r"(^|\n)paimon: ", err) is not None,
          "an error under a progress line starts a line: %r" % err)
print("progress: all checks passed")
