#!/usr/bin/env python3
"""Interleaved rounds of scripts/bench_measure.py for two builds (see scripts/bench_ab.sh).

Round r runs the two builds in the order before, after when r is even and after, before when r
is odd, so a machine that slows down or speeds up during the run weighs on both alike. Each run
measures its build's publish (a) beside the floor (c) on the same bundles and server; the
ratio a/c of a run is taken against the floor of that same run. The table: per N, the medians
over the rounds of a and a/c for each build, and the changes of both medians in percent (the
two builds ran side by side, so the change of a is the direct one; a/c also holds across
machines).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--before", required=True)
    p.add_argument("--after", required=True)
    p.add_argument("--appr", required=True)
    p.add_argument("--bundles", required=True)
    p.add_argument("--package", required=True)
    p.add_argument("--sizes", default="10,100")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    builds = {"before": a.before, "after": a.after}
    runs = {"before": [], "after": []}
    for r in range(a.rounds):
        order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
        for label in order:
            result = os.path.join(a.out, f"{label}-{r}.json")
            subprocess.run(
                [sys.executable, os.path.join(here, "bench_measure.py"), "--bin", builds[label],
                 "--appr", a.appr, "--bundles", a.bundles, "--package", a.package,
                 "--sizes", a.sizes, "--repeats", str(a.repeats),
                 "--work", os.path.join(a.out, "work"), "--out", result],
                check=True, stdout=subprocess.DEVNULL)
            with open(result) as f:
                runs[label].append(json.load(f))
            print(f"bench_ab: round {r + 1}/{a.rounds} {label} done", file=sys.stderr)

    def medians(label, n):
        rows = [doc["sizes"][n] for doc in runs[label]]
        return (statistics.median(row["a"]["wall_s"] for row in rows),
                statistics.median(row["ratio_a_c"] for row in rows),
                statistics.median(row["c"]["wall_s"] for row in rows))

    table = {}
    print(f"{a.rounds} interleaved rounds, {a.repeats} repeats each; medians over the rounds")
    print(f"before: {a.before}\nafter:  {a.after}\n")
    head = (f"{'N':>5} | {'before (a)':>10} {'floor':>7} {'a/floor':>8} | {'after (a)':>10} "
            f"{'floor':>7} {'a/floor':>8} | {'a':>7} {'a/floor':>8}")
    print(head)
    print("-" * len(head))
    for n in a.sizes.split(","):
        (ba, br, bc), (aa, ar, ac) = medians("before", n), medians("after", n)
        change, change_a = (ar / br - 1) * 100, (aa / ba - 1) * 100
        table[n] = {"before_a_s": ba, "before_floor_s": bc, "before_ratio": br,
                    "after_a_s": aa, "after_floor_s": ac, "after_ratio": ar,
                    "change_a_percent": round(change_a, 1), "change_ratio_percent": round(change, 1)}
        print(f"{n:>5} | {ba:9.3f}s {bc:6.3f}s {br:8.2f} | {aa:9.3f}s {ac:6.3f}s {ar:8.2f} | "
              f"{change_a:+6.1f}% {change:+7.1f}%")
    with open(os.path.join(a.out, "ab.json"), "w") as f:
        json.dump({"rounds": a.rounds, "repeats": a.repeats, "before": a.before,
                   "after": a.after, "sizes": table}, f, indent=2)


if __name__ == "__main__":
    main()
