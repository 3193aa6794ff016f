#!/usr/bin/env python3
"""Import circles inside each crate of the workspace, file by file.

Between crates the compiler forbids circles; inside a crate it does not, so this script
measures them: a file imports another when it names it through a `crate::`, `super::` or
`self::` path, or a child module by its bare name (`use errors::X`). Module declarations
(`mod x;`) and test modules are not imports. The circles are the strongly connected
components of that graph with more than one file.

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
    """`a::{b, c::{d}}` → ['a::b', 'a::c::d']."""
    out = []

    def walk(prefix, text):
        text = text.strip()
        if not text:
            return
        brace = text.find('{')
        if brace == -1:
            out.append(prefix + text.split(' as ')[0].strip())
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


def graph(src):
    files = {}
    for folder, _, names in os.walk(src):
        for name in names:
            if name.endswith('.rs'):
                path = os.path.join(folder, name)
                module = os.path.relpath(path, src)[:-3].split('/')
                if module[-1] in ('mod', 'lib', 'main'):
                    module = module[:-1]
                files[tuple(module)] = os.path.relpath(path, src)

    def resolve(parts):
        for k in range(len(parts), 0, -1):
            if tuple(parts[:k]) in files:
                return tuple(parts[:k])
        return None

    edges = {m: set() for m in files}
    for module, rel in files.items():
        text = open(os.path.join(src, rel)).read()
        tests = re.search(r'#\[cfg\(test\)\]\s*mod tests\s*\{', text)
        if tests:
            text = text[:tests.start()]
        text = re.sub(r'//[^\n]*', '', text)
        paths = []
        for m in re.finditer(r'\buse\s+((?:crate|super|self)::[^;]*);', text, re.S):
            paths += use_paths(m.group(1))
        for m in re.finditer(r'\buse\s+([a-z_]\w*::[^;]*);', text, re.S):
            if tuple(list(module) + [m.group(1).split('::')[0]]) in files:
                paths += ['self::' + p for p in use_paths(m.group(1))]
        rest = re.sub(r'\buse\s+[^;]*;', '', text)
        paths += re.findall(r'\b((?:crate|super|self)(?:::(?:super|\w+))+)', rest)
        for m in re.finditer(r'(?<![:\w])([a-z_]\w*(?:::\w+)+)', rest):
            if tuple(list(module) + [m.group(1).split('::')[0]]) in files:
                paths.append('self::' + m.group(1))
        for path in paths:
            parts = [p for p in re.sub(r'\s', '', path).split('::') if p]
            if parts[0] == 'crate':
                target = parts[1:]
            else:
                target = list(module)
                while parts and parts[0] in ('super', 'self'):
                    if parts.pop(0) == 'super':
                        target = target[:-1]
                target += parts
            found = resolve(target)
            if found and found != module:
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
