#!/usr/bin/python3
"""Random write transactions through the `paimon` SQLite module, checked against a native
SQLite table receiving the same statements (issue 16).

Each transaction runs a few statements (INSERT OR REPLACE of one or several rows, INSERT ...
SELECT, UPDATE, DELETE, and statements that fail half-way: a bad value in the last row) on
both tables, then commits or rolls back both.  Statements of one transaction touch disjoint
key ranges, because a transaction does not see its own buffered writes in the Paimon table
(docs/SQL.md); failing statements are plain INSERTs, since native SQLite keeps the rows
an INSERT OR REPLACE wrote before it failed (no statement journal) where the module keeps
none.  After every transaction the Paimon table, read by `paimon cat` and by the
oracle, must equal the native table (compare.mjs: the same multiset of canonical rows).

With NESTED, column s is an ARRAY<STRING> in Paimon (a TEXT of its canonical JSON in the
native table), so the transactions go through the JSONL commit of tables with nested
columns (src/sqlite/txn_json.c) instead of the columnar one (txn_arrow.c).

Usage: random_writes.py EXTENSION PAIMON_CLI ORACLE_DIR TMPDIR [SEED [TRANSACTIONS [NESTED]]]
"""
import json
import os
import random
import sqlite3
import subprocess
import sys

ext, cli, oracle, tmp = sys.argv[1:5]
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 16
count = int(sys.argv[6]) if len(sys.argv) > 6 else 20
nested = len(sys.argv) > 7 and sys.argv[7] == "nested"
if nested:  # canonical JSON, as `paimon cat` prints it
    S_VALUES = ['["a"]', '[]', '["it\'s",null]', None, '["é","b"]', '[""]']
    S_M, S_OK, S_BAD = "'[\"m\"]'", "'[\"ok\"]'", "'[\"bad\"]'"
else:
    S_VALUES = ["a", "b", "it's", "", None, "é"]
    S_M, S_OK, S_BAD = "'m'", "'ok'", "'bad'"
rng = random.Random(seed)
table = os.path.join(tmp, "wh", "db.db", "t")
child_env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}


def run(args, out=None):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env,
                       text=True)
    if out:
        with open(out, "w") as f:
            f.write(r.stdout)
    if r.returncode != 0:
        sys.exit("FAIL: %s: %s" % (" ".join(args), (r.stderr + r.stdout).strip()))


run([cli, "create", table, "--schema",
     "k INT NOT NULL, v BIGINT, s %s" % ("ARRAY<STRING>" if nested else "STRING"),
     "--primary-key", "k", "--option", "bucket=2"])
db = sqlite3.connect(":memory:", isolation_level=None)
db.enable_load_extension(True)
db.load_extension(ext)
db.execute("CREATE VIRTUAL TABLE p USING paimon('%s')" % table.replace("'", "''"))
# A CHECK, not STRICT: SQLite makes a statement atomic on a CHECK failure, not on a STRICT
# type error (it keeps the rows written before it).
db.execute("CREATE TABLE n(k INTEGER PRIMARY KEY, "
           "v INTEGER CHECK (typeof(v) IN ('integer', 'null')), s TEXT)")


def statement(base):
    """One random statement over keys base..base+19: (sql with {t}, params, must_fail)."""
    kind = rng.choice(["insert", "insert", "multi", "select", "update", "delete", "bad",
                       "bad_update"])
    k = base + rng.randrange(20)
    v = rng.randrange(-1000, 1000)
    s = rng.choice(S_VALUES)
    if kind == "insert":
        return "INSERT OR REPLACE INTO {t}(k, v, s) VALUES (?, ?, ?)", (k, v, s), False
    if kind == "multi":
        ks = rng.sample(range(base, base + 20), 3)
        return ("INSERT OR REPLACE INTO {t}(k, v, s) VALUES (?, ?, " + S_M + "), (?, ?, NULL), "
                "(?, ?, ?)",
                (ks[0], v, ks[1], v + 1, ks[2], None, s), False)
    if kind == "select":
        return ("INSERT OR REPLACE INTO {t}(k, v, s) SELECT k + 10, v * 2, s FROM {t} "
                "WHERE k >= ? AND k < ?", (base, base + 10), False)
    if kind == "update":
        lo = base + rng.randrange(20)
        return ("UPDATE {t} SET v = v + ?, s = ? WHERE k BETWEEN ? AND ?",
                (v, s, lo, lo + rng.randrange(6)), False)
    if kind == "delete":
        lo = base + rng.randrange(20)
        return "DELETE FROM {t} WHERE k BETWEEN ? AND ?", (lo, lo + rng.randrange(4)), False
    if kind == "bad":
        return ("INSERT INTO {t}(k, v, s) VALUES (?, ?, " + S_OK + "), (?, 'abc', " + S_BAD + ")",
                (k, v, base + (k - base + 1) % 20), True)
    top = db.execute("SELECT max(k) FROM n WHERE k BETWEEN ? AND ?", (base, base + 19)).fetchone()[0]
    if top is None:  # nothing to update in the range: fail an insert instead
        return ("INSERT INTO {t}(k, v, s) VALUES (?, 1, " + S_OK + "), (?, 'abc', " + S_BAD + ")",
                (base, base + 1), True)
    return ("UPDATE {t} SET v = CASE WHEN k = ? THEN 'abc' ELSE v + 1 END WHERE k >= ? AND k <= ?",
            (top, base, base + 19), True)


def dump_native(path):
    with open(path, "w") as f:
        for k, v, s in db.execute("SELECT k, v, s FROM n"):
            if nested and s is not None:
                s = json.loads(s)
            f.write(json.dumps({"k": k, "v": v, "s": s}, ensure_ascii=False) + "\n")


def check(n):
    dump_native(os.path.join(tmp, "native"))
    run([cli, "cat", table, "--format", "jsonl"], os.path.join(tmp, "cat"))
    run(["node", os.path.join(oracle, "compare.mjs"), os.path.join(tmp, "native"),
         os.path.join(tmp, "cat")])
    run(["node", os.path.join(oracle, "oracle.mjs"), table], os.path.join(tmp, "oracle"))
    run(["node", os.path.join(oracle, "compare.mjs"), os.path.join(tmp, "native"),
         os.path.join(tmp, "oracle")])


committed = rolled_back = failed = 0
for n in range(count):
    stmts = [statement(i * 20) for i in rng.sample(range(5), rng.randrange(1, 4))]
    db.execute("BEGIN")
    for sql, params, must_fail in stmts:
        for t in ("p", "n"):
            try:
                db.execute(sql.format(t=t), params)
                ok = True
            except sqlite3.Error as e:
                ok = False
                if t == "p" and "column" not in str(e):
                    sys.exit("FAIL: the error names no column: %s" % e)
            if ok == must_fail:
                sys.exit("FAIL: transaction %d, %s %s on %s: %s" %
                         (n, sql, params, t, "succeeded" if ok else "failed"))
        failed += must_fail
    commit = n % 3 != 1  # every third transaction is rolled back
    db.execute("COMMIT" if commit else "ROLLBACK")
    committed += commit
    rolled_back += not commit
    check(n)
print("random_writes: %d transactions (%d committed, %d rolled back, %d statements failed "
      "half-way), the Paimon table equals the native one after each" %
      (count, committed, rolled_back, failed))
