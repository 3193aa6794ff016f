#!/usr/bin/env python3
"""The bundle a release makes against the bundle the project commits, over real repositories.

For every git repository under FOLDER (a checkout, or a bare git directory such as the
`owner+name/repo` folders a mirror holds) this takes the tree at HEAD (`git archive`, so the
repository itself is never touched), finds each project in it that commits a registry+v1
`bundle/` as `make bundle` writes it (a folder holding `PROJECT`, a `Makefile` or
`watches.yaml` beside `bundle/…/metadata/annotations.yaml`; several flavours such as
`bundle/community` and `bundle/openshift` are measured one by one), and for each flavour:

    olm-release init --source PROJECT --ci none --github OWNER/NAME [--operator bundle/FLAVOUR]
    olm-release plan pipelines/release.yaml --variant local --var VERSION=<the CSV's version>
    olm-release run pipelines/release.yaml --variant local --var VERSION=<the CSV's version>
    olm-release diff <the project's bundle> <the release's bundle-image folder> --ignore-release-fields

(`--variant local` writes every target as a folder under `_out/local/`: no network.) It prints
one table row per flavour: the repository, the project's folder, its shape (go, helm or
ansible from `PROJECT`'s layout; webhooks and conversion from the committed CSV and CRDs;
flavours), and how many fields differ (or where it stopped), whether OLM v0 and OLM v1
install the release as `plan` says before the run (and whether the run's summary says the
same after verify), then each difference list.

    scripts/measure_projects.py FOLDER [--bin target/debug/olm-release] [--work /tmp/measure]
        [--only NAME] [--json FILE]

Exit 0 when every flavour ran to a diff (whatever the count), 1 otherwise.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import io


def git(repo, *args):
    return subprocess.run(
        ["git", "--git-dir", repo, *args], capture_output=True, check=True
    ).stdout


def git_dir(path):
    """The git directory of a checkout or a bare repository, or None."""
    for candidate in (os.path.join(path, ".git"), os.path.join(path, "repo"), path):
        if os.path.isdir(candidate) and os.path.exists(os.path.join(candidate, "HEAD")):
            return candidate
    return None


def owner_name(path, gitdir):
    """OWNER/NAME from a mirror folder's name (`owner+name`) or the origin remote."""
    base = os.path.basename(os.path.normpath(path))
    if "+" in base:
        return base.replace("+", "/", 1)
    try:
        url = git(gitdir, "remote", "get-url", "origin").decode().strip()
        m = re.search(r"github\.com[:/]([^/]+/[^/]+?)(\.git)?$", url)
        if m:
            return m.group(1)
    except subprocess.CalledProcessError:
        pass
    return "example/" + base


def export(gitdir, dest):
    """HEAD's tree into dest (files only; symbolic links skipped). A snapshot may lack its
    largest blobs (test data kept out of a mirror): those files are left out."""
    listing = git(gitdir, "ls-tree", "-r", "-z", "HEAD").decode().split("\0")
    blobs = {}
    for entry in filter(None, listing):
        meta, path = entry.split("\t", 1)
        _mode, kind, sha = meta.split()
        if kind == "blob":
            blobs.setdefault(sha, []).append(path)
    check = subprocess.run(
        ["git", "--git-dir", gitdir, "cat-file", "--batch-check"],
        input="\n".join(blobs).encode(), capture_output=True, check=True,
    ).stdout.decode()
    missing = [p for line in check.splitlines() if line.endswith(" missing")
               for p in blobs[line.split()[0]]]
    if missing:
        print(f"  (left out {len(missing)} file(s) the snapshot lacks, e.g. {missing[0]})",
              file=sys.stderr)
    data = git(gitdir, "archive", "--format=tar", "HEAD", "--", ".",
               *[":(exclude,literal)" + p for p in missing])
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        members = [m for m in tar.getmembers() if m.isfile() or m.isdir()]
        tar.extractall(dest, members=members, filter="data")


def bundles(tree):
    """(project folder, bundle folder) of each committed registry+v1 bundle under tree."""
    out = []
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if d not in (".git", "vendor", "node_modules")]
        if os.path.basename(root) != "metadata" or "annotations.yaml" not in files:
            continue
        bundle = os.path.dirname(root)
        if not os.path.isdir(os.path.join(bundle, "manifests")):
            continue
        # The project: the nearest folder above with PROJECT, a Makefile or watches.yaml,
        # whose child on the way down is named bundle*.
        rel = os.path.relpath(bundle, tree).split(os.sep)
        for i in range(len(rel) - 1, -1, -1):
            if not rel[i].startswith("bundle"):
                continue
            project = os.path.join(tree, *rel[:i])
            if any(
                os.path.exists(os.path.join(project, f))
                for f in ("PROJECT", "Makefile", "watches.yaml")
            ):
                out.append((project, bundle))
            break
    return sorted(out)


def shape(project, bundle):
    words = []
    proj = os.path.join(project, "PROJECT")
    text = open(proj).read() if os.path.exists(proj) else ""
    if "helm.sdk" in text or os.path.exists(os.path.join(project, "helm-charts")):
        words.append("helm")
    elif "ansible.sdk" in text or os.path.exists(os.path.join(project, "roles")):
        words.append("ansible")
    elif "go.kubebuilder" in text or os.path.exists(os.path.join(project, "go.mod")):
        words.append("go")
    else:
        words.append("plain")
    manifests = os.path.join(bundle, "manifests")
    blob = ""
    for f in sorted(os.listdir(manifests)):
        p = os.path.join(manifests, f)
        if os.path.isfile(p):
            blob += open(p, errors="replace").read()
    if "webhookdefinitions:" in blob:
        words.append("webhooks")
    if "conversionCRDs" in blob or re.search(r"strategy:\s*Webhook", blob):
        words.append("conversion")
    return ", ".join(words)


def csv_version(bundle):
    manifests = os.path.join(bundle, "manifests")
    for f in sorted(os.listdir(manifests)):
        text = open(os.path.join(manifests, f), errors="replace").read()
        if "kind: ClusterServiceVersion" in text:
            m = re.search(r"^  version:\s*['\"]?v?([0-9][^'\"\s]*)", text, re.M)
            if m:
                return m.group(1)
    return "0.0.1"


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                       env={**os.environ, "SOURCE_DATE_EPOCH": "1700000000"})
    return p.returncode, p.stdout, p.stderr


def last_error(text):
    lines = [l for l in text.splitlines() if l.strip()]
    errs = [l for l in lines if "error" in l.lower()]
    return (errs or lines or ["?"])[-1].strip()[:160]


def measure(binary, repo, project, bundle, work):
    """One flavour: init, a local run, the diff. Returns a row dict."""
    flavour = os.path.relpath(bundle, project)
    row = {"repo": repo, "project": project, "flavour": flavour, "shape": shape(project, bundle)}
    src = os.path.join(work, "src")
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(project, src, symlinks=True)
    subprocess.run(["git", "init", "-q", src], check=True)
    args = [binary, "init", "--source", ".", "--ci", "none", "--github", repo]
    flavours = [b for p, b in bundles(project) if os.path.samefile(p, project)]
    if len(flavours) > 1:
        args += ["--operator", flavour]
    code, _, err = run(args, src)
    row["init"] = err
    if code != 0:
        row["result"] = "init: " + last_error(err)
        return row
    version = csv_version(bundle)
    pipeline = ["pipelines/release.yaml", "--variant", "local", "--var", "VERSION=" + version]
    code, out, err = run([binary, "--format", "json", "plan", *pipeline], src)
    row["planned"] = json.loads(out).get("installable") if code == 0 else None
    code, out, err = run([binary, "--format", "json", "run", *pipeline], src)
    row["run"] = err
    try:
        row["installed"] = json.loads(out).get("installable")
    except ValueError:
        row["installed"] = None
    image = None
    if code != 0 and "stage verify" in err:
        # verify refused the project's own bundle: say why, and measure what render made,
        # laid out as the bundle image would hold it (manifests/, metadata/, tests/).
        row["verify"] = last_error(err)
        outs = [d for d in os.listdir(os.path.join(src, "_out")) if d.endswith("-local")]
        rendered = os.path.join(src, "_out", outs[0], "render") if outs else ""
        inner = [d for d in os.listdir(rendered)] if rendered else []
        if len(inner) == 1:
            image = os.path.join(work, "rendered")
            shutil.rmtree(image, ignore_errors=True)
            top = os.path.join(rendered, inner[0])
            for f in os.listdir(top):
                at = os.path.join(top, f)
                if f in ("metadata", "tests"):
                    shutil.copytree(at, os.path.join(image, f))
                elif os.path.isfile(at) and not f.endswith(".package.yaml"):
                    os.makedirs(os.path.join(image, "manifests"), exist_ok=True)
                    shutil.copy(at, os.path.join(image, "manifests", f))
            code = 0
    if code != 0:
        row["result"] = "run: " + last_error(err)
        return row
    if image is None:
        outs = [d for d in os.listdir(os.path.join(src, "_out")) if d.endswith("-local")]
        image = os.path.join(src, "_out", outs[0], "bundle-image") if outs else ""
    code, out, err = run([binary, "diff", bundle, image, "--ignore-release-fields",
                          "--format", "json"], src)
    if code not in (0, 1):
        row["result"] = "diff: " + last_error(err)
        return row
    diff = json.loads(out)
    row["diff"] = diff
    fields = 0
    for f in diff.get("files", diff.get("objects", [])):
        fields += len(f.get("fields", f.get("changes", []))) or 1
    row["fields"] = fields
    _, text, _ = run([binary, "diff", bundle, image, "--ignore-release-fields"], src)
    row["text"] = text
    row["result"] = "equal" if diff.get("equal") else f"{fields} fields"
    if "verify" in row:
        rule = re.search(r"error\[([a-z-]+)\]", row["verify"])
        row["result"] += " of the render output; verify refused: " + (
            rule.group(1) if rule else row["verify"][:80])
    return row


def verdicts(row):
    """`plan`'s verdict for OLM v0 and OLM v1, and whether the run's summary agrees."""
    planned = row.get("planned")
    if not planned:
        return "-"
    line = lambda v: "yes" if v["installs"] else "no: " + "; ".join(v["reasons"])[:90]
    text = f"v0 {line(planned['olm_v0'])}; v1 {line(planned['olm_v1'])}"
    installed = row.get("installed")
    if installed is None:
        return text + " (the run gave none)"
    return text + ("" if installed == planned else " (the run differs)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--bin", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", "target"), "debug", "olm-release"))
    ap.add_argument("--work", default="/tmp/olm-release-measure")
    ap.add_argument("--only")
    ap.add_argument("--json")
    a = ap.parse_args()
    binary = os.path.abspath(a.bin)
    rows = []
    for entry in sorted(os.listdir(a.folder)):
        if a.only and a.only not in entry:
            continue
        path = os.path.join(a.folder, entry)
        gitdir = git_dir(path)
        if not gitdir:
            continue
        repo = owner_name(path, gitdir)
        listed = git(gitdir, "ls-tree", "-r", "--name-only", "HEAD").decode().splitlines()
        if sum(f.endswith("metadata/annotations.yaml") for f in listed) > 6:
            continue  # a catalog of other people's bundles, not a project
        tree = os.path.join(a.work, entry, "tree")
        if not os.path.isdir(tree):
            # Exported whole or not at all: a tree left by a failed export is not reused.
            partial = tree + ".partial"
            shutil.rmtree(partial, ignore_errors=True)
            os.makedirs(partial)
            export(gitdir, partial)
            os.rename(partial, tree)
        found = bundles(tree)
        for project, bundle in found:
            row = measure(binary, repo, project, bundle, os.path.join(a.work, entry))
            row["project"] = os.path.relpath(project, tree) or "."
            rows.append(row)
            print(f"| {repo} | {row['project']} | {row['flavour']} | {row['shape']} | "
                  f"{row['result']} | {verdicts(row)} |", flush=True)
    print()
    for r in rows:
        print(f"## {r['repo']} {r['project']} {r['flavour']}: {r['result']}")
        print(r.get("text", "").rstrip() or last_error(r.get("run", r.get("init", ""))))
        print()
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{k: v for k, v in r.items() if k not in ("init", "run")} for r in rows],
                      f, indent=1)
    sys.exit(0 if all("diff" in r for r in rows) else 1)


if __name__ == "__main__":
    main()
