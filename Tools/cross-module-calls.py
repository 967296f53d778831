#!/usr/bin/env python3
"""Calls across Terrapin's modules in one run, from a callgrind profile.

    strip --strip-debug -o /tmp/terrapin-cg "$(swift build -c release --show-bin-path)/terrapin"
    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out /tmp/terrapin-cg render Examples/ferry-building-popover.json -o /tmp/f.png
    Tools/cross-module-calls.py /tmp/cg.out

(valgrind cannot read this toolchain's DWARF, hence the stripped copy; the symbols stay.)
A call counts when its caller and its callee are Swift functions of two different Terrapin
modules, each function's module read from its mangled name (`$s<length><Module>…`): what a
render asks across module boundaries after inlining, not how its source is written.
"""
import collections
import re
import sys

names = {}


def name(token):
    """callgrind compresses names: "(7) name" the first time, "(7)" after."""
    m = re.match(r'\((\d+)\)(?: (.*))?', token)
    if not m:
        return token
    if m.group(2) is not None:
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), '?')


def module(symbol):
    m = re.match(r'\$s(\d+)(\w+)', symbol)
    if not m:
        return None
    found = m.group(2)[:int(m.group(1))]
    return found if found.startswith('Terrapin') or found == 'terrapin' else None


def main(path):
    caller = callee = None
    edges, pairs = collections.Counter(), collections.Counter()
    with open(path) as profile:
        for line in profile:
            line = line.rstrip('\n')
            if line.startswith('fn='):
                caller = name(line[3:])
            elif line.startswith('cfn='):
                callee = name(line[4:])
            elif line.startswith('calls='):
                count = int(line[6:].split()[0])
                a, b = module(caller or ''), module(callee or '')
                if a and b and a != b:
                    edges[(caller, callee)] += count
                    pairs[(a, b)] += count
    print(f"distinct cross-module function edges: {len(edges)}")
    print(f"calls across modules: {sum(edges.values())}")
    print(f"module pairs: {len(pairs)}")
    for (a, b), count in pairs.most_common(15):
        print(f"  {a:24} -> {b:24} {count}")


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit("usage: cross-module-calls.py CALLGRIND_OUT")
    main(sys.argv[1])
