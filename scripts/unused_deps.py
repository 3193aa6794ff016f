#!/usr/bin/env python3
"""Dependencies a package declares but whose crate its code never names.

For every package of the workspace (the root and each member under crates/) this reads the
Cargo.toml's `[dependencies]`, `[dev-dependencies]` and `[build-dependencies]` (and their
`[target.*]` forms; a `workspace = true` entry counts like any other) and looks for the
crate's Rust name (the table key, dashes as underscores: a `package =` rename is already the
key) in the sources that kind of dependency is visible to:

    normal  src/, outside `#[cfg(test)]` items and files  (a crate named only in tests is a
            dev-dependency)
    dev     src/ (test builds see all of it), tests/, benches/, examples/
    build   build.rs

A crate is named when a path starts with it (`name::…`, `::name::…`), a `use name` or
`extern crate name` brings it in, with comments and string literals left out. Where a file
binds the same name itself (`mod name;`, `use crate::…::name`), its `name::` paths are that
local item, not the crate. It also fails on a `[dev-dependencies]` entry that repeats a
normal one without adding features (it changes nothing), and on a `[workspace.dependencies]`
entry no package inherits.

A dependency kept only for the features it switches on in the dependency graph is allowed
through FEATURE_ONLY below, with the reason.

    scripts/unused_deps.py       # exit 1 naming each package and dependency, 0 when none
"""
import functools
import glob
import os
import re
import sys
import tomllib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))

# (package, kind, dependency) → why it stays although no code names it.
FEATURE_ONLY = {
}


LITERALS = re.compile(r"""
    //[^\n]*                                           # line and doc comments
  | /\*.*?\*/                                         # block comments
  | (?<!\w)b?r(\#*)".*?"\1                             # raw strings
  | b?"(?:\\.|[^"\\])*"                              # strings
  | b?'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'   # chars
""", re.S | re.X)


def strip(text):
    """The source without comments, string and char literals (each left as a space)."""
    return LITERALS.sub(' ', text)


def item_end(text, start):
    """Where the item starting at `start` ends: its matching `}` or its `;`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in '{([':
            depth += 1
        elif text[i] in '})]':
            depth -= 1
            if depth == 0 and text[i] == '}':
                return i + 1
        elif text[i] == ';' and depth == 0:
            return i + 1
    return len(text)


CFG_TEST = re.compile(r'#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]')


def without_tests(text):
    """The stripped source without its `#[cfg(test)]` items, and the `mod x;` they declare."""
    kept, test_mods, pos = [], [], 0
    for m in CFG_TEST.finditer(text):
        if m.start() < pos:
            continue
        kept.append(text[pos:m.start()])
        end = item_end(text, m.end())
        decl = re.match(r'\s*(?:#\s*\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;',
                        text[m.end():end])
        if decl:
            test_mods.append(decl.group(1))
        pos = end
    kept.append(text[pos:])
    return ''.join(kept), test_mods


def use_leaves(tree):
    """`a::{b, c::{self, d as e}}` → the paths it binds, as segment lists."""
    out = []

    def walk(prefix, part):
        part = part.strip()
        if not part:
            return
        brace = part.find('{')
        if brace == -1:
            segs = [s.strip() for s in part.split(' as ')[0].split('::') if s.strip()]
            alias = part.split(' as ')[1].strip() if ' as ' in part else None
            if segs and segs[-1] == 'self':
                segs = segs[:-1]
            out.append((prefix + segs, alias))
            return
        head = [s.strip() for s in part[:brace].split('::') if s.strip()]
        body, depth, cur = part[brace + 1:part.rfind('}')], 0, ''
        for ch in body + ',':
            depth += (ch == '{') - (ch == '}')
            if ch == ',' and depth == 0:
                walk(prefix + head, cur)
                cur = ''
            else:
                cur += ch
    walk([], re.sub(r'\s+', ' ', tree))
    return out


@functools.cache
def path_roots(text):
    """The names stripped source `text` starts paths with, its own items left out.

    A path starts with a crate in `::name::…`, `extern crate name`, and in `use name…` and
    `name::…` unless the file binds `name` itself: a `mod name` it declares, or a name it
    imports from its own crate (`use crate::…::name`, `use super::name as name`).
    """
    sure = set(re.findall(r'(?<![\w:])::\s*(\w+)\s*::', text))
    sure.update(re.findall(r'\bextern\s+crate\s+(\w+)', text))
    local = set(re.findall(r'\bmod\s+(\w+)', text))
    used = set()
    for m in re.finditer(r'\buse\s+([^;]*);', text):
        for segs, alias in use_leaves(m.group(1)):
            if segs and segs[0] in ('crate', 'self', 'super'):
                if len(segs) > 1:
                    local.add(alias or segs[-1])
            elif segs:
                used.add(segs[0])
    used.update(re.findall(r'(?<![\w:])(\w+)\s*::', text))
    return sure | (used - local)


def rust_files(path):
    if os.path.isfile(path):
        return [path]
    return sorted(glob.glob(os.path.join(path, '**', '*.rs'), recursive=True))


class Package:
    def __init__(self, folder):
        self.folder = folder
        with open(os.path.join(folder, 'Cargo.toml'), 'rb') as f:
            self.toml = tomllib.load(f)
        self.name = self.toml.get('package', {}).get('name')
        self.sources = {}  # path → (stripped text, stripped text without cfg(test))
        test_files = set()
        for path in rust_files(os.path.join(folder, 'src')):
            text = strip(open(path, encoding='utf-8').read())
            kept, mods = without_tests(text)
            self.sources[path] = (text, kept)
            here = os.path.dirname(path)
            if os.path.basename(path) not in ('mod.rs', 'lib.rs', 'main.rs'):
                here = path[:-3]
            for mod in mods:
                test_files.add(os.path.join(here, mod + '.rs'))
                test_files.update(rust_files(os.path.join(here, mod)))
        # A file under a `#[cfg(test)] mod x;` is test code through and through.
        for path in test_files & set(self.sources):
            self.sources[path] = (self.sources[path][0], '')
        # Tests, benches and examples: their folders, and the folder of any such target whose
        # `path` Cargo.toml sets elsewhere.
        folders = [os.path.join(folder, sub) for sub in ('tests', 'benches', 'examples')]
        for table in ('test', 'bench', 'example'):
            for target in self.toml.get(table, []):
                if 'path' in target:
                    folders.append(os.path.dirname(os.path.join(folder, target['path'])))
        self.tests = {}
        for sub in folders:
            for path in rust_files(sub):
                if path not in self.sources:
                    self.tests[path] = strip(open(path, encoding='utf-8').read())
        # A test file may take in another package's file with `#[path = "…"]` (a fake shared by
        # two crates' tests): that file's names count as this package's tests', relative to the
        # folder of the file that names it, as rustc resolves it.
        pending = list(self.tests)
        while pending:
            here = pending.pop()
            raw = open(here, encoding='utf-8').read()
            for rel in re.findall(r'#\[path\s*=\s*"([^"]+)"\]', raw):
                path = os.path.normpath(os.path.join(os.path.dirname(here), rel))
                if os.path.isfile(path) and path not in self.tests:
                    self.tests[path] = strip(open(path, encoding='utf-8').read())
                    pending.append(path)
        build = self.toml.get('package', {}).get('build', 'build.rs')
        build = os.path.join(folder, build) if isinstance(build, str) else ''
        self.build = {build: strip(open(build).read())} if os.path.isfile(build) else {}

    def tables(self):
        """(kind, {key: spec}) for every dependency table, [target.*] ones included."""
        kinds = {'dependencies': 'normal', 'dev-dependencies': 'dev',
                 'build-dependencies': 'build'}
        for table, kind in kinds.items():
            yield kind, self.toml.get(table, {})
        for target in self.toml.get('target', {}).values():
            for table, kind in kinds.items():
                yield kind, target.get(table, {})

    def visible(self, kind):
        """The stripped texts a dependency of that kind can be named in."""
        if kind == 'normal':
            return [kept for _, kept in self.sources.values()]
        if kind == 'dev':
            return [full for full, _ in self.sources.values()] + list(self.tests.values())
        return list(self.build.values())


def lib_names(packages):
    """A path dependency's Rust name where its `[lib] name` differs from the package's."""
    out = {}
    for p in packages:
        lib = p.toml.get('lib', {}).get('name')
        if p.name:
            out[p.name] = lib or p.name.replace('-', '_')
    return out


def main():
    with open(os.path.join(ROOT, 'Cargo.toml'), 'rb') as f:
        root = tomllib.load(f)
    folders = [ROOT]
    for pattern in root.get('workspace', {}).get('members', []):
        folders += sorted(d for d in glob.glob(os.path.join(ROOT, pattern))
                          if os.path.isfile(os.path.join(d, 'Cargo.toml')))
    packages = [Package(d) for d in folders]
    libs = lib_names(packages)
    workspace = root.get('workspace', {}).get('dependencies', {})
    inherited, problems, allowed = set(), [], set()
    for p in packages:
        if not p.name:
            continue
        rel = os.path.relpath(p.folder, ROOT)
        rel = 'Cargo.toml' if rel == '.' else f'{rel}/Cargo.toml'
        normal = {}
        for kind, deps in p.tables():
            for key, spec in deps.items():
                spec = spec if isinstance(spec, dict) else {'version': spec}
                if spec.get('workspace'):
                    inherited.add(key)
                if kind == 'normal':
                    normal[key] = spec
        for kind, deps in p.tables():
            visible = p.visible(kind)
            for key, spec in deps.items():
                spec = spec if isinstance(spec, dict) else {'version': spec}
                if (p.name, kind, key) in FEATURE_ONLY:
                    allowed.add((p.name, kind, key))
                    continue
                if kind == 'dev' and key in normal and not spec.get('features') \
                        and spec.get('default-features', True):
                    problems.append(f'{p.name} ({rel}): dev-dependency {key} repeats '
                                    'the normal dependency and adds no features')
                    continue
                target = workspace.get(key, {}) if spec.get('workspace') else spec
                target = target if isinstance(target, dict) else {}
                package = target.get('package', key)
                name = key.replace('-', '_') if 'package' in target else \
                    libs.get(package, key.replace('-', '_'))
                if any(name in path_roots(text) for text in visible):
                    continue
                where = {'normal': 'src/ outside #[cfg(test)]',
                         'dev': 'src/, tests/, benches/ or examples/',
                         'build': 'build.rs'}[kind]
                hint = ''
                if kind == 'normal' and any(name in path_roots(t)
                                            for t in p.visible('dev')):
                    hint = ' (only tests name it: a dev-dependency)'
                problems.append(f'{p.name} ({rel}): {kind} dependency {key} is named '
                                f'nowhere in {where}{hint}')
    for key in workspace:
        if key not in inherited:
            problems.append(f'[workspace.dependencies] {key} is inherited by no package')
    for entry in FEATURE_ONLY:
        if entry not in allowed:
            problems.append(f'FEATURE_ONLY names {entry}, which no Cargo.toml declares')
    for line in problems:
        print(line)
    if problems:
        n = len(problems)
        print(f"{n} unused or misplaced dependenc{'y' if n == 1 else 'ies'}", file=sys.stderr)
        return 1
    print(f'every dependency of the {len(packages)} packages is named in its code')
    return 0


if __name__ == '__main__':
    sys.exit(main())
