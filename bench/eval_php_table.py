#!/usr/bin/env python3
"""eval_php_table.py RESULTS_DIR [--failed N] [--seconds S] - the table of
BENCHMARKS.md, "PHP subjects (issue 21.4)", from bench/eval_php.sh's
results files (culprit eval --format json, docs/eval.md).

Per method: faults evaluated; % well-localized as seeds/000 and seeds/001
count it (EXAM over the lines the tests *executed* < 1%); the same over
every executable line (culprit eval's `well_localized`); mean EXAM over
executed lines; top-1 and top-5 (worst rank of ties).  Then the seeds/000
measure per subject.  Results of the passing-sample variant (methods named
NAME@pF, one results file per version and seed) count each version once
per seed.
"""
import argparse
import glob
import json
import os
import statistics

LABELS = {
    "tarantula": "Tarantula",
    "ochiai": "Ochiai",
    "tuples:ochiai": "tuples (Ochiai)",
    "tuples:tarantula": "tuples (Tarantula)",
    "smap": "S_map",
    "scomb:tarantula": "S_comb (Tarantula, Apollo's)",
    "scomb:ochiai": "S_comb (Ochiai)",
}


def label(name):
    """tarantula@p0.1 -> Tarantula, 10% of passing tests"""
    base, _, sample = name.partition("@p")
    text = LABELS.get(base, base)
    return text + (", %d%% of passing tests" % round(100 * float(sample)) if sample else "")

ap = argparse.ArgumentParser()
ap.add_argument("results")
ap.add_argument("--failed", type=int, default=0)
ap.add_argument("--seconds", type=int, default=0)
args = ap.parse_args()

rows = {}
faults = {}
subject_faults = {}
order = []
subjects = {}
# the results of all passing tests first, then the sampled ones
paths = glob.glob(os.path.join(args.results, "*.json"))
for path in sorted(paths, key=lambda p: ("-s" in os.path.basename(p).rsplit("-v", 1)[-1], p)):
    with open(path) as f:
        r = json.load(f)
    subject = r["version"].split("/")[0]
    version = r["version"].split("#")[0]
    for res in r["results"]:
        name = res["formula"]
        if name not in rows:
            rows[name] = []
            order.append(name)
        ex = res["exam_executed"]
        rows[name].append((res["exam"], ex, res["rank"]))
        faults.setdefault(name, set()).add(version)
        subjects.setdefault(subject, {}).setdefault(name, []).append(ex)
        subject_faults.setdefault(subject, set()).add(version)


def pct(n, d):
    return "%.1f%%" % (100.0 * n / d) if d else "-"


print("| method | faults | well-localized (EXAM < 1% of executed lines, seeds/000) "
      "| EXAM < 1% of executable lines | mean EXAM (executed) | top-1 | top-5 |")
print("|---|---|---|---|---|---|---|")
for name in order:
    v = rows[name]
    n = len(v)
    wl_exec = sum(1 for e, x, r in v if x is not None and x < 0.01)
    wl_all = sum(1 for e, x, r in v if e < 0.01)
    mean = statistics.mean(x for e, x, r in v if x is not None)
    print("| %s | %d | %s | %s | %.2f%% | %d | %d |" % (
        label(name), len(faults[name]), pct(wl_exec, n), pct(wl_all, n), 100 * mean,
        sum(1 for e, x, r in v if r <= 1), sum(1 for e, x, r in v if r <= 5)))
print()
names = [s for s in sorted(subjects)]
print("Well-localized (seeds/000's measure) per subject:")
print()
print("| method | " + " | ".join("%s (%d)" % (s, len(subject_faults[s])) for s in names) + " |")
print("|---|" + "---|" * len(names))
for name in order:
    cells = []
    for s in names:
        v = subjects[s].get(name, [])
        cells.append(pct(sum(1 for x in v if x is not None and x < 0.01), len(v)))
    print("| %s | %s |" % (label(name), " | ".join(cells)))
if args.failed:
    print()
    print("%d faulty versions could not be evaluated (failures.txt)." % args.failed)
