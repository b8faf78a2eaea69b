#!/usr/bin/env python3
"""`paimon inspect TABLE health --format jsonl` (issue 18) on tables built to show each
item: the item is there with its values, and running the `fix` command it names makes it
go (a fix that does not fix fails the test).  Also: a healthy table has no item, and a
missing table is the usual one-line error.  Usage: health_test.py PAIMON"""
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

PAIMON = sys.argv[1]
FAILED = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        FAILED.append(what)


def paimon(*args, stdin=None, ok=True):
    p = subprocess.run([PAIMON] + list(args), input=stdin, capture_output=True)
    if ok and p.returncode != 0:
        raise SystemExit("paimon %s failed: %s" % (" ".join(args), p.stderr.decode()))
    return p


def health(t):
    return [json.loads(l) for l in paimon("inspect", t, "health", "--format", "jsonl")
            .stdout.decode().splitlines()]


def items(t, check_name):
    return [i for i in health(t) if i["check"] == check_name]


def run_fix(item):
    argv = shlex.split(item["fix"])
    check(argv[0] == "paimon", "the fix is a paimon command: " + item["fix"])
    p = subprocess.run([PAIMON] + argv[1:], capture_output=True)
    check(p.returncode == 0, "the fix runs: %s %s" % (item["fix"], p.stderr.decode()))


def rows(ids, v="a", extra=""):
    return "".join('{%s"id":%d,"v":"%s"}\n' % (extra, i, v) for i in ids).encode()


d = tempfile.mkdtemp(prefix="paimon-health-")
try:
    # a healthy table, and a missing one
    t = os.path.join(d, "fine")
    paimon("create", t, "--schema", "id BIGINT NOT NULL, v STRING", "--primary-key", "id")
    check(health(t) == [], "a table without snapshots has no item")
    paimon("write", t, stdin=rows(range(5)))
    check(health(t) == [], "a table of one write has no item")
    out = paimon("inspect", t, "health").stdout.decode()
    check(out.startswith("healthy"), "table format says healthy: " + out)
    p = paimon("inspect", os.path.join(d, "missing"), "health", ok=False)
    err = p.stderr.decode()
    check(p.returncode == 1 and err.startswith("paimon: ") and err.count("\n") == 1,
          "a missing table: one line, exit 1: " + err)
    p = paimon("inspect", os.path.join(d, "missing"), "--html", os.path.join(d, "m.html"),
               ok=False)
    check(p.returncode == 1 and not os.path.exists(os.path.join(d, "m.html")),
          "--html of a missing table: exit 1, no file")

    # sorted runs: 6 level-0 files is above the compaction trigger (5), 9 above the stop
    # trigger (8)
    t = os.path.join(d, "runs")
    paimon("create", t, "--schema", "id BIGINT NOT NULL, v STRING", "--primary-key", "id",
           "--option", "bucket=1", "--option", "write-only=true")
    for k in range(6):
        paimon("write", t, stdin=rows([k]))
    it = items(t, "sorted-runs")
    check(len(it) == 1 and it[0]["severity"] == "warning" and it[0]["value"] == 6
          and it[0]["limit"] == 5 and it[0]["bucket"] == 0 and it[0]["partition"] is None,
          "sorted-runs warning: 6 runs above the trigger 5: %s" % it)
    for k in range(3):
        paimon("write", t, stdin=rows([k + 10]))
    it = items(t, "sorted-runs")
    check(len(it) == 1 and it[0]["severity"] == "critical" and it[0]["value"] == 9
          and it[0]["limit"] == 8, "sorted-runs critical: 9 runs above the stop trigger 8: %s" % it)
    check(health(t)[0]["check"] == "sorted-runs", "a critical item comes first")
    run_fix(it[0])
    check(items(t, "sorted-runs") == [], "after the fix no bucket has too many runs")

    # small files, per partition of an append table
    t = os.path.join(d, "small")
    paimon("create", t, "--schema", "dt STRING, id BIGINT, v STRING", "--partition-by", "dt",
           "--option", "write-only=true")
    for k in range(6):
        paimon("write", t, stdin=rows([k], extra='"dt":"a",'))
    for k in range(2):
        paimon("write", t, stdin=rows([k], extra='"dt":"b",'))
    it = items(t, "small-files")
    check(len(it) == 1 and it[0]["partition"] == {"dt": "a"} and it[0]["value"] == 6
          and it[0]["limit"] == 5, "small-files: partition dt=a with 6 small files: %s" % it)
    check("--partition dt=a" in it[0]["fix"], "the fix names the partition: " + it[0]["fix"])
    run_fix(it[0])
    check(items(t, "small-files") == [], "after the fix no partition piles small files")

    # deletion vectors marking a third or more of a bucket's rows
    t = os.path.join(d, "dv")
    paimon("create", t, "--schema", "id BIGINT NOT NULL, v STRING", "--primary-key", "id",
           "--option", "bucket=1", "--option", "deletion-vectors.enabled=true")
    paimon("write", t, stdin=rows(range(10)))
    paimon("compact", t, "--full")
    check(items(t, "deletion-vectors") == [], "no deletion vector yet, no item")
    paimon("write", t, stdin=rows(range(8), "b"))
    it = items(t, "deletion-vectors")
    check(len(it) == 1 and it[0]["value"] == 8 and it[0]["bucket"] == 0,
          "deletion-vectors: 8 rows marked deleted: %s" % it)
    run_fix(it[0])
    check(items(t, "deletion-vectors") == [], "after the fix no rows are marked deleted")

    # a consumer pinning snapshots, and snapshots beyond retention
    t = os.path.join(d, "retention")
    paimon("create", t, "--schema", "id BIGINT NOT NULL, v STRING", "--primary-key", "id",
           "--option", "write-only=true")
    for k in range(8):
        paimon("write", t, stdin=rows([k]))
    check(items(t, "expire-pending") == [], "8 snapshots are within the default retention")
    subprocess.run([PAIMON, "tail", t, "--follow", "--consumer", "etl", "--from", "snapshot:2",
                    "--max-snapshots", "1"], capture_output=True, timeout=60)
    paimon("alter", t, "set-option", "snapshot.num-retained.min=2")
    paimon("alter", t, "set-option", "snapshot.time-retained=1 ms")
    pin = items(t, "consumer-pinning")
    exp = items(t, "expire-pending")
    check(len(pin) == 1 and pin[0]["subject"] == "etl" and pin[0]["value"] == 7 - 3,
          "consumer-pinning: etl reads 3 next, retention would expire up to 6: %s" % pin)
    check(len(exp) == 1 and exp[0]["value"] == 2,
          "expire-pending: snapshots 1..2 (the consumer keeps 3..6): %s" % exp)
    dry = paimon("expire", t, "--dry-run").stdout.decode()
    check("would expire 2 snapshots" in dry, "paimon expire agrees: " + dry)
    run_fix(pin[0])
    check(items(t, "consumer-pinning") == [], "after the consumer's fix it pins nothing")
    exp = items(t, "expire-pending")
    check(len(exp) == 1 and exp[0]["value"] == 6, "now 6 snapshots wait for expiration: %s" % exp)
    run_fix(exp[0])
    check(items(t, "expire-pending") == [], "after expire nothing is beyond retention")
finally:
    shutil.rmtree(d, ignore_errors=True)

if FAILED:
    print("%d check(s) failed" % len(FAILED))
    sys.exit(1)
print("health: all checks passed")
