#!/usr/bin/python3
"""Reads the Avro files paimon-c wrote (interop_write_manifests DIR) with Debian's
python3-avro and checks that every record equals the JSON line paimon-c says it wrote,
and that the writer schema equals Java 1.4.2's reference schema of the oracle.

usage: /usr/bin/python3 read_avro.py DIR REF_SCHEMA_DIR
"""
import base64
import glob
import json
import os
import sys

from avro.datafile import DataFileReader
from avro.io import DatumReader

REFS = {
    "manifest-list": "manifest-list-1.4-2.0.json",
    "manifest": "manifest-1.3-2.0.json",
    "index-manifest": "index-manifest-1.4.json",
}


def plain(v):
    """python-avro values -> the JSON form the C writer dumped (bytes as base64)."""
    if isinstance(v, bytes):
        return base64.b64encode(v).decode()
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if hasattr(v, "timestamp") and hasattr(v, "tzinfo"):  # timestamp-millis -> datetime
        import datetime
        epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        delta = v - epoch
        return (delta.days * 86400 + delta.seconds) * 1000 + delta.microseconds // 1000
    return v


def kind_of(name):
    for k in ("manifest-list", "index-manifest", "manifest"):
        if name.startswith(k):
            return k
    raise ValueError(name)


def main():
    directory, refs = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(directory, "*.avro")))
    if len(files) < 13:
        print("expected at least 13 files, found %d" % len(files))
        return 1
    records = 0
    for path in files:
        name = os.path.basename(path)
        with open(path, "rb") as f:
            reader = DataFileReader(f, DatumReader())
            schema = json.loads(reader.meta["avro.schema"].decode())
            got = [plain(r) for r in reader]
            reader.close()
        ref = json.load(open(os.path.join(refs, REFS[kind_of(name)])))["schema"]
        if schema != ref:
            print("%s: writer schema differs from the Java 1.4.2 reference" % name)
            return 1
        want = [json.loads(line) for line in open(path[:-5] + ".jsonl")]
        if got != want:
            for i, (a, b) in enumerate(zip(got, want)):
                if a != b:
                    print("%s record %d:\n python-avro %s\n paimon-c    %s" % (name, i, a, b))
                    break
            print("%s: %d records read, %d written" % (name, len(got), len(want)))
            return 1
        records += len(got)
    print("python3-avro: %d files, %d records, all equal; schemas equal Java 1.4.2's" % (len(files), records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
