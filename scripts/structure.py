#!/usr/bin/env python3
"""The house's structure figures, measured from the source (issue 41).

Prints, for app/ and core/:
  - include cycles between folders ("rooms"): two rooms that include each
    other, directly or round a loop, are one room in two places;
  - files per folder (the most, and every folder over the limit);
  - lines in the largest source files.

`--check` exits 1 when there is a cycle or a folder holds more than 20
files. While the house still has some, `--max-cycles N` fails only when
there are more than N cycles or rooms in them than `--max-cycle-rooms`,
so .ci/run fails the moment a new one appears and the figure only falls. Threads at idle are not
counted here: tests/app/compute/test_job_pool.cpp counts them from /proc/self/task, and
scripts/idle-threads.sh lists the running app's by name.

A room is the folder a file sits in under its library's roots:
app/model/{include/model,src}/R, app/viz/R, core/{include/attn,src}/R,
core/{io,hf,train}/... . A public header keeps the room of its folder; a
header left flat in include/attn/ belongs to the room whose .cpp has its
name, so a flat header cannot hide a cycle. A library's private includes
("execution/worker_pool.hpp" inside core/src) are found under that library's
own folders, so rooms that only meet through private headers are seen too.
"""
import argparse
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ("app", "core")
EXTS = (".hpp", ".cpp", ".h")
INCLUDE_ROOTS = ["app/model/include", "core/include", "core/io/include", "core/hf/include", "core/train/include",
                 "core/platform/include"]
# Each library's private headers, found from its own files only (two
# libraries may each have a private "json/..." of their own).
PRIVATE_ROOTS = {"core/src/": "core/src", "core/io/src/": "core/io/src", "core/hf/src/": "core/hf/src",
                 "core/train/src/": "core/train/src", "core/platform/src/": "core/platform/src",
                 "app/viz/": "app/viz", "app/cli/": "app/cli/src"}
FILES_PER_FOLDER = 20
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def source_files():
    for top in SOURCES:
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                if name.endswith(EXTS):
                    yield os.path.relpath(os.path.join(dirpath, name), ROOT)


# Each library: (its files' prefix, the room name's prefix, the folders under
# which the first component is the room).
LIBRARIES = [
    ("app/model/", "model", ["app/model/include/model/", "app/model/src/"]),
    ("app/viz/", "viz", ["app/viz/"]),
    ("app/cli/", "cli", ["app/cli/"]),
    ("core/io/", "io", ["core/io/include/attn/io/", "core/io/src/"]),
    ("core/hf/", "hf", ["core/hf/include/attn/hf/", "core/hf/src/"]),
    ("core/train/", "train", ["core/train/include/attn/train/", "core/train/src/"]),
    ("core/platform/", "platform", ["core/platform/include/attn/platform/", "core/platform/src/"]),
    ("core/", "core", ["core/include/attn/", "core/src/"]),
]


def room_of(path, stems):
    for prefix, name, bases in LIBRARIES:
        if not path.startswith(prefix):
            continue
        for base in bases:
            if path.startswith(base):
                rest = path[len(base):]
                if "/" in rest:
                    return name + "/" + rest.split("/")[0]
                # A flat file: the room of the .cpp with its name, if one.
                stem = os.path.splitext(rest)[0]
                return stems.get((name, stem), name)
        return name
    return None


def resolve(include, including):
    here = os.path.join(os.path.dirname(including), include)
    if os.path.exists(os.path.join(ROOT, here)):
        return os.path.normpath(here)
    roots = [root for prefix, root in PRIVATE_ROOTS.items() if including.startswith(prefix)] + INCLUDE_ROOTS
    for root in roots:
        candidate = os.path.join(root, include)
        if os.path.exists(os.path.join(ROOT, candidate)):
            return candidate
    return None


def strongly_connected(graph):
    """Tarjan's algorithm, iteratively; returns the components of 2+ rooms."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 on a cycle or an overfull folder")
    parser.add_argument("--max-cycles", type=int, default=None, help="with --check: cycles tolerated (a ratchet)")
    parser.add_argument("--max-cycle-rooms", type=int, default=None, help="with --check: rooms in cycles tolerated")
    parser.add_argument("--max-over", type=int, default=0, help="with --check: folders over the limit tolerated")
    parser.add_argument("--largest", type=int, default=5, help="how many of the largest files to list")
    args = parser.parse_args()

    files = list(source_files())
    stems = {}
    for path in files:
        if path.endswith(".cpp"):
            for prefix, name, bases in LIBRARIES:
                if path.startswith(prefix):
                    room = room_of(path, {})
                    stems.setdefault((name, os.path.splitext(os.path.basename(path))[0]), room)
                    break

    graph = defaultdict(set)
    why = {}  # (from, to) -> the first include line that made the arrow
    lines_of = {}
    for path in files:
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            text = f.read().splitlines()
        lines_of[path] = len(text)
        source_room = room_of(path, stems)
        if source_room is None:
            continue
        graph[source_room]
        for number, line in enumerate(text, 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = resolve(match.group(1), path)
            target_room = room_of(target, stems) if target else None
            if target_room and target_room != source_room:
                graph[source_room].add(target_room)
                why.setdefault((source_room, target_room), f"{path}:{number} includes {match.group(1)}")

    cycles = strongly_connected(graph)
    print(f"include cycles between folders: {len(cycles)}")
    for component in cycles:
        members = set(component)
        print("  " + " <-> ".join(component))
        for a in component:
            for b in sorted(graph[a] & members):
                print(f"    {a} -> {b}: {why[(a, b)]}")

    per_folder = defaultdict(int)
    for path in files:
        per_folder[os.path.dirname(path)] += 1
    fullest = max(per_folder.items(), key=lambda kv: (kv[1], kv[0]))
    over = sorted((d for d, n in per_folder.items() if n > FILES_PER_FOLDER))
    print(f"files per folder: at most {fullest[1]} ({fullest[0]}); limit {FILES_PER_FOLDER}")
    for folder in over:
        print(f"  over the limit: {folder} ({per_folder[folder]})")

    largest = sorted(lines_of.items(), key=lambda kv: (-kv[1], kv[0]))[: args.largest]
    print(f"lines in the largest file: {largest[0][1]} ({largest[0][0]})")
    for path, count in largest[1:]:
        print(f"  {count} {path}")

    rooms_in_cycles = sum(len(c) for c in cycles)
    print(f"rooms in cycles: {rooms_in_cycles}")
    if args.check:
        allowed_cycles = args.max_cycles or 0
        allowed_rooms = args.max_cycle_rooms if args.max_cycle_rooms is not None else (0 if not allowed_cycles else 10**9)
        if len(cycles) > allowed_cycles or rooms_in_cycles > allowed_rooms or len(over) > args.max_over:
            print(f"structure check failed: {len(cycles)} cycles ({rooms_in_cycles} rooms), {len(over)} folders over "
                  f"{FILES_PER_FOLDER} files; at most {allowed_cycles} ({allowed_rooms}) and {args.max_over} allowed",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
