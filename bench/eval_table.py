#!/usr/bin/env python3
"""eval_table.py - the tables of bench/eval.sh, from culprit's own output.

usage:
  eval_table.py filter RESULTS_DIR OUT_DIR
      copy every results file under RESULTS_DIR (culprit eval --format json)
      into OUT_DIR keeping only the methods of PLOT, for a plot with fewer
      lines (curve-main.svg)
  eval_table.py table SUMMARY_JSON RESULTS_DIR [--versions N] [--failed N] [--seconds S]
      print Markdown: the main table (method x measure) from SUMMARY_JSON
      (culprit eval --summary --format json), the five best of the other
      formulas, and mean EXAM per subject from the results files

Every number comes from culprit; this script only selects and formats.
"""
import argparse
import glob
import json
import os
import sys

# The table's rows: (name in the results, label).  BENCHMARKS.md's table.
MAIN = [
    ("tarantula", "Tarantula"),
    ("ochiai", "Ochiai"),
    ("jaccard", "Jaccard"),
    ("sbi", "SBI"),
    ("dstar", "DStar (*=2)"),
    ("op2", "Op2"),
    ("tuples:ochiai", "Enriched entities (tuples, Ochiai)"),
    ("tuples:dstar", "Enriched entities (tuples, DStar)"),
    ("tuples:tarantula", "Enriched entities (tuples, Tarantula)"),
    ("smap", "S_map"),
    ("scomb:tarantula", "S_comb (Tarantula), all passing tests"),
    ("scomb:tarantula@p0.1", "S_comb (Tarantula), random 10% of passing"),
    ("scomb:ochiai", "S_comb (Ochiai), all passing tests"),
    ("tarantula@p0.1", "Tarantula, random 10% of passing"),
    ("ochiai@p0.1", "Ochiai, random 10% of passing"),
    ("blockrank", "BlockRank"),
    ("cp", "CP"),
    ("cbi", "CBI"),
    ("des-cbi", "DES-CBI"),
    ("sober", "SOBER"),
    ("des-sober", "DES-SOBER"),
    ("nearest-neighbor", "Nearest neighbor"),
    ("set-union", "Set union"),
    ("set-intersection", "Set intersection"),
]
MAIN_NAMES = {name for name, _ in MAIN}
# The methods of curve-main.svg: one or two per family, few enough to read.
PLOT = ["tarantula", "ochiai", "dstar", "tuples:ochiai", "scomb:tarantula", "scomb:tarantula@p0.1", "blockrank",
        "cp", "cbi", "sober", "nearest-neighbor"]
# Methods shown per subject.
PER_SUBJECT = ["tarantula", "ochiai", "dstar", "tuples:ochiai", "scomb:tarantula", "blockrank", "cbi", "sober",
               "nearest-neighbor"]


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def results_files(results_dir):
    return sorted(glob.glob(os.path.join(results_dir, "**", "*.json"), recursive=True))


def cmd_filter(args):
    os.makedirs(args.out_dir, exist_ok=True)
    for path in results_files(args.results_dir):
        doc = load(path)
        doc["results"] = [r for r in doc["results"] if r["formula"] in PLOT]
        doc["results"].sort(key=lambda r: PLOT.index(r["formula"]))
        if not doc["results"]:
            continue
        name = os.path.relpath(path, args.results_dir).replace(os.sep, "-")
        with open(os.path.join(args.out_dir, name), "w", encoding="utf-8") as f:
            json.dump(doc, f)


def pct(x):
    return "—" if x is None else f"{x:.1f}"


def row(label, s):
    within = s["within_percent"]
    top = s["top_percent"]
    sd = s["exam_sd"]
    cells = [label, str(s["faults"])]
    cells += [pct(within[k]) for k in ("5", "10", "15", "20")]
    cells += [f"{100 * s['exam_mean']:.2f}", "—" if sd is None else f"{100 * sd:.2f}"]
    cells += [pct(s["well_localized_percent"])]
    cells += [pct(top[k]) for k in ("1", "5", "10")]
    return "| " + " | ".join(cells) + " |"


HEADER = ("| method | faults | ≤5% | ≤10% | ≤15% | ≤20% | EXAM mean % | EXAM sd % | well-loc. % "
          "| top-1 % | top-5 % | top-10 % |\n"
          "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")


def per_subject(results_dir):
    """mean EXAM (%) per subject and method, from the results files."""
    sums = {}
    for path in results_files(results_dir):
        doc = load(path)
        subject = doc["version"].split("/")[0]
        for r in doc["results"]:
            key = (subject, r["formula"])
            total, n = sums.get(key, (0.0, 0))
            sums[key] = (total + r["exam"], n + 1)
    return sums


def cmd_table(args):
    summary = load(args.summary)
    by_name = {s["formula"]: s for s in summary["formulas"]}
    out = []
    if args.versions is not None:
        note = f"{args.versions} faulty versions"
        if args.failed:
            note += f" ({args.failed} could not be evaluated, see failures.txt)"
        if args.seconds is not None:
            note += f"; {args.seconds // 60} min {args.seconds % 60} s in all"
        out.append(note + ".")
        out.append("")
    out.append("EXAM over executable lines, worst rank of ties; ≤X%: % of faults located within X% of the code; "
               "well-loc.: EXAM < 1%; top-N: % of faults ranked within the first N lines. The 10% rows average "
               "over the seeds (each version counts once per seed).")
    out.append("")
    out.append(HEADER)
    missing = []
    for name, label in MAIN:
        if name in by_name:
            out.append(row(f"{label} (`{name}`)", by_name[name]))
        else:
            missing.append(name)
    if missing:
        out.append("")
        out.append("Not in the results: " + ", ".join(f"`{m}`" for m in missing) + ".")
    others = [s for s in summary["formulas"] if s["formula"] not in MAIN_NAMES and "@" not in s["formula"]]
    others.sort(key=lambda s: s["exam_mean"])
    if others:
        out.append("")
        out.append(f"The other methods ({len(others)}), best five by mean EXAM:")
        out.append("")
        out.append(HEADER)
        for s in others[:5]:
            out.append(row(f"`{s['formula']}`", s))
    sums = per_subject(args.results_dir)
    subjects = sorted({k[0] for k in sums})
    methods = [m for m in PER_SUBJECT if any((s, m) in sums for s in subjects)]
    if subjects and methods:
        out.append("")
        out.append("Mean EXAM (%) per subject:")
        out.append("")
        out.append("| subject | faults | " + " | ".join(f"`{m}`" for m in methods) + " |")
        out.append("|---|--:|" + "--:|" * len(methods))
        for subject in subjects:
            n = max(sums.get((subject, m), (0, 0))[1] for m in methods)
            cells = []
            for m in methods:
                total, count = sums.get((subject, m), (0.0, 0))
                cells.append(f"{100 * total / count:.1f}" if count else "—")
            out.append(f"| {subject} | {n} | " + " | ".join(cells) + " |")
    print("\n".join(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("filter")
    f.add_argument("results_dir")
    f.add_argument("out_dir")
    t = sub.add_parser("table")
    t.add_argument("summary")
    t.add_argument("results_dir")
    t.add_argument("--versions", type=int)
    t.add_argument("--failed", type=int, default=0)
    t.add_argument("--seconds", type=int)
    args = parser.parse_args()
    try:
        if args.command == "filter":
            cmd_filter(args)
        else:
            cmd_table(args)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"eval_table.py: {e}")


if __name__ == "__main__":
    main()
