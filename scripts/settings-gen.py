#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""settings-gen.py SPEC TOP [--check]

The settings of a device, from the netlink spec alone: every u32
attribute of the dev set that has a const <name>-default is one. Its name,
limits (the attribute's checks; a flags set: its bits), default (the const)
and description (the const's doc, in parentheses) become:

  kmod/settings-gen.h          the list lro.ko's config, module parameters,
  userspace/settings-gen.h     netlink, sysfs and lroadm derive from
  userspace/stats-gen.h        the counters' names, for lroadm
  userspace/lroadm.8           the synopsis of set and the SETTINGS entries,
                               between the markers ".\\" BEGIN <block>" and
                               ".\\" END <block>"
  Documentation/control.md     the sysfs table's rows, between the markers
                               "<!-- BEGIN settings -->", "<!-- END ... -->"

so adding a setting is the spec, its use and its test. kmod/stats-list.h,
which says where lro.ko finds each counter, is checked against the spec's
stats set: the same names, in the same order. Run by
scripts/ynl-regen.sh (make generate); with --check it writes nothing and
fails if a file is not what the spec gives.
"""
import re
import sys
import textwrap

import yaml

def underscored(name):
    return name.replace('-', '_')


class Setting:
    def __init__(self, attr, const, flags):
        self.name = underscored(attr['name'])
        self.upper = self.name.upper()
        self.doc = attr['doc'].strip()
        self.default = const['value']
        m = re.match(r'Default of [a-z-]+ \((.+?)\)\.',
                     ' '.join(const['doc'].split()))
        if not m:
            sys.exit(f"settings-gen: the doc of {const['name']} must begin "
                     f"'Default of {attr['name']} (what it is).'")
        self.desc = m.group(1)
        self.flags = flags
        checks = attr.get('checks', {})
        if flags:
            self.min = 0
            self.max = sum(1 << i for i in range(len(flags['entries'])))
        elif 'max' in checks:
            self.min = checks.get('min', 0)
            self.max = checks['max']
        else:
            sys.exit(f"settings-gen: {attr['name']} has no max")
        if not self.min <= self.default <= self.max:
            sys.exit(f"settings-gen: the default of {attr['name']} is "
                     f"outside {self.min}..{self.max}")

    def feature_names(self, val):
        return [underscored(e['name'])
                for i, e in enumerate(self.flags['entries']) if val >> i & 1]


def load(spec_path):
    spec = yaml.safe_load(open(spec_path))
    consts = {d['name']: d for d in spec['definitions']
              if d['type'] == 'const'}
    enums = {d['name']: d for d in spec['definitions']
             if d['type'] == 'flags'}
    sets = {s['name']: s for s in spec['attribute-sets']}
    settings = []
    for a in sets['dev']['attributes']:
        const = consts.get(a['name'] + '-default')
        if not const:
            continue
        if a['type'] != 'u32':
            sys.exit(f"settings-gen: {a['name']}: settings are u32")
        settings.append(Setting(a, const, enums.get(a.get('enum'))))
    stats = [underscored(a['name']) for a in sets['stats']['attributes']]
    names = [a['name'] for s in ('dev', 'stats') for a in sets[s]['attributes']]
    names += [e['name'] for f in enums.values() for e in f['entries']]
    return settings, stats, names


C_GENERATED = """/*
 * Generated from Documentation/netlink/specs/lro.yaml by
 * scripts/settings-gen.py: edit the spec, then run make generate.
 *
"""

C_USES = {
    False: """ * The numeric settings of LRO on a device, in the order of the spec's dev
 * attributes: the one list that struct lro_config, its checks and defaults
 * (config.c, module parameters default_<name>), the netlink dev attributes
 * (netlink.c) and the sysfs files (sysfs.c) derive from. (enabled, a flag,
 * is apart.)
""",
    True: """ * The numeric settings of LRO on a device, in the order of the spec's dev
 * attributes: the one list that lroadm's names of them, their parsing and
 * its usage derive from. (enabled, a flag, is apart.)
""",
}


def c_header(settings, user):
    out = ['/* SPDX-License-Identifier: GPL-2.0 */',
           C_GENERATED + C_USES[user] + """ *
 * No include guard: define LRO_SETTING(NAME, name, min, max, def, desc)
 * first.
 *   NAME      the uapi's LRO_A_DEV_<NAME>
 *   name      the spec's attribute name, underscored
 *   min, max  the limits: the attribute's checks (a flags set: its bits)
 *   def       the default, the spec's const <name>-default
 *   desc      what it is, from that const's doc
 */"""]
    for s in settings:
        tail = f'LRO_{s.upper}_DEFAULT, "{s.desc}")'
        if 12 + len(tail) > 80:
            tail = tail.replace(', ', ',\n\t    ', 1)
        out.append(f'LRO_SETTING({s.upper}, {s.name}, {s.min}, {s.max},\n'
                   f'\t    {tail}')
    return '\n'.join(out) + '\n'


def stats_header(stats):
    out = ['/* SPDX-License-Identifier: GPL-2.0 */',
           C_GENERATED + """ * The counters of the spec's stats attribute set, in its order, for
 * lroadm: define LRO_STAT(NAME, name) first (NAME: LRO_A_STATS_<NAME>).
 */"""]
    out += [f'LRO_STAT({s.upper()}, {s})' for s in stats]
    return '\n'.join(out) + '\n'


def troff_text(doc, names):
    """The spec's doc as man page lines: the spec's names in bold, with
    underscores as lroadm prints them."""
    pat = re.compile(r'\b(' + '|'.join(sorted((re.escape(n) for n in names
                                               if '-' in n),
                                              key=len, reverse=True)) + r')\b')
    lines = []
    # A sentence a line, as man-pages(7) asks, folded at 72 columns.
    for sentence in ' '.join(doc.split()).replace('. ', '.\n').split('\n'):
        sentence = sentence.replace('\\', '\\e')
        sentence = pat.sub(lambda m: '\\fB' + underscored(m.group(1)) +
                           '\\fR', sentence)
        for line in textwrap.wrap(sentence, 72, break_on_hyphens=False):
            lines.append('\\&' + line if line[:1] in ('.', "'") else line)
    return lines


def human(n):
    for unit, size in (('GiB', 1 << 30), ('MiB', 1 << 20), ('KiB', 1 << 10)):
        if n >= size and n % size == 0:
            return f' ({n // size}\\ {unit})'
    return ''


def man_synopsis(settings):
    out = []
    for i, s in enumerate(settings):
        if i and i % 2 == 0:
            out.append('.br')
        out += [f'.RB "[ " {s.name}',
                f'.IR {"FEATURES" if s.flags else "N"} " ]"']
    return out


def man_settings(settings, names):
    out = []
    for i, s in enumerate(settings):
        out += ['', '.TP'] if i else ['.TP']
        if not s.flags:
            out.append(f'.BI {s.name} " N"')
            out += troff_text(s.doc, names)
            out.append(f'{s.min}..{s.max}; default {s.default}'
                       f'{human(s.default)}.')
            continue
        entries = s.flags['entries']
        out.append(f'.BI {s.name} " FEATURES"')
        out += troff_text(s.doc, names)
        bits = ', '.join(f'{underscored(e["name"])} {1 << i}'
                         for i, e in enumerate(entries))
        out += ['Names separated by commas,', '.B none',
                f'for the empty set, or a number ({bits}; any', 'other bit is'
                ' refused).', 'Default:',
                '.BR ' + (','.join(s.feature_names(s.default)) or 'none')
                + ' .', '.RS']
        width = max(len(e['name']) for e in entries) + 2
        for i, e in enumerate(entries):
            out.append(f'.TP {width}' if i == 0 else '.TP')
            out.append(f'.B {underscored(e["name"])}')
            out += troff_text(e['doc'], names)
        out.append('.RE')
    return out + ['']


def md_rows(settings):
    out = ['| file | mode | format |', '|---|---|---|',
           '| `enabled` | 0644 | `0` or `1` |']
    for s in settings:
        if s.flags:
            fmt = ('read as hex (`0x5`); written as decimal, `0x` hex or '
                   '`0` octal (`5`, `0x5`)')
        else:
            fmt = f'decimal, {s.min}..{s.max}'
        out.append(f'| `{s.name}` | 0644 | {fmt} |')
    return out


def check_stats(path, stats):
    """path's LRO_STAT(NAME, name, ...) lines name the spec's counters."""
    listed = re.findall(r'^LRO_STAT\((\w+),\s*(\w+),', open(path).read(),
                        re.M)
    want = [(n.upper(), n) for n in stats]
    if listed != want:
        missing = [n for _, n in want if (n.upper(), n) not in listed]
        extra = [n for _, n in listed if (n.upper(), n) not in want]
        sys.exit(f'settings-gen: {path} does not list the spec\'s counters '
                 f'in its order (missing: {", ".join(missing) or "none"}; '
                 f'not in the spec: {", ".join(extra) or "none"})')


def splice(text, path, block, lines, begin, end):
    """text with the lines between the markers of block replaced."""
    b, e = begin.format(block), end.format(block)
    m = re.search('^' + re.escape(b) + r'\n(.*?)^' + re.escape(e) + '$',
                  text, re.S | re.M)
    if not m:
        sys.exit(f'settings-gen: {path} lacks the lines "{b}" ... "{e}"')
    return text[:m.start(1)] + ''.join(l + '\n' for l in lines) + \
        text[m.end(1):]


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ['--check']):
        sys.exit('usage: settings-gen.py SPEC TOP [--check]')
    spec, top = sys.argv[1:3]
    check = len(sys.argv) == 4
    settings, stats, names = load(spec)
    check_stats(f'{top}/kmod/stats-list.h', stats)

    man = 'userspace/lroadm.8'
    md = 'Documentation/control.md'
    files = {
        'kmod/settings-gen.h': c_header(settings, False),
        'userspace/settings-gen.h': c_header(settings, True),
        'userspace/stats-gen.h': stats_header(stats),
    }
    text = open(f'{top}/{man}').read()
    for block, lines in (('synopsis', man_synopsis(settings)),
                         ('settings', man_settings(settings, names))):
        text = splice(text, man, block, lines, '.\\" BEGIN {}', '.\\" END {}')
    files[man] = text
    text = open(f'{top}/{md}').read()
    files[md] = splice(text, md, 'settings', md_rows(settings),
                       '<!-- BEGIN {}: generated from the spec by make '
                       'generate -->', '<!-- END {} -->')

    rc = 0
    for path, new in files.items():
        try:
            old = open(f'{top}/{path}').read()
        except FileNotFoundError:
            old = None
        if old == new:
            continue
        if check:
            print(f'settings-gen: {path} is not what the spec gives '
                  "(run 'make generate')", file=sys.stderr)
            rc = 1
            continue
        print(f'  GEN     settings\t{path}')
        with open(f'{top}/{path}', 'w') as f:
            f.write(new)
    sys.exit(rc)


if __name__ == '__main__':
    main()
