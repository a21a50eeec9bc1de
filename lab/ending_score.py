#!/usr/bin/env python3
"""Solved share of an ending suite run by piece count and by result.

Usage: python3 lab/ending_score.py RUN.json

RUN.json is the output of `buffgreen suite --json RUN.json ... tests/data/suites/endings-*.txt`;
the `result` and `pieces` fields are read from the suite files it names.
"""

import collections
import json
import sys


def fields(path):
    """id -> (result, pieces) of the suite file at path."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            parts = dict(p.strip().split(" ", 1) for p in line.split(" ; ")[1:])
            out[parts["id"]] = (parts["result"], int(parts["pieces"]))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        run = json.load(f)
    known = {}
    for path in {p["file"] for p in run["positions"]}:
        known.update(fields(path))
    by = collections.defaultdict(lambda: [0, 0])
    for p in run["positions"]:
        result, pieces = known[p["id"]]
        rules = "english" if "LongKings=false" in p["rules"] else "default"
        for key in (f"{rules} all", f"{rules} {result}", f"{rules} {pieces:2} pieces"):
            by[key][0] += int(p["solved"])
            by[key][1] += 1
    for key in sorted(by):
        solved, total = by[key]
        print(f"{key:24} {solved:5}/{total:<5} {100.0 * solved / total:5.1f}%")


if __name__ == "__main__":
    main()
