#!/usr/bin/env python3
"""Writes a random workload for table t(id, k, v, cnt) as SQL on stdout (for psql).

Usage: workload.py SEED STATEMENTS

Single statements and multi-statement transactions of: inserts (ids from sequence ids),
updates of a few rows (v changed, cnt incremented: every update adds one to cnt), primary
key changes (id moved to a new id from the sequence), deletes.  Every statement touches
rows chosen by PostgreSQL's random(), so it never fails on a missing row."""
import random
import sys

seed, count = int(sys.argv[1]), int(sys.argv[2])
rnd = random.Random(seed)

def statement():
    r = rnd.random()
    if r < 0.35:
        n = rnd.randint(1, 5)
        return ("INSERT INTO t (id, k, v) SELECT nextval('ids'), (random()*100)::int, "
                "md5(random()::text) FROM generate_series(1, %d);" % n)
    if r < 0.70:
        return ("UPDATE t SET v = md5(random()::text), k = k + 1, cnt = cnt + 1 WHERE id IN "
                "(SELECT id FROM t ORDER BY random() LIMIT %d);" % rnd.randint(1, 3))
    if r < 0.82:
        return ("UPDATE t SET id = nextval('ids'), cnt = cnt + 1 WHERE id = "
                "(SELECT id FROM t ORDER BY random() LIMIT 1);")
    return "DELETE FROM t WHERE id = (SELECT id FROM t ORDER BY random() LIMIT 1);"

print("\\set ON_ERROR_STOP 1")
i = 0
while i < count:
    if rnd.random() < 0.3:
        n = rnd.randint(2, 5)
        print("BEGIN;")
        for _ in range(n):
            print(statement())
        print("COMMIT;")
        i += n
    else:
        print(statement())
        i += 1
