#!/usr/bin/env python3
"""The streaming model test of issue 13 (driven by stream_follow.test.sh).

For every merge engine x changelog producer Java 1.4.2 accepts (first-row only with none and
lookup), a writer process commits random upserts and deletes (`paimon write`, a few keys per
commit, each key at most once per commit) while `paimon tail --follow --consumer ID --format
jsonl` runs in other processes, killed with SIGKILL at random points and restarted with the
same consumer id, and finally once more until it has caught up (`--idle-exit`).

What is checked, per combination:
  * no loss, no repeat: each run's output starts with exactly the changes of the snapshots
    from where the previous run's consumer position said to resume up to the position this
    run recorded (the per-snapshot changes read one at a time with `paimon tail --from
    snapshot:I --to snapshot:I`); what it printed after its last recorded position is a
    prefix of the changes that follow (rows out of the process whose position a SIGKILL kept
    from being recorded: at-least-once within that one snapshot, and the next run re-reads
    it from the recorded position, so nothing is lost).  The first run starts with the full
    read of the latest snapshot (scan.mode latest-full) as +I rows;
  * the model: the recorded stream applied in order (with the merge engine's semantics where
    the stream carries inputs -- producer none and input -- and as before/after images for
    lookup and full-compaction) equals `paimon cat --snapshot I` at every snapshot I whose
    changes the stream carried (first-row: at the COMPACT snapshot after it, as its batch
    reads skip level 0), and at the last snapshot;
  * producer none gives no -U (updates come as upserts).
"""
import json
import os
import random
import signal
import subprocess
import sys
import time

PAIMON = os.environ["PAIMON_CLI"]
COMBOS = [
    ("deduplicate", p) for p in ("none", "input", "lookup", "full-compaction")
] + [
    ("partial-update", p) for p in ("none", "input", "lookup", "full-compaction")
] + [
    ("aggregation", p) for p in ("none", "input", "lookup", "full-compaction")
] + [("first-row", "none"), ("first-row", "lookup")]
KEYS = 8
COMMITS = int(os.environ.get("STREAM_MODEL_COMMITS", "6"))


def run(args, check=True, **kw):
    r = subprocess.run([PAIMON] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if check and r.returncode != 0:
        raise SystemExit("FAIL: paimon %s: %s" % (" ".join(args), r.stderr.decode()))
    return r.stdout.decode()


def engine_options(engine, producer):
    opts = {"bucket": "1", "changelog-producer": producer}
    if engine != "deduplicate":
        opts["merge-engine"] = engine
    if engine == "partial-update":
        opts["partial-update.remove-record-on-delete"] = "true"
    if engine == "aggregation":
        opts["fields.a.aggregate-function"] = "sum"
        opts["fields.b.aggregate-function"] = "last_non_null_value"
        opts["aggregation.remove-record-on-delete"] = "true"
    if engine == "first-row":
        opts["ignore-delete"] = "true"
    return opts


def writer(table, seed):
    """Commits COMMITS random batches; returns the Popen of a shell loop."""
    rnd = random.Random(seed)
    script = []
    deleted = set()
    for _ in range(COMMITS):
        keys = rnd.sample(range(KEYS), rnd.randint(1, 4))
        lines = []
        for k in keys:
            if rnd.random() < 0.25:
                lines.append(json.dumps({"_ROW_KIND": "-D", "k": k, "a": 0, "b": None}))
                deleted.add(k)
            else:
                # After a -D, partial-update and aggregation start the key's next row from
                # the -D's values while that record is not yet compacted away (Java's
                # removeRecordOnDelete initRow): a full row after a delete keeps the result
                # independent of when compaction runs.
                full = k in deleted
                deleted.discard(k)
                a = rnd.randint(1, 9) if full or rnd.random() < 0.85 else None
                b = rnd.choice(["x", "y", "z"] if full else ["x", "y", "z", None])
                lines.append(json.dumps({"k": k, "a": a, "b": b}))
        script.append("printf '%s\\n' | %s write %s > /dev/null || exit 1; sleep 0.0%d" % (
            "\\n".join(lines), PAIMON, table, rnd.randint(1, 6)))
    return subprocess.Popen(["sh", "-c", "\n".join(script)])


def consumer_position(table):
    try:
        with open(os.path.join(table, "consumer", "consumer-c1")) as f:
            return json.load(f)["nextSnapshot"]
    except FileNotFoundError:
        return None


def latest(table):
    ids = [int(n[len("snapshot-"):]) for n in os.listdir(os.path.join(table, "snapshot"))
           if n.startswith("snapshot-")]
    return max(ids) if ids else 0


def commit_kind(table, snapshot):
    with open(os.path.join(table, "snapshot", "snapshot-%d" % snapshot)) as f:
        return json.load(f)["commitKind"]


def rows(text):
    return [json.loads(line) for line in text.splitlines() if line]


def apply(state, row, engine, producer):
    kind = row.pop("_ROW_KIND")
    k = row["k"]
    images = producer in ("lookup", "full-compaction")
    if engine == "deduplicate" or images:
        if kind in ("+I", "+U"):
            state[k] = row
        else:
            state.pop(k, None)
        return
    if engine == "first-row":
        if kind in ("+I", "+U") and k not in state:
            state[k] = row
        return
    if kind in ("-D", "-U"):
        state.pop(k, None)
        return
    old = state.get(k)
    if old is None:
        state[k] = row
    elif engine == "partial-update":
        state[k] = {c: (row[c] if row[c] is not None else old[c]) for c in row}
    else:  # aggregation: a sum, b last_non_null_value
        a = old["a"] if row["a"] is None else (row["a"] if old["a"] is None else old["a"] + row["a"])
        state[k] = {"k": k, "a": a, "b": row["b"] if row["b"] is not None else old["b"]}


def check_combo(tmp, engine, producer, seed):
    name = "%s/%s" % (engine, producer)
    table = os.path.join(tmp, "%s-%s" % (engine, producer))
    args = ["create", table, "--schema", "k INT, a BIGINT, b STRING", "--primary-key", "k"]
    for key, value in engine_options(engine, producer).items():
        args += ["--option", "%s=%s" % (key, value)]
    run(args)
    run(["write", table], input=b'{"k":0,"a":1,"b":"x"}\n')  # so that the first run has a full phase
    rnd = random.Random(seed)
    w = writer(table, seed)
    outputs = []  # per run: (position before, text, position after)
    done = False
    while not done:
        before = consumer_position(table)
        follower = subprocess.Popen(
            [PAIMON, "tail", table, "--follow", "--consumer", "c1", "--format", "jsonl",
             "--idle-exit", "700ms"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if w.poll() is None:
            time.sleep(rnd.uniform(0.05, 0.4))
            follower.kill()
            out, err = follower.communicate()
        else:
            out, err = follower.communicate()
            if follower.returncode != 0:
                raise SystemExit("FAIL %s: the follower failed: %s" % (name, err.decode()))
            done = True
        outputs.append((before, out.decode(), consumer_position(table)))
    if w.wait() != 0:
        raise SystemExit("FAIL %s: the writer failed" % name)
    last = latest(table)
    if outputs[-1][2] != last + 1:
        raise SystemExit("FAIL %s: caught up at %s, the latest is %d" % (name, outputs[-1][2], last))

    changes = {i: rows(run(["tail", table, "--from", "snapshot:%d" % i, "--to", "snapshot:%d" % i]))
               for i in range(1, last + 1)}
    if producer == "none" and any(r["_ROW_KIND"] == "-U" for c in changes.values() for r in c):
        raise SystemExit("FAIL %s: producer none streamed a -U" % name)
    state, compared, position = {}, 0, None
    for n, (before, text, after) in enumerate(outputs):
        got = rows(text)
        if before is None:
            # no position yet: the run starts with the full read of the then latest snapshot
            if after is None:
                continue  # killed before its first snapshot was recorded: nothing accepted
            for full_id in range(after - 1, 0, -1):
                full = rows(run(["tail", table, "--follow", "--mode", "from-snapshot-full",
                                 "--option", "scan.snapshot-id=%d" % full_id,
                                 "--to", "snapshot:%d" % full_id]))
                if any(r["_ROW_KIND"] != "+I" for r in full):
                    raise SystemExit("FAIL %s: a full read gave %s" % (name, full))
                head = full + [r for i in range(full_id + 1, after) for r in changes.get(i, [])]
                following = [r for i in range(after, last + 1) for r in changes.get(i, [])]
                if got[: len(head)] == head and got[len(head):] == following[: len(got) - len(head)]:
                    break
            else:
                raise SystemExit("FAIL %s: run %d does not start with a full read: %s"
                                 % (name, n, got))
            for r in full:
                apply(state, dict(r), engine, producer)
            got, before = got[len(full):], full_id + 1
        elif position is not None and before != position:
            raise SystemExit("FAIL %s: run %d resumed at %s, the recorded position is %s"
                             % (name, n, before, position))
        end = after if after is not None else before
        expect = [r for i in range(before, end) for r in changes.get(i, [])]
        if got[: len(expect)] != expect:
            raise SystemExit("FAIL %s: run %d (snapshots %d..%d) printed\n%s\nexpected\n%s"
                             % (name, n, before, end - 1, got, expect))
        rest = got[len(expect):]
        following = [r for i in range(end, last + 1) for r in changes.get(i, [])]
        if rest != following[: len(rest)]:
            raise SystemExit("FAIL %s: run %d printed after its position %d rows that are not "
                             "the next changes: %s" % (name, n, end, rest))
        for i in range(before, end):
            for r in changes.get(i, []):
                apply(state, dict(r), engine, producer)
            if changes.get(i):
                # first-row batch reads skip level 0 (Java's rule), so the rows an APPEND
                # snapshot streamed show in the table once the writer's own compaction (the
                # COMPACT snapshot after it, which streams nothing with producer none) is in
                truth = i
                if engine == "first-row" and i < last and commit_kind(table, i + 1) == "COMPACT":
                    truth = i + 1
                table_rows = {r["k"]: r for r in rows(run(["cat", table, "--snapshot", str(truth)]))}
                if table_rows != state:
                    raise SystemExit("FAIL %s: after snapshot %d the stream gives\n%s\nthe table\n%s"
                                     % (name, i, state, table_rows))
                compared += 1
        position = end
    final = {r["k"]: r for r in rows(run(["cat", table, "--snapshot", str(last)]))}
    if final != state:
        raise SystemExit("FAIL %s: at the end the stream gives\n%s\nthe table (snapshot %d)\n%s"
                         % (name, state, last, final))
    print("ok %s: %d runs, %d snapshots, %d compared with the table, and the last"
          % (name, len(outputs), last, compared))


def main():
    tmp = sys.argv[1]
    seed = int(os.environ.get("STREAM_MODEL_SEED", "13"))
    only = os.environ.get("STREAM_MODEL_ONLY")
    for n, (engine, producer) in enumerate(COMBOS):
        if only is None or only == "%s/%s" % (engine, producer):
            check_combo(tmp, engine, producer, seed + n)


if __name__ == "__main__":
    main()
