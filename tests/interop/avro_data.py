#!/usr/bin/python3
"""Avro data files paimon-c wrote (interop_avro_data_gen write DIR), read by Debian's
python3-avro: every file decodes, with the logical types Paimon uses (decimal as Decimal,
date, time-millis, timestamp-* and local-timestamp-*), the writer schema is Java 1.4.2's
for this row type, and the records are written back (deflate) to DIR/python-<name>.avro
for paimon-c to read.

usage: /usr/bin/python3 avro_data.py DIR
"""
import datetime
import decimal
import glob
import json
import os
import sys

from avro.datafile import DataFileReader, DataFileWriter
from avro.io import DatumReader, DatumWriter

d = sys.argv[1]
files = sorted(glob.glob(os.path.join(d, "paimon-*.avro")))
assert len(files) == 4, files
for path in files:
    with open(path, "rb") as f:
        reader = DataFileReader(f, DatumReader())
        schema = reader.datum_reader.writers_schema
        codec = reader.get_meta("avro.codec").decode()
        records = list(reader)
    # the writer schema as Java's AvroSchemaConverter builds it
    js = json.loads(reader.get_meta("avro.schema").decode())
    assert js["name"] == "record" and js["namespace"] == "org.apache.paimon.avro.generated", js
    fields = {f["name"]: f["type"] for f in js["fields"]}
    assert fields["i"] == "int", fields["i"]
    assert fields["dec"] == ["null", {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}]
    assert fields["ts3"] == ["null", {"type": "long", "logicalType": "timestamp-millis"}]
    assert fields["ltz6"] == ["null", {"type": "long", "logicalType": "local-timestamp-micros"}]
    assert fields["r"][1]["name"] == "record_r", fields["r"]
    assert fields["im"][1]["type"] == "array" and fields["im"][1]["logicalType"] == "map"
    assert len(records) == 3000, len(records)
    # python3-avro's view of the logical types
    seen = {"dec": False, "dt": False, "ts3": False, "tm": False}
    for r in records:
        if r["dec"] is not None:
            assert isinstance(r["dec"], decimal.Decimal) and r["dec"].as_tuple().exponent == -2
            seen["dec"] = True
        if r["dt"] is not None:
            assert isinstance(r["dt"], datetime.date)
            seen["dt"] = True
        if r["ts3"] is not None:
            assert isinstance(r["ts3"], datetime.datetime)
            seen["ts3"] = True
        if r["tm"] is not None:
            assert isinstance(r["tm"], datetime.time)
            seen["tm"] = True
    assert all(seen.values()), seen
    assert records[1]["i"] == -2147483648
    out = os.path.join(d, "python-" + os.path.basename(path)[len("paimon-"):])
    with open(out, "wb") as f:
        w = DataFileWriter(f, DatumWriter(), schema, codec="deflate")
        for r in records:
            w.append(r)
        w.close()
    print("%s (%s): %d records, written back" % (os.path.basename(path), codec, len(records)))
