#!/usr/bin/env python3
"""Times `olm-release import` on the largest packages (by version count) of a community
catalog repository in OperatorHub's layout (operators/<package>/<version>/{manifests,metadata}),
such as redhat-openshift-ecosystem/community-operators-prod or k8s-operatorhub/community-operators,
and prints one row per package: versions, seconds, seconds per version, and the rerun's seconds
(which must write nothing).

    bench_import.py --bin PATH/olm-release --repo GIT_DIR [--top 5] [--only NAME,...]
                    [--history] [--out DIR] [--rev HEAD]

GIT_DIR is a clone (or a bare mirror) of the repository; each package folder is exported with
`git archive REV operators/NAME` into OUT/src (nothing of the repository is kept in this one).
The import writes the bundle images to an oci: layout (OUT/images/NAME) and the catalog to a
dir: folder (OUT/catalog/NAME), both on this machine; with --history, `publish --history` into
a dir: app registry (OUT/registry/NAME) is timed as well. Nothing leaves this machine.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], check=True,
                          capture_output=True, text=True).stdout


def version_counts(repo, rev):
    """{package: number of version folders holding manifests/}."""
    seen = set()
    for path in git(repo, "ls-tree", "-r", "--name-only", rev, "operators").splitlines():
        parts = path.split("/")
        if len(parts) >= 4 and parts[3] == "manifests":
            seen.add((parts[1], parts[2]))
    counts = {}
    for package, _ in seen:
        counts[package] = counts.get(package, 0) + 1
    return counts


def export(repo, rev, package, into):
    target = os.path.join(into, package)
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(into, exist_ok=True)
    archive = subprocess.run(["git", "--git-dir", repo, "archive", rev, f"operators/{package}"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", into, "--strip-components=1"], input=archive, check=True)
    return target


def timed(cmd, env):
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return time.monotonic() - start, p


def written(p):
    """How many writes a --format json run made (its summary's `published`), or None."""
    try:
        return len(json.loads(p.stdout).get("published") or [])
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--history", action="store_true")
    ap.add_argument("--out", default="_out/bench-import")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    counts = version_counts(args.repo, args.rev)
    if args.only:
        packages = [p for p in args.only.split(",") if p]
    else:
        packages = sorted(counts, key=lambda p: (-counts[p], p))[: args.top]
    env = dict(os.environ, SOURCE_DATE_EPOCH="0")
    print(f"{'package':32} {'versions':>8} {'import s':>9} {'s/version':>9} {'rerun s':>8}"
          + (f" {'history s':>9} {'s/version':>9}" if args.history else "") + "  result")
    for package in packages:
        src = export(args.repo, args.rev, package, os.path.join(out, "src"))
        images = os.path.join(out, "images", package)
        catalog = os.path.join(out, "catalog", package)
        for d in (images, catalog):
            shutil.rmtree(d, ignore_errors=True)
        cmd = [args.bin, "--format", "json", "import", src, "--image-target", f"oci:{images}",
               "--image", f"quay.io/example/{package}-bundle", "--catalog", f"dir:{catalog}"]
        seconds, first = timed(cmd, env)
        rerun, second = timed(cmd, env)
        n = counts.get(package, 0)
        result = "ok" if first.returncode == 0 else f"exit {first.returncode}"
        if first.returncode == 0 and second.returncode != 0:
            result = f"rerun exit {second.returncode}"
        elif first.returncode == 0 and written(second) != 0:
            result = f"rerun wrote {written(second)}"
        row = f"{package:32} {n:8} {seconds:9.2f} {seconds / max(n, 1):9.3f} {rerun:8.2f}"
        if args.history:
            registry = os.path.join(out, "registry", package)
            shutil.rmtree(registry, ignore_errors=True)
            hcmd = [args.bin, "publish", "--history", src, "--registry", f"dir:{registry}",
                    "--namespace", "community", "--package", package]
            hs, hp = timed(hcmd, env)
            row += f" {hs:9.2f} {hs / max(n, 1):9.3f}"
            if hp.returncode != 0:
                result += f"; history exit {hp.returncode}"
        print(row + "  " + result, flush=True)
        if first.returncode != 0:
            tail = (first.stderr.strip().splitlines() or [""])[-12:]
            print("    " + "\n    ".join(tail), file=sys.stderr)


if __name__ == "__main__":
    main()
