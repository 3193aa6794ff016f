#!/usr/bin/env python3
"""Cumulative bundles for scripts/bench.sh: N CSVs chained by name, version and replaces.

    bench_bundle.py model --kubevirt DIR --out DIR
        Renders KubeVirt's v0.22.0 CSV (DIR = ../shared/kubevirt/v0.22.0) and its CRD into
        DIR/model.csv.yaml and DIR/model.crd.yaml, with the small subset of Go templates those
        files use ({{.Var}}, {{if .Var}}...{{else}}...{{end}}, {{index .GeneratedManifests "F"}}).
        Used only while `olm-release render` cannot render KubeVirt's inputs itself.

    bench_bundle.py chain --csv FILE --crd FILE --package NAME --count N --out DIR
        Writes a flat bundle folder: NAME.package.yaml (one channel, alpha, whose head is the
        newest CSV), the CRD once, and N copies of the model CSV. Copy i (1..N) has version
        0.i.0: every string of the model holding the model's version (name, image tags) gets the
        copy's version, and spec.replaces names copy i-1 (none for the first), the way a
        cumulative app-registry bundle carries every release of a channel (the app-registry bundle format).

Output is deterministic (no clocks, no randomness), so repeated runs give identical bundles.
"""
import argparse
import base64
import copy
import os
import re
import shutil
import sys

import yaml

Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class BlockDumper(Dumper):
    """Multi-line strings as literal blocks, as people (and KubeVirt's templates) write them."""


def _str(dumper, value):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


BlockDumper.add_representer(str, _str)


def dump(doc, path):
    with open(path, "w") as f:
        yaml.dump(doc, f, Dumper=BlockDumper, sort_keys=False, default_flow_style=False, width=1 << 20)


# --- model: KubeVirt v0.22.0 --------------------------------------------------------------

KUBEVIRT_VARS = {
    "CSVNamespace": "placeholder",
    "CreatedAt": "2019-10-07 12:00:00",
    "CsvVersion": "0.22.0",
    "DockerPrefix": "index.docker.io/kubevirt",
    "DockerTag": "v0.22.0",
    "ImagePullPolicy": "IfNotPresent",
    "ReplacesCsvVersion": "",
    "Verbosity": '"2"',
    "PackageName": "kubevirt",
}


def render(text, variables, includes):
    """The Go-template subset KubeVirt's v0.22.0 OLM templates use."""
    text = re.sub(
        r'{{index \.GeneratedManifests "([^"]+)"}}',
        lambda m: render(open(os.path.join(includes, m.group(1))).read(), variables, includes),
        text,
    )
    cond = re.compile(r"{{if \.(\w+)}}(.*?)(?:{{else}}(.*?))?{{end}}", re.S)
    while cond.search(text):
        text = cond.sub(lambda m: m.group(2) if variables.get(m.group(1)) else (m.group(3) or ""), text)

    def var(m):
        if m.group(1) not in variables:
            sys.exit(f"bench_bundle: no value for {{{{.{m.group(1)}}}}}")
        return variables[m.group(1)]

    return re.sub(r"{{\.(\w+)}}", var, text)


def model(args):
    root = args.kubevirt
    olm = os.path.join(root, "manifests/release/olm/bundle")
    generated = os.path.join(root, "manifests/generated")
    variables = dict(KUBEVIRT_VARS)
    with open(os.path.join(root, "assets/kubevirt_logo.png"), "rb") as f:
        variables["KubeVirtLogo"] = base64.b64encode(f.read()).decode()
    os.makedirs(args.out, exist_ok=True)
    for src, dst in [
        ("kubevirtoperator.vVERSION.clusterserviceversion.yaml.in", "model.csv.yaml"),
        ("kubevirt-crds.yaml.in", "model.crd.yaml"),
    ]:
        text = render(open(os.path.join(olm, src)).read(), variables, generated)
        docs = [d for d in yaml.load_all(text, Loader=Loader) if d]
        if len(docs) != 1:
            sys.exit(f"bench_bundle: {src} rendered to {len(docs)} documents, expected 1")
        dump(docs[0], os.path.join(args.out, dst))
    print(os.path.join(args.out, "model.csv.yaml"))


# --- chain --------------------------------------------------------------------------------


def replace_version(value, old, new):
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [replace_version(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: replace_version(v, old, new) for k, v in value.items()}
    return value


def chain(args):
    csv = yaml.load(open(args.csv), Loader=Loader)
    crd = yaml.load(open(args.crd), Loader=Loader)
    old = csv["spec"]["version"]
    prefix = csv["metadata"]["name"].rsplit(old, 1)[0]
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    previous = None
    for i in range(1, args.count + 1):
        version = f"0.{i}.0"
        doc = replace_version(copy.deepcopy(csv), old, version)
        name = prefix + version
        doc["metadata"]["name"] = name
        doc["spec"]["version"] = version
        if previous:
            doc["spec"]["replaces"] = previous
        else:
            doc["spec"].pop("replaces", None)
        dump(doc, os.path.join(args.out, f"{name}.clusterserviceversion.yaml"))
        previous = name
    crd_name = crd["metadata"]["name"]
    crd_version = crd.get("spec", {}).get("version")
    crd_file = f"{crd_name}.{crd_version}.crd.yaml" if crd_version else f"{crd_name}.crd.yaml"
    dump(crd, os.path.join(args.out, crd_file))
    package = {"packageName": args.package, "channels": [{"name": "alpha", "currentCSV": previous}]}
    dump(package, os.path.join(args.out, f"{args.package}.package.yaml"))
    size = sum(os.path.getsize(os.path.join(args.out, f)) for f in os.listdir(args.out))
    print(f"{args.out}: {args.count} CSVs, {size} bytes")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("model")
    m.add_argument("--kubevirt", required=True)
    m.add_argument("--out", required=True)
    c = sub.add_parser("chain")
    c.add_argument("--csv", required=True)
    c.add_argument("--crd", required=True)
    c.add_argument("--package", required=True)
    c.add_argument("--count", type=int, required=True)
    c.add_argument("--out", required=True)
    args = p.parse_args()
    {"model": model, "chain": chain}[args.cmd](args)


if __name__ == "__main__":
    main()
