#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""coverage.py VM_OUT BUILD OUT -- lro.ko's line and branch coverage.

Reads the gcov counters selftests/run_tests.sh saved after each test
(VM_OUT/gcov/TEST/*.gcda, or VM_OUT/gN/gcov/TEST/ for several guests),
the notes files gcc wrote beside lro.ko's objects (BUILD/kmod/*.gcno), and
writes into OUT:
  report.txt    per file: lines and branches executed; the functions never
                entered; per test: the kmod lines it executes and how many
                of them no other test does
  summary.json  the same figures for scripts and CI
  lcov.info     an lcov trace file (genhtml OUT/lcov.info makes HTML)
The first lines of report.txt are the summary check.sh prints.

Only kmod/'s own files are counted, not the kernel headers inlined into
them. gcov (from gcc, the compiler the module was built with) does the
reading: 'gcov --json-format --stdout' per data file.
"""

import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict


def gcov_json(objdir, gcda_dir, name):
    """gcov's JSON for object NAME, counters from gcda_dir (None: none)."""
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.join(objdir, name + ".gcno"),
                   os.path.join(tmp, name + ".gcno"))
        if gcda_dir:
            os.symlink(os.path.join(gcda_dir, name + ".gcda"),
                       os.path.join(tmp, name + ".gcda"))
        out = subprocess.run(["gcov", "--json-format", "--stdout",
                              "--branch-probabilities", name + ".gcda"],
                             cwd=tmp, capture_output=True, text=True,
                             check=False)
    docs = []
    for line in out.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            docs.append(json.loads(line))
    return docs


class Cov:
    """Lines, branches and functions of kmod/, with counts."""

    def __init__(self, top, build):
        self.top = top
        self.kmod_out = os.path.join(build, "kmod")
        self.lines = defaultdict(int)      # (file, line) -> count
        self.branches = defaultdict(int)   # (file, line, i) -> count
        self.funcs = {}                    # (file, name) -> [line, count]

    def rel(self, path):
        """kmod/... for a file of ours, else None."""
        if not os.path.isabs(path):
            path = os.path.join(self.kmod_out, path)
        path = os.path.realpath(path)
        kmod = os.path.join(self.top, "kmod") + os.sep
        if not path.startswith(kmod):
            return None
        return os.path.relpath(path, self.top)

    def add(self, docs):
        for doc in docs:
            for f in doc.get("files", []):
                rel = self.rel(f["file"])
                if rel is None:
                    continue
                for ln in f.get("lines", []):
                    key = (rel, ln["line_number"])
                    self.lines[key] += ln["count"]
                    for i, br in enumerate(ln.get("branches", [])):
                        self.branches[key + (i,)] += br["count"]
                for fn in f.get("functions", []):
                    k = (rel, fn["demangled_name"])
                    cur = self.funcs.setdefault(k, [fn["start_line"], 0])
                    cur[1] += fn["execution_count"]

    def hit(self):
        """The lines executed and the branch outcomes taken."""
        return ({k for k, c in self.lines.items() if c > 0} |
                {k for k, c in self.branches.items() if c > 0})


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    vm_out, build, out = (os.path.abspath(a) for a in sys.argv[1:])
    top = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    objdir = os.path.join(build, "kmod")
    names = sorted(os.path.basename(p)[:-5]
                   for p in glob.glob(os.path.join(objdir, "*.gcno")))
    if not names:
        sys.exit(f"coverage: no {objdir}/*.gcno: lro.ko was not built for "
                 "gcov (the debug kernel's build, make KERNEL=debug)")
    runs = sorted(glob.glob(os.path.join(vm_out, "gcov", "*")) +
                  glob.glob(os.path.join(vm_out, "g*", "gcov", "*")))
    if not runs:
        sys.exit(f"coverage: no counters under {vm_out}: run "
                 "'make check KERNEL=debug' first")

    total = Cov(top, build)
    for n in names:                 # every instrumented line, count 0
        total.add(gcov_json(objdir, None, n))
    per_test = {}
    for run in runs:
        test = os.path.basename(run)
        cov = Cov(top, build)
        for n in names:
            if os.path.exists(os.path.join(run, n + ".gcda")):
                cov.add(gcov_json(objdir, run, n))
        for k, c in cov.lines.items():
            total.lines[k] += c
        for k, c in cov.branches.items():
            total.branches[k] += c
        for k, v in cov.funcs.items():
            total.funcs.setdefault(k, [v[0], 0])[1] += v[1]
        per_test[test] = per_test.get(test, set()) | cov.hit()

    # A test that ran without lro.ko loaded left no counters: no lines.
    for ktap in (glob.glob(os.path.join(vm_out, "ktap")) +
                 glob.glob(os.path.join(vm_out, "g*", "ktap"))):
        with open(ktap) as fh:
            for line in fh:
                m = re.match(r"(not )?ok \d+ selftests: (\w+)", line)
                if m:
                    per_test.setdefault(m.group(2), set())

    files = sorted({k[0] for k in total.lines})
    rows = []
    for f in files:
        ls = [c for (ff, _), c in total.lines.items() if ff == f]
        bs = [c for (ff, _, _), c in total.branches.items() if ff == f]
        rows.append((f, sum(c > 0 for c in ls), len(ls),
                     sum(c > 0 for c in bs), len(bs)))
    lh = sum(r[1] for r in rows)
    lf = sum(r[2] for r in rows)
    bh = sum(r[3] for r in rows)
    bf = sum(r[4] for r in rows)
    unentered = sorted((f, line, name) for (f, name), (line, c)
                       in total.funcs.items() if c == 0)
    everyone = defaultdict(int)
    for hit in per_test.values():
        for k in hit:
            everyone[k] += 1
    tests = []
    for t, hit in sorted(per_test.items()):
        lines = [k for k in hit if len(k) == 2]
        only = sum(1 for k in lines if everyone[k] == 1)
        only_br = sum(1 for k in hit if len(k) == 3 and everyone[k] == 1)
        tests.append((t, len(lines), only, only_br))

    # Which tests the rest of the suite covers: the slowest first (by
    # VM_OUT/times, else selftests/durations), each left out while every
    # line it executes and every branch outcome it takes is still
    # executed and taken by a test kept. What a test checks is more than
    # its lines: this only says where KASAN would see no code, and no
    # way through it, that it does not see anyway.
    times = {}
    for path, col in ((os.path.join(top, "selftests", "durations"), 2),
                      (os.path.join(vm_out, "times"), 1)):
        try:
            with open(path) as fh:
                for line in fh:
                    f = line.split()
                    if (len(f) > col and not f[0].startswith("#")
                            and f[col].isdigit()):
                        times[f[0]] = int(f[col])
        except OSError:
            pass
    kept = dict(per_test)
    spare = []
    for t in sorted(per_test, key=lambda t: -times.get(t, 0)):
        if t == "kmemleak":
            continue
        rest = set().union(*(h for u, h in kept.items() if u != t))
        if per_test[t] <= rest:
            spare.append(t)
            del kept[t]

    # A test whose header keeps it off the debug suite ran here anyway
    # (make coverage T=...): it must still have nothing of its own.
    wrongly_off = []
    for t, n, o, b in tests:
        try:
            with open(os.path.join(top, "selftests", t + ".sh")) as fh:
                off = any(line.startswith("# debug-kernel: no")
                          for line in fh)
        except OSError:
            off = False
        if off and (o or b):
            wrongly_off.append(f"{t} ({o} lines, {b} branch outcomes)")

    os.makedirs(out, exist_ok=True)
    summary = {
        "lines": {"hit": lh, "found": lf, "percent": round(pct(lh, lf), 1)},
        "branches": {"hit": bh, "found": bf,
                     "percent": round(pct(bh, bf), 1)},
        "files": {f: {"lines_hit": a, "lines": b, "branches_hit": c,
                      "branches": d} for f, a, b, c, d in rows},
        "functions_never_entered": [f"{f}:{line} {name}"
                                    for f, line, name in unentered],
        "tests": {t: {"lines": n, "only_this_test": o,
                      "branches_only_this_test": b,
                      "seconds": times.get(t)}
                  for t, n, o, b in tests},
        "covered_by_the_rest": spare,
        "debug_kernel_no_yet_alone": wrongly_off,
    }
    with open(os.path.join(out, "summary.json"), "w") as fh:
        json.dump(summary, fh, indent=1)
        fh.write("\n")

    with open(os.path.join(out, "report.txt"), "w") as fh:
        w = fh.write
        w(f"coverage: kmod lines {pct(lh, lf):.1f}% ({lh}/{lf}), branches "
          f"{pct(bh, bf):.1f}% ({bh}/{bf}), {len(unentered)} functions "
          f"never entered, over {len(per_test)} tests\n")
        if wrongly_off:
            w("coverage: marked '# debug-kernel: no', yet executing what no "
              "other test here does: " + ", ".join(wrongly_off) + "\n")
        w(f"coverage: report {os.path.join(out, 'report.txt')}\n\n")
        w(f"{'file':26} {'lines':>15} {'branches':>15}\n")
        for f, a, b, c, d in rows:
            w(f"{f:26} {a:5}/{b:<5} {pct(a, b):3.0f}% "
              f"{c:5}/{d:<5} {pct(c, d):3.0f}%\n")
        w(f"{'total':26} {lh:5}/{lf:<5} {pct(lh, lf):3.0f}% "
          f"{bh:5}/{bf:<5} {pct(bh, bf):3.0f}%\n\n")
        w("functions never entered:\n")
        for f, line, name in unentered:
            w(f"  {f}:{line} {name}\n")
        w("\nper test: kmod lines executed, how many of them no other "
          "test executes, and branch outcomes no other test takes\n")
        w(f"  {'test':16} {'lines':>6} {'alone':>6} {'br.alone':>8} "
          f"{'seconds':>8}\n")
        for t, n, o, b in sorted(tests, key=lambda x: (-x[2], -x[3], -x[1])):
            w(f"  {t:16} {n:6} {o:6} {b:8} {times.get(t, ''):>8}\n")
        w("\nleft out one by one, slowest first, while the rest still "
          "executes every kmod line and takes every branch outcome they "
          "do:\n")
        w("  " + (" ".join(spare) or "(none)") + "\n")

    with open(os.path.join(out, "lcov.info"), "w") as fh:
        w = fh.write
        for f in files:
            w("TN:\nSF:" + os.path.join(top, f) + "\n")
            fns = sorted((line, name, c) for (ff, name), (line, c)
                         in total.funcs.items() if ff == f)
            for line, name, c in fns:
                w(f"FN:{line},{name}\n")
            for line, name, c in fns:
                w(f"FNDA:{c},{name}\n")
            w(f"FNF:{len(fns)}\nFNH:{sum(c > 0 for _, _, c in fns)}\n")
            brs = sorted(k for k in total.branches if k[0] == f)
            for _, line, i in brs:
                c = total.branches[(f, line, i)]
                w(f"BRDA:{line},0,{i},{c}\n")
            w(f"BRF:{len(brs)}\n"
              f"BRH:{sum(total.branches[k] > 0 for k in brs)}\n")
            lns = sorted(k[1] for k in total.lines if k[0] == f)
            for line in lns:
                w(f"DA:{line},{total.lines[(f, line)]}\n")
            w(f"LF:{len(lns)}\n"
              f"LH:{sum(total.lines[(f, n)] > 0 for n in lns)}\n")
            w("end_of_record\n")

    with open(os.path.join(out, "report.txt")) as fh:
        sys.stdout.write("".join(fh.readlines()[:1 + bool(wrongly_off)]))


if __name__ == "__main__":
    main()
