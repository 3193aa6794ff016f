#!/usr/bin/env python3
"""olm-release's catalog entries against opm's, for a community catalog's own bundles.

The OpenShift community catalog (redhat-openshift-ecosystem/community-operators-prod) keeps each
bundle as a folder, operators/<package>/<version>/{manifests,metadata}, and, for the packages
that moved to file-based catalogs, catalogs/v4.NN/<package>/catalog.{yaml,json} that its pipeline
rendered with opm from those bundles' images. For every package with both, this reads each version
folder with olm-release's entry builder (the fbc_entry example of crates/olm, which adds the
bundle to an empty catalog as a first release) and compares, as data, its olm.bundle document with
the one opm wrote for the bundle of the same name (in the newest catalog listing it, in the style
that catalog uses: olm.csv.metadata or olm.bundle.object), and the package document olm-release
writes for the newest version with opm's. Images differ by registry, so olm-release's entry lists
opm's image. Prints a table: packages, bundles compared, and per field the bundles that differ.

Usage: scripts/opm_agree.py [--repo GIT_DIR] [--bin FBC_ENTRY] [-v] [PACKAGE...]
  --repo  a clone (or bare snapshot) of community-operators-prod; read with git archive/show
  --bin   the built example (default: built with cargo into $CARGO_TARGET_DIR or target/)
  -v      print each difference
"""

import argparse
import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter, defaultdict

import yaml



class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """YAML as Kubernetes' decoder reads it: a timestamp stays a string."""


Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in Loader.yaml_implicit_resolvers.items()
}

DEPENDENCY_TYPES = {"olm.gvk.required", "olm.package.required", "olm.constraint", "olm.label.required"}
OWN_TYPES = {"olm.package", "olm.gvk", "olm.csv.metadata", "olm.bundle.object"} | DEPENDENCY_TYPES


def git(repo, *args, binary=False):
    out = subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True).stdout
    return out if binary else out.decode()


def catalog_files(repo):
    """{package: [(ocp minor, path)]} for catalogs/v4.NN/<package>/catalog.{yaml,json}."""
    found = defaultdict(list)
    for path in git(repo, "ls-tree", "-r", "--name-only", "HEAD", "catalogs").splitlines():
        m = re.fullmatch(r"catalogs/v4\.(\d+)/([^/]+)/[^/]+\.(ya?ml|json)", path)
        if m:
            found[m.group(2)].append((int(m.group(1)), path))
    return found


def documents(text, path):
    if path.endswith(".json"):
        dec, i, docs = json.JSONDecoder(), 0, []
        while True:
            while i < len(text) and text[i].isspace():
                i += 1
            if i >= len(text):
                return docs
            doc, i = dec.raw_decode(text, i)
            docs.append(doc)
    return [d for d in yaml.load_all(text, Loader=Loader) if d is not None]


def opm_side(repo, files, counts):
    """opm's bundles by name (newest catalog first wins) and the newest package document.
    A snapshot may lack the blobs of its largest files: those are counted and left out."""
    bundles, package = {}, None
    for _, path in sorted(files, reverse=True):
        try:
            text = git(repo, "show", f"HEAD:{path}")
        except subprocess.CalledProcessError:
            counts["catalog files absent from the snapshot"] += 1
            continue
        for doc in documents(text, path):
            if doc.get("schema") == "olm.bundle":
                bundles.setdefault(doc.get("name"), doc)
            elif doc.get("schema") == "olm.package" and package is None:
                package = doc
    return bundles, package


def semver_key(v):
    m = re.match(r"v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?", v)
    if not m:
        return (1, (), v)
    pre = m.group(4)
    pre_key = (1,) if pre is None else (0, tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")))
    return (0, (int(m.group(1)), int(m.group(2)), int(m.group(3)), pre_key), v)


def placeholder(version):
    """The pinned image olm-release's entry lists for a version folder until opm's replaces it."""
    return f"placeholder.invalid/bundle@sha256:{hashlib.sha256(version.encode()).hexdigest()}"


def our_side(repo, binary, package, tmp):
    """olm-release's documents for each version folder of the package: [(version, result)]."""
    data = git(repo, "archive", "HEAD", f"operators/{package}", binary=True)
    with tarfile.open(fileobj=__import__("io").BytesIO(data)) as tar:
        tar.extractall(tmp, filter="data")
    base = os.path.join(tmp, "operators", package)
    versions = sorted(
        (v for v in os.listdir(base) if os.path.isdir(os.path.join(base, v, "manifests"))),
        key=semver_key,
    )
    if not versions:
        return []
    args = [f"{os.path.join(base, v)}={placeholder(v)}" for v in versions]
    out = subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout
    return list(zip(versions, (json.loads(line) for line in out.splitlines())))


def short(v, n):
    """`v` on one line, cut at `n` characters."""
    return str(v).replace("\n", "\\n")[:n]


def canonical(v):
    return json.dumps(v, sort_keys=True)


def decoded_objects(props):
    out = []
    for p in props:
        if p["type"] == "olm.bundle.object":
            out.append(canonical(json.loads(base64.b64decode(p["value"]["data"]))))
    return sorted(out)


def with_image(entry, ours, theirs):
    """The entry listing opm's image where olm-release's lists its placeholder."""
    entry = json.loads(json.dumps(entry))
    entry["image"] = theirs
    for r in entry.get("relatedImages") or []:
        if r.get("image") == ours:
            r["image"] = theirs
    return entry


def fields(entry):
    """The compared fields of an olm.bundle document, each as comparable data."""
    props = entry.get("properties") or []
    by_type = defaultdict(list)
    for p in props:
        by_type[p["type"]].append(canonical(p["value"]))
    out = {
        "package": entry.get("package"),
        "olm.package": by_type.get("olm.package"),
        "olm.gvk": sorted(by_type.get("olm.gvk", [])),
        "dependencies": sorted(f"{t}={v}" for t in DEPENDENCY_TYPES for v in by_type.get(t, [])),
        "other properties": sorted(f"{t}={v}" for t, vs in by_type.items() if t not in OWN_TYPES for v in vs),
        "relatedImages": sorted(canonical(r) for r in entry.get("relatedImages") or []),
        "property order": [(p["type"], canonical(p["value"])) for p in props],
    }
    metas = [p["value"] for p in props if p["type"] == "olm.csv.metadata"]
    if metas:
        meta = metas[0]
        out["olm.csv.metadata (keys)"] = sorted(meta)
        for k, v in meta.items():
            out[f"olm.csv.metadata.{k}"] = canonical(v)
    if "olm.bundle.object" in by_type:
        out["olm.bundle.object"] = decoded_objects(props)
    return out


def compare_bundle(ours, theirs, table, details, label, reason):
    a, b = fields(ours), fields(theirs)
    for key in sorted(set(a) | set(b)):
        table[key][0] += 1
        if a.get(key) != b.get(key):
            table[key][1] += 1
            if reason:
                table[key][2][reason] += 1
            details.append(f"{label}: {key}: olm-release {short(a.get(key), 160)} | opm {short(b.get(key), 160)}"
                           + (f" [{reason}]" if reason else ""))


def keys_sorted(v):
    """Whether every mapping in `v` has its keys sorted, as opm writes them."""
    if isinstance(v, dict):
        return list(v) == sorted(v) and all(keys_sorted(x) for x in v.values())
    if isinstance(v, list):
        return all(keys_sorted(x) for x in v)
    return True


def matched(package, runs, opm_bundles, counts, details):
    """(version, run, opm's bundle or None) for each version folder olm-release read. opm's bundle
    is the one whose image is tagged with the folder's name (the pipeline tags bundle images so),
    else the one of the same name when no other folder claims it."""
    by_tag = {}
    for b in opm_bundles.values():
        image = b.get("image") or ""
        if "@" not in image and ":" in image.rsplit("/", 1)[-1]:
            by_tag[image.rsplit(":", 1)[1]] = b
    claimed = {by_tag[v]["name"] for v, _ in runs if v in by_tag}
    for version, run in runs:
        if "error" in run:
            counts["refused"] += 1
            details.append(f"{package} {version}: refused: {run['error']}")
            continue
        name = next(d for d in run["csv_metadata"] if d["schema"] == "olm.bundle")["name"]
        theirs = by_tag.get(version)
        if theirs is None and name not in claimed:
            theirs = opm_bundles.get(name)
            claimed.add(name)
        if theirs is None:
            counts["not in opm's catalogs"] += 1
        yield version, run, theirs


def template_packages(repo, package):
    """The package's catalog templates: [(schema, its olm.package entry or None)]."""
    out = []
    listing = git(repo, "ls-tree", "-r", "--name-only", "HEAD", f"operators/{package}/catalog-templates")
    for path in listing.splitlines():
        if not re.search(r"\.(ya?ml|json)$", path):
            continue
        try:
            docs = documents(git(repo, "show", f"HEAD:{path}"), path)
        except (subprocess.CalledProcessError, ValueError, yaml.YAMLError):
            continue
        for doc in docs:
            if not isinstance(doc, dict):
                continue
            # opm decodes templates with Go's encoding/json: keys match without regard to case.
            folded = {str(k).lower(): v for k, v in doc.items()}
            entries = folded.get("entries") or []
            pkg = next((e for e in entries if isinstance(e, dict) and e.get("schema") == "olm.package"), None)
            out.append((folded.get("schema"), pkg))
    # A semver template, where there is one, is what the pipeline renders.
    return sorted(out, key=lambda t: t[0] != "olm.semver")


def template_reason(templates, key, opm_value):
    """Why opm's package document says `opm_value` for `key`, when the package's template says so."""
    field = key.split(".", 1)[1]
    for schema, pkg in templates:
        if schema == "olm.semver":
            return "opm's semver template chooses it" if field == "defaultChannel" else "opm's semver template writes none"
        if pkg is not None:
            value = pkg.get(field)
            value = canonical(value) if field == "icon" else value
            if value == opm_value:
                return "the maintainer's basic template says so"
    return None


def package_fields(doc):
    doc = doc or {}
    return {
        "package.defaultChannel": doc.get("defaultChannel"),
        "package.icon": canonical(doc.get("icon")),
        "package.description": doc.get("description"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", default="/work/.mirror/redhat-openshift-ecosystem+community-operators-prod/repo")
    ap.add_argument("--bin")
    ap.add_argument("-v", action="store_true")
    ap.add_argument("packages", nargs="*")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = args.bin
    if not binary:
        subprocess.run(["cargo", "build", "-q", "-p", "olm-release-olm", "--example", "fbc_entry"], cwd=root, check=True)
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
        binary = os.path.join(target, "debug", "examples", "fbc_entry")
    catalogs = catalog_files(args.repo)
    operators = set(git(args.repo, "ls-tree", "--name-only", "HEAD", "operators/").split())
    packages = sorted(p for p in catalogs if f"operators/{p}" in operators)
    if args.packages:
        packages = [p for p in packages if p in args.packages]
    table = defaultdict(lambda: [0, 0, Counter()])
    details, counts = [], Counter()
    for package in packages:
        opm_bundles, opm_package = opm_side(args.repo, catalogs[package], counts)
        templates = template_packages(args.repo, package)
        with tempfile.TemporaryDirectory() as tmp:
            runs = our_side(args.repo, binary, package, tmp)
        counts["packages"] += 1
        counts["version folders"] += len(runs)
        newest = None
        for version, run, theirs in matched(package, runs, opm_bundles, counts, details):
            newest = run
            if theirs is None:
                continue
            objects = any(p["type"] == "olm.bundle.object" for p in theirs.get("properties") or [])
            style = "bundle_objects" if objects else "csv_metadata"
            ours = next(d for d in run[style] if d["schema"] == "olm.bundle")
            ours = with_image(ours, placeholder(version), theirs.get("image"))
            counts["bundles compared"] += 1
            counts[f"  in {style.replace('_', ' ')} style"] += 1
            # opm writes every mapping's keys sorted: a document that is not is written by hand.
            reason = None if keys_sorted(theirs) else "document not written by opm (keys unsorted)"
            compare_bundle(ours, theirs, table, details, f"{package} {version} ({ours['name']})", reason)
        if newest is not None:
            ours_pkg = next(d for d in newest["csv_metadata"] if d["schema"] == "olm.package")
            a, b = package_fields(ours_pkg), package_fields(opm_package)
            for key in a:
                row = table[key]
                row[0] += 1
                if a[key] != b[key]:
                    row[1] += 1
                    reason = template_reason(templates, key, b[key])
                    if reason:
                        row[2][reason] += 1
                    details.append(f"{package}: {key}: olm-release {short(a[key], 100)} | opm {short(b[key], 100)}"
                                   + (f" [{reason}]" if reason else ""))
    print("| | count |\n|---|---:|")
    for k in ["packages", "version folders", "bundles compared", "  in csv metadata style",
              "  in bundle objects style", "not in opm's catalogs", "refused", "catalog files absent from the snapshot"]:
        print(f"| {k.strip()} | {counts[k]} |")
    print("\n| field | compared | differ | explained |\n|---|---:|---:|---|")
    for key in sorted(table, key=lambda k: (k.startswith("package."), k)):
        compared, differ, reasons = table[key]
        why = "; ".join(f"{n}: {r}" for r, n in sorted(reasons.items()))
        print(f"| {key} | {compared} | {differ} | {why} |")
    if args.v:
        print()
        for d in details:
            print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
