#!/usr/bin/env python3
"""Import circles inside each crate of the workspace, file by file.

Between crates the compiler forbids circles; inside a crate it does not, so this script
measures them: a file imports another when it names it through a `crate::`, `super::` or
`self::` path, or a child module by its bare name (`use errors::X`). A path that goes on past
a module to a name that module itself imports (a `pub use` re-export in `lib.rs` or a
`mod.rs`, a private `use` seen from a child, or a glob) is followed to the file that defines
the name, so `use crate::Registry` counts as importing `registry.rs`, not `lib.rs`. Module
declarations (`mod x;`) and test modules are not imports; a `main.rs` beside a `lib.rs` is a
crate of its own and left out. The circles are the strongly connected components of that
graph with more than one file; the table gives, per crate, the files, the import edges between
files, the circles and the files in the largest one.

    scripts/import_circles.py              # a table of every crate; exit 1 past the limit
    scripts/import_circles.py --show       # and the files of each circle
    scripts/import_circles.py --limit 4    # the most files a circle may have (default 4)
"""
import os
import re
import sys

LIMIT = int(sys.argv[sys.argv.index('--limit') + 1]) if '--limit' in sys.argv else 4
SHOW = '--show' in sys.argv
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')


def use_paths(tree):
    """`a::{b, c::{self, d as e}}` → [('a::b', None), ('a::c::self', None), ('a::c::d', 'e')]."""
    out = []

    def walk(prefix, text):
        text = text.strip()
        if not text:
            return
        brace = text.find('{')
        if brace == -1:
            path, _, alias = text.partition(' as ')
            out.append((prefix + path.strip(), alias.strip() or None))
            return
        head, body = text[:brace], text[brace + 1:text.rfind('}')]
        depth, part, parts = 0, '', []
        for ch in body:
            depth += ch == '{'
            depth -= ch == '}'
            if ch == ',' and depth == 0:
                parts.append(part)
                part = ''
            else:
                part += ch
        parts.append(part)
        for p in parts:
            walk(prefix + head, p)

    walk('', re.sub(r'\s+', ' ', tree))
    return out


def split(path):
    return [p for p in re.sub(r'\s', '', path).split('::') if p]


def absolute(module, parts, files):
    """A path as written in `module`, from the crate root; None when it leaves the crate."""
    if not parts:
        return None
    if parts[0] == 'crate':
        return parts[1:]
    if parts[0] in ('self', 'super'):
        target = list(module)
        while parts and parts[0] in ('super', 'self'):
            if parts.pop(0) == 'super':
                target = target[:-1]
        return target + parts
    if tuple(list(module) + parts[:1]) in files:
        return list(module) + parts
    return None


ITEM = re.compile(r'\b(?:struct|enum|union|trait|type|fn|const|static|mod|macro_rules!)\s+(\w+)')


def source(src, rel):
    """A file's text without its test module and comments."""
    text = open(os.path.join(src, rel)).read()
    tests = re.search(r'#\[cfg\(test\)\]\s*mod tests\s*\{', text)
    if tests:
        text = text[:tests.start()]
    return re.sub(r'//[^\n]*', '', text)


def graph(src):
    files = {}
    for folder, _, names in os.walk(src):
        for name in names:
            if name.endswith('.rs'):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, src)
                if rel == 'main.rs' and os.path.isfile(os.path.join(src, 'lib.rs')):
                    continue  # the binary is a crate of its own, importing the library's paths
                module = rel[:-3].split('/')
                if module[-1] in ('mod', 'lib', 'main'):
                    module = module[:-1]
                files[tuple(module)] = rel
    texts = {m: source(src, rel) for m, rel in files.items()}

    # What each file's `use` declarations bind (name → path from the crate root, None when
    # outside the crate), its glob imports, and the items it defines itself.
    binds, globs, items = {}, {}, {}
    for module, text in texts.items():
        binds[module], globs[module] = {}, []
        items[module] = set(ITEM.findall(text))
        for m in re.finditer(r'\buse\s+([^;]*);', text, re.S):
            for path, alias in use_paths(m.group(1)):
                parts = split(path)
                if parts and parts[-1] == 'self':
                    parts = parts[:-1]
                if not parts:
                    continue
                target = absolute(module, list(parts), files)
                if parts[-1] == '*':
                    if target is not None:
                        globs[module].append(target[:-1])
                else:
                    binds[module][alias or parts[-1]] = target

    def resolve(parts, seen=()):
        """The file a path from the crate root reaches: its longest module prefix, or, where
        the rest names something that module imports (`pub use` re-exports and private
        `use`s alike), the file that import leads to."""
        for k in range(len(parts), -1, -1):
            if tuple(parts[:k]) in files:
                break
        else:
            return None
        module = tuple(parts[:k])
        if k == len(parts) or parts[k] in items[module] or (module, parts[k]) in seen:
            return module
        seen += ((module, parts[k]),)
        name, rest = parts[k], parts[k + 1:]
        if name in binds[module]:
            target = binds[module][name]
            return resolve(target + rest, seen) if target is not None else module
        for origin in globs[module]:
            inner = resolve(origin, seen)
            if inner is not None and (name in items[inner] or name in binds[inner]):
                return resolve(origin + [name] + rest, seen)
        return module

    edges = {m: set() for m in files}
    for module, text in texts.items():
        paths = []
        for m in re.finditer(r'\buse\s+((?:crate|super|self)::[^;]*);', text, re.S):
            paths += [p for p, _ in use_paths(m.group(1))]
        for m in re.finditer(r'\buse\s+([a-z_]\w*::[^;]*);', text, re.S):
            if tuple(list(module) + [m.group(1).split('::')[0]]) in files:
                paths += ['self::' + p for p, _ in use_paths(m.group(1))]
        rest = re.sub(r'\buse\s+[^;]*;', '', text)
        paths += re.findall(r'\b((?:crate|super|self)(?:::(?:super|\w+))+)', rest)
        for m in re.finditer(r'(?<![:\w])([a-z_]\w*(?:::\w+)+)', rest):
            if tuple(list(module) + [m.group(1).split('::')[0]]) in files:
                paths.append('self::' + m.group(1))
        for path in paths:
            target = absolute(module, split(path), files)
            found = resolve(target) if target is not None else None
            if found is not None and found != module:
                edges[module].add(found)
    return files, edges


def circles(edges):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                    advanced = True
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return sorted(out, key=len, reverse=True)


def main():
    crates = [('olm-release (src)', os.path.join(ROOT, 'src'))]
    base = os.path.join(ROOT, 'crates')
    for name in sorted(os.listdir(base)):
        if os.path.isdir(os.path.join(base, name, 'src')):
            crates.append((f'crates/{name}', os.path.join(base, name, 'src')))
    worst = 0
    print(f"{'crate':<24} {'files':>5} {'imports':>7} {'circles':>7} {'largest':>7}")
    for name, src in crates:
        files, edges = graph(src)
        found = circles(edges)
        largest = len(found[0]) if found else 0
        worst = max(worst, largest)
        print(f"{name:<24} {len(files):>5} {sum(map(len, edges.values())):>7} {len(found):>7} {largest:>7}")
        if SHOW:
            for c in found:
                print('    ' + ' '.join(sorted(files[m] for m in c)))
    if worst > LIMIT:
        print(f'an import circle of {worst} files is larger than the limit of {LIMIT}; '
              'run with --show to see it', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
