#!/usr/bin/env python3
"""Time and peak memory of `olm-release verify` and `graph` on hostile bundles.

    bench_budgets.py --bin target/release/olm-release [--baseline OLD_BIN] [--out DIR]
                     [--commands verify,graph] [--only NAME,...]

Writes each input into DIR (default _out/bench-budgets), runs the binary on it and prints one
row per input: exit code, wall time and peak RSS. Peak RSS comes from GNU time
(/usr/bin/time; `apt-get install time`), which forks the binary from a process of its own
and so reports the binary alone; without it, from wait4 here, which then also counts this
script's own memory at the fork (a floor of about 10-40 MiB). With --baseline, the
same inputs run through a second binary (e.g. a build of an earlier commit) for a before/after
table; every child runs under an address-space cap (BENCH_AS_MIB, default 4096) and a timeout
(BENCH_TIMEOUT, default 120 s) so an unbounded build cannot take the machine down — such a run
shows as "cap" or "timeout".

Inputs:
  bomb            1 GiB of zeros in one tar entry, gzip -9 (about 1 MB): a gzip bomb
  bomb-entries    100 entries of 8 MiB zeros (each under any size limit: the ratio catches it)
  tiny-2.5MB      a flattened bundle whose CSV list is 3.9 M tiny items (random digits), 2.5 MB gz
  tiny-values     one CSV with a 500,000-item keywords list: just under the default value budget
  deep-100k       `data: [[[…]]]`, 100,000 levels (200 KB)
  deep-200k       the same, 200,000 levels (400 KB)
  deep-map-100k   `data: {a: {a: …}}`, 100,000 levels
  deep-99-wide    200 KB of lists nested 99 deep side by side: the deepest accepted nesting
  aliases         one anchor of 100,000 items and 100,000 aliases to it
  /dev/zero       a character device
Everything stays on this machine; no network.
"""
import argparse
import gzip
import io
import os
import random
import resource
import subprocess
import sys
import tarfile
import time
import zlib

PACKAGE = b"data:\n  packages: |\n    - packageName: p\n      channels: [{name: alpha, currentCSV: p.v1.0.0}]\n"


def tgz(path, files, level=9):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    with open(path, "wb") as f:
        f.write(gzip.compress(buf.getvalue(), level))


def zeros_tgz(path, size):
    """One entry of `size` zero bytes, streamed (never held in memory)."""
    info = tarfile.TarInfo("pkg/bundle.yaml")
    info.size = size
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    with open(path, "wb") as f:
        f.write(c.compress(info.tobuf(format=tarfile.GNU_FORMAT)))
        chunk = b"\0" * (1 << 20)
        for _ in range(size >> 20):
            f.write(c.compress(chunk))
        f.write(c.compress(b"\0" * 1024))
        f.write(c.flush())


def inputs(out):
    rnd = random.Random(17)
    made = []

    def add(name, path):
        made.append((name, path))

    p = os.path.join(out, "bomb.tar.gz")
    zeros_tgz(p, 1 << 30)
    add("bomb", p)
    p = os.path.join(out, "bomb-entries.tar.gz")
    tgz(p, [(f"pkg/f{i}.yaml", b"\0" * (8 << 20)) for i in range(100)])
    add("bomb-entries", p)
    p = os.path.join(out, "tiny.tar.gz")
    digits = [b"    - %d\n" % d for d in range(10)]
    items = b"".join(rnd.choice(digits) for _ in range(3_900_000))
    tgz(p, [("pkg/bundle.yaml", PACKAGE + b"  clusterServiceVersions: |\n" + items)])
    add("tiny-2.5MB", p)
    p = os.path.join(out, "tiny-values.tar.gz")
    letters = b"abcdefghijklmnopqrstuvwxyz"
    kw = b"".join(
        b"        - " + bytes(rnd.choice(letters) for _ in range(2)) + b"\n" for _ in range(500_000)
    )
    csv = (
        b"  clusterServiceVersions: |\n    - apiVersion: operators.coreos.com/v1alpha1\n"
        b"      kind: ClusterServiceVersion\n      metadata:\n        name: p.v1.0.0\n"
        b"      spec:\n        version: 1.0.0\n        keywords:\n" + kw
    )
    tgz(p, [("pkg/bundle.yaml", PACKAGE + csv)])
    add("tiny-values", p)
    for levels in (100_000, 200_000):
        p = os.path.join(out, f"deep{levels // 1000}k.yaml")
        with open(p, "w") as f:
            f.write("data: " + "[" * levels + "]" * levels + "\n")
        add(f"deep-{levels // 1000}k", p)
    p = os.path.join(out, "deep-map.yaml")
    with open(p, "w") as f:
        f.write("data: " + "{a: " * 100_000 + "}" * 100_000 + "\n")
    add("deep-map-100k", p)
    p = os.path.join(out, "deep-99-wide.yaml")
    unit = "[" * 96 + "x" + "]" * 96
    with open(p, "w") as f:
        f.write("data:\n  packages: [" + ", ".join([unit] * (200_000 // len(unit))) + "]\n")
    add("deep-99-wide", p)
    p = os.path.join(out, "aliases.yaml")
    with open(p, "w") as f:
        f.write("a: &a [" + ", ".join(["x"] * 100_000) + "]\n")
        f.write("data: [" + ", ".join(["*a"] * 100_000) + "]\n")
    add("aliases", p)
    add("/dev/zero", "/dev/zero")
    return made


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run(binary, args, cap_mib, timeout):
    def limit():
        cap = cap_mib << 20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    rss_file = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"bench-budgets-{os.getpid()}.rss")
    argv = [binary, *args]
    if GNU_TIME:
        argv = [GNU_TIME, "-q", "-f", "%M", "-o", rss_file, *argv]
    start = time.monotonic()
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=limit,
    )
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            _, status, usage = os.wait4(proc.pid, 0)
            return {"code": "timeout", "secs": timeout, "mib": usage.ru_maxrss / 1024}
        time.sleep(0.005)
    secs = time.monotonic() - start
    err = proc.stderr.read().decode(errors="replace").strip().splitlines()
    code = os.waitstatus_to_exitcode(status)
    kib = usage.ru_maxrss
    if GNU_TIME:
        with open(rss_file) as f:
            lines = [line for line in f.read().split() if line.isdigit()]
        kib = int(lines[-1]) if lines else kib
        os.remove(rss_file)
        err = [line for line in err if not line.startswith("Command ")]
    if code < 0 or any("memory allocation" in line for line in err) or code == 134:
        code = "cap"
    return {
        "code": code,
        "secs": secs,
        "mib": kib / 1024,
        "msg": err[-1][:110] if err else "",
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--baseline")
    ap.add_argument("--out", default="_out/bench-budgets")
    ap.add_argument("--commands", default="verify,graph")
    ap.add_argument("--only", help="comma-separated input names (default: all)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    cap = int(os.environ.get("BENCH_AS_MIB", "4096"))
    timeout = float(os.environ.get("BENCH_TIMEOUT", "120"))
    print(f"bench_budgets: writing inputs to {a.out}; peak RSS from "
          f"{GNU_TIME or 'wait4 (includes this script)'}", file=sys.stderr)
    made = inputs(a.out)
    if a.only:
        made = [(n, p) for n, p in made if n in a.only.split(",")]
    binaries = [("after", a.bin)] + ([("before", a.baseline)] if a.baseline else [])
    print(f"{'input':<16} {'size':>9} {'cmd':<7} " + " ".join(
        f"{label + ' exit':>11} {'s':>7} {'MiB':>7}" for label, _ in binaries))
    for name, path in made:
        size = os.path.getsize(path) if os.path.isfile(path) else 0
        for cmd in a.commands.split(","):
            cells = []
            msg = ""
            for label, binary in binaries:
                r = run(binary, [cmd, path], cap, timeout)
                cells.append(f"{str(r['code']):>11} {r['secs']:>7.2f} {r['mib']:>7.1f}")
                if label == "after":
                    msg = r.get("msg", "")
            print(f"{name:<16} {size:>9} {cmd:<7} " + " ".join(cells))
            print(f"{'':<16} {'':>9} {'':<7} after: {msg}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
