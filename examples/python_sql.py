#!/usr/bin/python3
"""SQL over a Paimon table from Python, with nothing but Python's own sqlite3 module and
libpaimon_sqlite (docs/SQL.md).

    paimon create wh/shop.db/orders --schema 'id BIGINT, dt DATE, amount DECIMAL(10, 2)' \\
        --primary-key dt,id --partition-by dt
    python3 examples/python_sql.py wh/shop.db/orders [path/to/libpaimon_sqlite.so]

Without the second argument SQLite looks for libpaimon_sqlite on the library path.  The
example inserts three orders in one transaction (one Paimon commit), changes one, then
reads the table back with a GROUP BY and the table's snapshots through the system table.
"""
import sqlite3
import sys

table = sys.argv[1]
extension = sys.argv[2] if len(sys.argv) > 2 else "libpaimon_sqlite"

conn = sqlite3.connect(":memory:")
conn.enable_load_extension(True)
conn.load_extension(extension)  # entry point sqlite3_paimon_init
conn.enable_load_extension(False)

conn.execute("CREATE VIRTUAL TABLE orders USING paimon('%s')" % table.replace("'", "''"))
conn.execute("CREATE VIRTUAL TABLE snapshots USING paimon('%s$snapshots')" % table.replace("'", "''"))

with conn:  # one transaction: one snapshot
    conn.executemany("INSERT INTO orders(id, dt, amount) VALUES (?, ?, ?)",
                     [(1, "2026-04-19", 12.5), (2, "2026-04-19", 7.25), (3, "2026-04-20", 100)])
with conn:
    conn.execute("UPDATE orders SET amount = amount + 1 WHERE dt = '2026-04-19' AND id = 2")

for dt, n, total in conn.execute(
        "SELECT dt, COUNT(*), SUM(amount) FROM orders GROUP BY dt ORDER BY dt"):
    print("%s: %d orders, %.2f" % (dt, n, total))
for snapshot_id, kind in conn.execute("SELECT snapshot_id, commit_kind FROM snapshots"):
    print("snapshot %d %s" % (snapshot_id, kind))
