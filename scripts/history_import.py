#!/usr/bin/env python3
"""Imports the histories of many package-manifest packages, as `publish --history` would for
their owners, and counts the false alarms: packages that operator-courier and `verify TREE`
accept and the import refuses (the target is none).

    history_import.py --bin target/release/olm-release [--courier PATH] [--out DIR]
                      [--jobs N] [--only NAME,...] FOLDER...

Each FOLDER holds one package per subfolder (a package file at its top, one folder per
version), such as operator-framework/community-operators' `upstream-community-operators/` and
`community-operators/` at commit 1591b5e (July 2021: 154 and 102 such packages; check the
commit out outside this repository, e.g. `git archive 1591b5e upstream-community-operators
community-operators | tar -x -C /tmp/co`). For each package:

  verify    olm-release verify PACKAGE (the default profile, appregistry-2019): exit 0 or not
  courier   operator-courier verify PACKAGE (nested mode), when --courier or $COURIER names it
            (scripts/peers/courier.sh start prints it); cached in OUT/courier.json, since its
            verdict depends only on the files
  publish   olm-release --format json publish --history PACKAGE --registry dir:OUT/registry/N
            --namespace community --package NAME into a fresh dir: registry, then the same
            command again, which must publish nothing (every release "kept")

and prints one row per refused package, then the table: packages, accepted by courier, by
verify, published, refused with their reasons (the first error's rule, or the message), and
the false alarms. `--json FILE` writes every package's result. Nothing leaves this machine.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys


def package_name(folder):
    """The packageName of the package file at the top of `folder`, or None."""
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        if os.path.isfile(path) and entry.endswith((".yaml", ".yml")):
            with open(path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    m = re.match(r"^packageName:\s*['\"]?([^'\"\s#]+)", line)
                    if m:
                        return m.group(1)
    return None


def run(cmd, timeout=600):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "timeout"


def reason(summary, stderr):
    """Why a publish failed, in a few words: the first error's rule, or its message."""
    err = (summary or {}).get("error") or {}
    text = " ".join([err.get("message", "")] + [str(p) for p in err.get("problems", [])]
                    + [str(c) for c in err.get("causes", [])]) or stderr
    m = re.search(r"error\[([a-z0-9-]+)\]", text)
    if m:
        return f"error[{m.group(1)}]"
    text = re.sub(r"/[^\s:]*", "PATH", text.strip().splitlines()[0] if text.strip() else "")
    return text[:100]


def one(args, folder, courier_cache):
    name = os.path.basename(folder.rstrip("/"))
    pkg = package_name(folder)
    row = {"folder": folder, "name": name, "package": pkg}
    code, _, _ = run([args.bin, "verify", folder])
    row["verify"] = code == 0
    if args.courier:
        if folder not in courier_cache:
            code, _, _ = run([args.courier, "verify", folder])
            courier_cache[folder] = code == 0
        row["courier"] = courier_cache[folder]
    top = os.path.basename(os.path.dirname(folder.rstrip("/")))
    registry = os.path.join(args.out, "registry", f"{top}-{name}")
    shutil.rmtree(registry, ignore_errors=True)
    cmd = [args.bin, "--format", "json", "publish", "--history", folder,
           "--registry", f"dir:{registry}", "--namespace", "community",
           "--package", pkg or name]
    code, out, err = run(cmd)
    try:
        summary = json.loads(out) if out.strip() else None
    except json.JSONDecodeError:
        summary = None
    row["published"] = code == 0
    row["exit"] = code
    row["warnings"] = [f.get("rule") for f in (summary or {}).get("findings", [])
                       if f.get("level") == "warning"]
    row["notes"] = (summary or {}).get("notes", [])
    row["channel_head"] = (summary or {}).get("channel_head")
    row["left_out"] = err.count("is left out: no channel of the package file reaches")
    row["headless"] = err.count("is in no version folder; the channel is left out")
    if code != 0:
        row["reason"] = reason(summary, err)
        return row
    row["releases"] = len((summary or {}).get("published", []))
    code2, out2, _ = run(cmd)
    try:
        again = json.loads(out2)
    except json.JSONDecodeError:
        again = {}
    row["rerun_published"] = len(again.get("published", [])) if code2 == 0 else None
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--courier", default=os.environ.get("COURIER"))
    ap.add_argument("--out", default="_out/history-import")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--json")
    ap.add_argument("folders", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    packages = []
    for top in args.folders:
        for entry in sorted(os.listdir(top)):
            d = os.path.join(top, entry)
            if os.path.isdir(d) and package_name(d):
                packages.append(d)
    if args.only:
        wanted = set(args.only.split(","))
        packages = [p for p in packages if os.path.basename(p) in wanted]
    cache_file = os.path.join(args.out, "courier.json")
    cache = {}
    if os.path.exists(cache_file):
        with open(cache_file) as f:
            cache = json.load(f)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda p: one(args, p, cache), packages))
    with open(cache_file, "w") as f:
        json.dump(cache, f, indent=1, sort_keys=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)

    has_courier = bool(args.courier)
    reasons = {}
    false_alarms = []
    for r in rows:
        if not r["published"]:
            reasons.setdefault(r["reason"], []).append(r["name"])
            both = r["verify"] and (r.get("courier", True) if has_courier else True)
            if both:
                false_alarms.append(r)
    print(f"{'package':<44} {'courier':>8} {'verify':>7}  refused because")
    for r in rows:
        if not r["published"]:
            c = ("yes" if r.get("courier") else "no") if has_courier else "-"
            v = "yes" if r["verify"] else "no"
            print(f"{r['name']:<44} {c:>8} {v:>7}  {r['reason']}")
    n = len(rows)
    print()
    print("| packages | accepted by courier | accepted by `verify TREE` | published | refused | refused although courier and verify accept |")
    print("|---:|---:|---:|---:|---:|---:|")
    courier_ok = sum(1 for r in rows if r.get("courier")) if has_courier else "—"
    print(f"| {n} | {courier_ok} | {sum(r['verify'] for r in rows)} | "
          f"{sum(r['published'] for r in rows)} | {n - sum(r['published'] for r in rows)} | "
          f"{len(false_alarms)} |")
    print()
    print("| refused because | packages |")
    print("|---|---:|")
    for why, names in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
        print(f"| {why} | {len(names)} ({', '.join(names[:4])}{', …' if len(names) > 4 else ''}) |")
    reruns = [r for r in rows if r["published"] and r.get("rerun_published")]
    print()
    print(f"reruns that published again: {len(reruns)} {[r['name'] for r in reruns][:5]}")
    warned = {}
    for r in rows:
        for w in set(r.get("warnings") or []):
            warned[w] = warned.get(w, 0) + 1
    print("warnings (packages):", ", ".join(f"{k} {v}" for k, v in sorted(warned.items())))
    left = [r for r in rows if r.get("left_out")]
    print(f"version folders left out (on no channel): {sum(r['left_out'] for r in left)} "
          f"in {len(left)} packages {[r['name'] for r in left][:6]}")
    headless = [r for r in rows if r.get("headless")]
    print(f"channels whose head is in no version folder: {sum(r['headless'] for r in headless)} "
          f"in {len(headless)} packages {[r['name'] for r in headless][:6]}")
    for r in false_alarms:
        print(f"FALSE ALARM: {r['name']}: {r['reason']}", file=sys.stderr)
    return 1 if false_alarms else 0


if __name__ == "__main__":
    sys.exit(main())
