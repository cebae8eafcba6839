#!/usr/bin/env python3
"""choose_default.py - choose `culprit rank`'s default method by evidence:
leave-one-subject-out over culprit's own results files (issue 20 item 5).

usage:
  choose_default.py [--criterion top5|top10|top1|exam] [--ties worst|average]
                    [--method M ...] [--exclude M ...] RESULTS_DIR...

RESULTS_DIR holds `culprit eval --format json` files, one per faulty
version (bench/eval.sh's results/all, bench/eval_debian.sh's); a version
named "SUBJECT/FAULT" belongs to SUBJECT.  Candidates are the methods with
a result on every version (--method narrows them, --exclude drops some).

For each subject S, the candidate that does best on every other subject
(by --criterion, ties broken by mean EXAM, then top-1) is chosen and scored
on S alone: so each subject is judged by a choice it did not influence.
Printed (Markdown): the fold table (subject, chosen method, its top-1/5/10
and mean EXAM on S), the pooled held-out figures, their spread across
subjects (sd) and the worst subject, the method chosen on all subjects
together (the default to ship) and, beside it, the fixed methods of
--compare for reference (default: ochiai, tuples:ochiai).

Every rank and EXAM comes from culprit; this script only selects and
averages.
"""
import argparse
import glob
import json
import os
import statistics
import sys


def load(directories):
    """{version: {method: (rank, exam)}} and {version: subject}."""
    versions, subjects = {}, {}
    for directory in directories:
        for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
            with open(path) as handle:
                data = json.load(handle)
            if "culprit_eval" not in data:
                continue
            version = data["version"]
            if version in versions:
                sys.exit("choose_default.py: %s: version %s seen twice" % (path, version))
            lines = data["executable_lines"]
            versions[version] = {r["formula"]: {ties: r[ties] for ties in ("best", "worst", "average")}
                                 for r in data["results"]}
            for result in versions[version].values():
                result["lines"] = lines
            subjects[version] = version.split("/")[0]
    if not versions:
        sys.exit("choose_default.py: no results files in %s" % " ".join(directories))
    return versions, subjects


def exam(result, ties):
    """EXAM (a fraction) of one result under ties: rank / executable lines."""
    return result[ties] / result["lines"]


def figures(versions, names, method, ties):
    """top-1/5/10 (%) and mean EXAM (%) of method over the versions names."""
    return pooled_figures([versions[v][method] for v in names], ties)


def pooled_figures(results, ties):
    ranks = [result[ties] for result in results]
    count = len(ranks)
    return {
        "faults": count,
        "top1": 100.0 * sum(r <= 1 for r in ranks) / count,
        "top5": 100.0 * sum(r <= 5 for r in ranks) / count,
        "top10": 100.0 * sum(r <= 10 for r in ranks) / count,
        "exam": 100.0 * statistics.mean(exam(result, ties) for result in results),
    }


def key(figure, criterion):
    """Larger is better."""
    if criterion == "exam":
        return (-figure["exam"], figure["top5"], figure["top1"])
    return (figure[criterion], -figure["exam"], figure["top1"])


def best(versions, names, candidates, criterion, ties):
    scored = [(key(figures(versions, names, m, ties), criterion), m) for m in candidates]
    scored.sort(key=lambda pair: (pair[0], [-ord(c) for c in pair[1]]), reverse=True)
    return scored[0][1]


def row(label, method, figure):
    return "| %s | %s | %d | %.1f%% | %.1f%% | %.1f%% | %.2f%% |" % (
        label, method, figure["faults"], figure["top1"], figure["top5"], figure["top10"], figure["exam"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directories", nargs="+")
    parser.add_argument("--criterion", default="top5", choices=["top1", "top5", "top10", "exam"])
    parser.add_argument("--ties", default="worst", choices=["worst", "average", "best"])
    parser.add_argument("--method", action="append", default=[])
    parser.add_argument("--exclude", action="append", default=[])
    parser.add_argument("--compare", action="append", default=[])
    args = parser.parse_args()
    versions, subjects = load(args.directories)
    candidates = set.intersection(*(set(results) for results in versions.values()))
    if args.method:
        candidates &= set(args.method)
    candidates -= set(args.exclude)
    if not candidates:
        sys.exit("choose_default.py: no method has a result on every version")
    candidates = sorted(candidates)
    by_subject = {}
    for version, subject in subjects.items():
        by_subject.setdefault(subject, []).append(version)
    if len(by_subject) < 2:
        sys.exit("choose_default.py: leave-one-subject-out needs two subjects or more")

    print("Leave-one-subject-out, %d candidates, criterion %s, %s-case ties, %d faults in %d subjects.\n"
          % (len(candidates), args.criterion, args.ties, len(versions), len(by_subject)))
    print("| held out | chosen on the others | faults | top-1 | top-5 | top-10 | mean EXAM |")
    print("|---|---|---|---|---|---|---|")
    held_out_ranks, per_subject = [], []
    for subject in sorted(by_subject):
        others = [v for v in versions if subjects[v] != subject]
        chosen = best(versions, others, candidates, args.criterion, args.ties)
        figure = figures(versions, by_subject[subject], chosen, args.ties)
        per_subject.append((subject, chosen, figure))
        held_out_ranks += [(v, chosen) for v in by_subject[subject]]
        print(row(subject, chosen, figure))
    pooled = pooled_figures([versions[v][m] for v, m in held_out_ranks], args.ties)
    print(row("**pooled**", "(per fold)", pooled))
    top5s = [f["top5"] for _, _, f in per_subject]
    exam_means = [f["exam"] for _, _, f in per_subject]
    worst = min(per_subject, key=lambda entry: (entry[2]["top5"], -entry[2]["exam"]))
    print("\nAcross subjects: top-5 %.1f%% +- %.1f (sd), mean EXAM %.2f%% +- %.2f; worst subject %s "
          "(top-5 %.1f%%, mean EXAM %.2f%%, chosen %s)."
          % (statistics.mean(top5s), statistics.stdev(top5s), statistics.mean(exam_means),
             statistics.stdev(exam_means), worst[0], worst[2]["top5"], worst[2]["exam"], worst[1]))
    everything = list(versions)
    shipped = best(versions, everything, candidates, args.criterion, args.ties)
    print("\nChosen on all subjects (the default to ship): **%s**.\n" % shipped)
    print("| over all faults | method | faults | top-1 | top-5 | top-10 | mean EXAM |")
    print("|---|---|---|---|---|---|---|")
    print(row("chosen", shipped, figures(versions, everything, shipped, args.ties)))
    for method in args.compare or ["ochiai", "tuples:ochiai"]:
        if all(method in versions[v] for v in everything):
            print(row("fixed", method, figures(versions, everything, method, args.ties)))


if __name__ == "__main__":
    main()
