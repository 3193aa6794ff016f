#!/usr/bin/env python3
"""The measurements of scripts/bench.sh, side by side, in one run.

For each bundle size N it times, on the same bundle folder and the same appr server:
  (a) olm-release publish DIR            read + package + verify + push (+ proof by pull-back)
  (b) operator-courier verify DIR; operator-courier push DIR ...   (through the loopback wrapper)
  (c) the floor: tar czf + sha256sum + base64 + one curl POST of the same files
and, for the 100-CSV release (a) published, fetch-previous:
  olm-release registry show NS/PKG default   (list, blob, unpack, digest check, parse)
  vs the floor: one curl GET of the blob + tar xzf.

Each measurement runs `repeats` times (each with its own namespace, so every push is a first
push) and the median is kept. Wall time is measured here around the process; peak memory is
the maximum resident set size GNU time reports (%M), or, without /usr/bin/time, the rusage of
the reaped child. The table goes to stdout, everything as JSON to --out.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
TOKEN = "basic YmVuY2g6YmVuY2g="  # appr ignores credentials; courier needs some string


def run(cmd, env=None, label=""):
    """Runs cmd (a list, or a shell string); returns (wall seconds, peak RSS in KiB)."""
    shell = isinstance(cmd, str)
    full_env = dict(os.environ, **(env or {}))
    if GNU_TIME:
        with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
            argv = [GNU_TIME, "-f", "%M", "-o", t.name]
            argv += ["bash", "-c", cmd] if shell else cmd
            start = time.perf_counter()
            p = subprocess.run(argv, env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            wall = time.perf_counter() - start
            rss = int(t.read().strip().splitlines()[-1] or 0)
    else:
        start = time.perf_counter()
        p = subprocess.Popen(
            ["bash", "-c", cmd] if shell else cmd,
            env=full_env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - start
        p.returncode = os.waitstatus_to_exitcode(status)
        p.stderr = p.stderr.read()
        rss = usage.ru_maxrss
    if p.returncode != 0:
        sys.exit(f"bench: {label} failed (exit {p.returncode}):\n{p.stderr.decode(errors='replace')[-3000:]}")
    return wall, rss


def median_of(samples):
    walls = [s[0] for s in samples]
    rsss = [s[1] for s in samples]
    return {
        "wall_s": round(statistics.median(walls), 4),
        "peak_rss_kib": int(statistics.median(rsss)),
        "runs_s": [round(w, 4) for w in walls],
    }


def dir_bytes(path):
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", required=True)
    p.add_argument("--appr", required=True, help="APPR_URL, e.g. http://127.0.0.1:PORT/cnr")
    p.add_argument("--bundles", required=True, help="folder with one bundle folder per N")
    p.add_argument("--package", required=True)
    p.add_argument("--sizes", default="10,100,500")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--courier-python")
    p.add_argument("--courier-wrapper")
    p.add_argument("--courier-repeats-above-100", type=int, default=1,
                   help="repeats of (b) for N > 100 (courier needs minutes there)")
    p.add_argument("--model", default="")
    p.add_argument("--work", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--extra", default="{}", help="JSON merged into the result (build figures)")
    a = p.parse_args()

    sizes = [int(s) for s in a.sizes.split(",") if s]
    appr = a.appr.rstrip("/")
    appr_base = appr[: -len("/cnr")] if appr.endswith("/cnr") else appr
    os.makedirs(a.work, exist_ok=True)
    tag = f"{os.getpid()}"
    env_a = {"QUAY_TOKEN": TOKEN}
    courier = bool(a.courier_python and a.courier_wrapper)
    results = {}
    published_100 = None

    for n in sizes:
        bundle = os.path.join(a.bundles, str(n))
        release = f"0.{n}.0"
        row = {"bundle_bytes": dir_bytes(bundle), "csvs": n}
        samples = {"a": [], "b": [], "c": []}
        for rep in range(a.repeats):
            ns = f"a{n}x{rep}p{tag}"
            samples["a"].append(run(
                [a.bin, "-q", "publish", bundle, "--registry", appr, "--namespace", ns,
                 "--package", a.package, "--release", release],
                env_a, f"(a) olm-release publish N={n}"))
            if n == 100 and published_100 is None:
                published_100 = (ns, release)

            ns = f"c{n}x{rep}p{tag}"
            w = os.path.join(a.work, f"floor-{n}-{rep}")
            os.makedirs(w, exist_ok=True)
            floor = (
                f"set -e; tar czf {w}/b.tgz -C {bundle} . && sha256sum {w}/b.tgz >/dev/null && "
                f"{{ printf '{{\"blob\":\"'; base64 -w0 {w}/b.tgz; "
                f"printf '\",\"release\":\"{release}\",\"media_type\":\"helm\"}}'; }} > {w}/body.json && "
                f"curl -sSf -X POST -H 'Content-Type: application/json' --data-binary @{w}/body.json "
                f"{appr}/api/v1/packages/{ns}/{a.package} >/dev/null"
            )
            samples["c"].append(run(floor, None, f"(c) floor N={n}"))

            if courier and (n <= 100 or rep < a.courier_repeats_above_100):
                ns = f"b{n}x{rep}p{tag}"
                py, wr = a.courier_python, a.courier_wrapper
                cmd = (f"set -e; {py} {wr} verify {bundle} >/dev/null && "
                       f"{py} {wr} push {bundle} {ns} {a.package} {release} '{TOKEN}' >/dev/null")
                samples["b"].append(run(cmd, {"APPR_LOCAL": appr_base}, f"(b) courier N={n}"))
            print(f"bench: N={n} run {rep + 1}/{a.repeats} done", file=sys.stderr)
        for k, v in samples.items():
            if v:
                row[k] = median_of(v)
        if "b" in row:
            row["ratio_a_b"] = round(row["a"]["wall_s"] / row["b"]["wall_s"], 4)
            row["courier_slower_x"] = round(row["b"]["wall_s"] / row["a"]["wall_s"], 1)
        row["ratio_a_c"] = round(row["a"]["wall_s"] / row["c"]["wall_s"], 3)
        row["memory_budget_kib"] = (3 * row["bundle_bytes"]) // 1024 + 32 * 1024
        results[str(n)] = row

    fetch = None
    if published_100:
        ns, release = published_100
        ours, floor = [], []
        for rep in range(a.repeats):
            ours.append(run([a.bin, "registry", "show", "--registry", appr, f"{ns}/{a.package}", "default"],
                            env_a, "fetch-previous: olm-release registry show"))
            w = os.path.join(a.work, f"fetch-{rep}")
            shutil.rmtree(w, ignore_errors=True)
            os.makedirs(w)
            floor.append(run(
                f"set -e; curl -sSf -o {w}/b.tgz {appr}/api/v1/packages/{ns}/{a.package}/{release}/helm/pull "
                f"&& tar xzf {w}/b.tgz -C {w}", None, "fetch-previous floor"))
        fetch = {"release": f"{ns}/{a.package} {release}", "olm_release": median_of(ours), "floor": median_of(floor)}
        fetch["ratio"] = round(fetch["olm_release"]["wall_s"] / fetch["floor"]["wall_s"], 3)

    targets = evaluate(results, fetch)
    doc = {
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "model": a.model,
        "appr": appr,
        "repeats": a.repeats,
        "memory_tool": "GNU time %M" if GNU_TIME else "wait4 ru_maxrss",
        "sizes": results,
        "fetch_previous_100": fetch,
        "targets": targets,
    }
    doc.update(json.loads(a.extra))
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=2)
    print_table(results, fetch, targets)
    print(f"\nwritten: {a.out}")


def evaluate(results, fetch):
    t = {}
    r100 = results.get("100")
    if r100:
        t["a_le_1.5x_floor_at_100"] = {"value": r100["ratio_a_c"], "ok": r100["ratio_a_c"] <= 1.5}
        if "courier_slower_x" in r100:
            t["courier_ge_50x_slower_at_100"] = {"value": r100["courier_slower_x"], "ok": r100["courier_slower_x"] >= 50}
    if "10" in results and "500" in results:
        # Linear: the cost per CSV added from 100 to 500 is no more than 1.5x that from 10 to 100.
        a10, a100, a500 = (results[k]["a"]["wall_s"] for k in ("10", "100", "500"))
        low, high = (a100 - a10) / 90, (a500 - a100) / 400
        t["linear_in_n"] = {"per_csv_10_100_ms": round(low * 1000, 3), "per_csv_100_500_ms": round(high * 1000, 3),
                            "ok": high <= 1.5 * low}
    t["memory"] = {
        n: {"peak_kib": r["a"]["peak_rss_kib"], "budget_kib": r["memory_budget_kib"],
            "ok": r["a"]["peak_rss_kib"] < r["memory_budget_kib"]}
        for n, r in results.items()
    }
    if fetch:
        t["fetch_previous_lt_2x_floor"] = {"value": fetch["ratio"], "ok": fetch["ratio"] < 2}
    return t


def print_table(results, fetch, targets):
    head = f"{'N':>5} {'bundle':>9} | {'(a) olm-release':>22} | {'(b) courier':>22} | {'(c) floor':>22} | {'a/b':>8} {'a/c':>6}"
    print(head)
    print("-" * len(head))
    cell = lambda m: f"{m['wall_s']:8.3f}s {m['peak_rss_kib'] / 1024:7.1f}MiB" if m else f"{'-':>22}"
    for n, r in results.items():
        ab = f"{r['ratio_a_b']:.4f}" if "ratio_a_b" in r else "-"
        print(f"{n:>5} {r['bundle_bytes'] / 1048576:7.2f}MB | {cell(r.get('a')):>22} | {cell(r.get('b')):>22} | "
              f"{cell(r.get('c')):>22} | {ab:>8} {r['ratio_a_c']:6.2f}")
    if fetch:
        print(f"\nfetch-previous of {fetch['release']}: olm-release {cell(fetch['olm_release'])}, "
              f"floor (curl + tar xzf) {cell(fetch['floor'])}, ratio {fetch['ratio']:.2f}")
    print("\ntargets:")
    for k, v in targets.items():
        if k == "memory":
            for n, m in v.items():
                print(f"  memory N={n}: peak {m['peak_kib'] / 1024:.1f} MiB < budget {m['budget_kib'] / 1024:.1f} MiB: {'ok' if m['ok'] else 'MISS'}")
        else:
            print(f"  {k}: {json.dumps({x: y for x, y in v.items() if x != 'ok'})} {'ok' if v['ok'] else 'MISS'}")


if __name__ == "__main__":
    main()
