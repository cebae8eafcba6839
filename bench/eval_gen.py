#!/usr/bin/env python3
"""eval_gen.py - the helpers of bench/eval_gen.sh (`make eval-gen`, issue 17).

usage:
  eval_gen.py seed MANIFEST.json TESTS.csv OUT_DIR
      The first test of the pool's manifest (bench/eval_manifest.py's JSON)
      that failed (TESTS.csv: `culprit tests --format csv` of the pool run):
      writes OUT_DIR/stdin (its standard input) and OUT_DIR/args (its
      arguments, one per line) and prints its name.  Exit 1 when none failed
      or the test is not argv + stdin.
  eval_gen.py afl-manifest QUEUE_DIR... --program PROG --reference REF
                           --args ARGS_FILE --out DIR
      AFL++'s queue (and crashes) as a culprit manifest: every input runs
      through REF ARGS (the unfaulted build) to get the expected stdout and
      exit status; DIR/tests.json runs PROG ARGS on each input.
  eval_gen.py table OUT_DIR [--seconds S]
      The summary (BENCHMARKS.md's section "Generated tests (issue 17)") of
      OUT_DIR/results/*: per strategy, seeds/001 Tables 3 and 4 for culprit
      beside the hand-written pool and AFL++ at PCS's wall time.
"""
import json
import os
import subprocess
import sys

STRATEGIES = ["base", "coverage", "pcs", "pcs-seq", "is", "bisect", "delta", "mix"]
METHOD = "default"  # the trace's key for `culprit rank`'s default method


def seed(manifest_path, tests_csv, out_dir):
    import csv
    with open(manifest_path, encoding="utf-8") as f:
        tests = json.load(f)
    with open(tests_csv, encoding="utf-8") as f:
        failing = {row["name"] for row in csv.DictReader(f) if row["verdict"] in ("fail", "error", "timeout")}
    base = os.path.dirname(os.path.abspath(manifest_path))
    for test in tests:
        if test["name"] not in failing:
            continue
        if "argv" not in test or "stdin" not in test:
            sys.exit(f"eval_gen.py: {test['name']} is not argv + stdin")
        os.makedirs(out_dir, exist_ok=True)
        with open(os.path.join(base, test["stdin"]["file"]), "rb") as src, \
                open(os.path.join(out_dir, "stdin"), "wb") as dst:
            dst.write(src.read())
        with open(os.path.join(out_dir, "args"), "w", encoding="utf-8") as f:
            for word in test["argv"][1:]:
                if "\n" in word:
                    sys.exit(f"eval_gen.py: {test['name']}: an argument holds a newline")
                f.write(word + "\n")
        print(test["name"])
        return 0
    sys.exit("eval_gen.py: no test of the pool failed")


def afl_manifest(argv):
    queues, options, i = [], {}, 0
    while i < len(argv):
        if argv[i].startswith("--"):
            options[argv[i][2:]] = argv[i + 1]
            i += 2
        else:
            queues.append(argv[i])
            i += 1
    with open(options["args"], encoding="utf-8") as f:
        args = [line.rstrip("\n") for line in f if line != ""]
    out = os.path.abspath(options["out"])
    os.makedirs(os.path.join(out, "expected"), exist_ok=True)
    tests = []
    for queue in queues:
        if not os.path.isdir(queue):
            continue
        kind = os.path.basename(queue.rstrip("/"))
        for name in sorted(os.listdir(queue)):
            path = os.path.abspath(os.path.join(queue, name))
            if not name.startswith("id:") or not os.path.isfile(path):
                continue
            test = f"afl/{kind}/{name.split(',')[0][3:]}"
            expected = os.path.join(out, "expected", test.replace("/", "-"))
            with open(path, "rb") as stdin, open(expected, "wb") as stdout:
                try:
                    done = subprocess.run([options["reference"]] + args, stdin=stdin, stdout=stdout,
                                          stderr=subprocess.DEVNULL, timeout=10)
                    status = done.returncode
                except subprocess.TimeoutExpired:
                    continue  # the reference hangs: no expected output
            if status < 0:
                continue  # the reference crashes: no oracle for this input
            tests.append({"name": test, "argv": [options["program"]] + args, "stdin": {"file": path},
                          "expect_stdout": {"file": expected}, "expect_exit": status})
    with open(os.path.join(out, "tests.json"), "w", encoding="utf-8") as f:
        json.dump(tests, f)
    print(len(tests))


# ---- the summary ----

def read_trace(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def eval_result(path, technique):
    """worst rank, EXAM and well-localized of `culprit eval --format json`'s
    result for the technique (tuples) or the formula (ochiai)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    for result in data["results"]:
        if result.get("technique") == technique or (technique == "ochiai" and result["formula"] == "ochiai"):
            return {"worst": result["worst"], "exam": result["exam"], "well": result["well_localized"],
                    "failing": data["failing_tests"], "tests": data["failing_tests"] + data["passing_tests"]}
    return None


def load(out_dir):
    faults = []
    results = os.path.join(out_dir, "results")
    for version in sorted(os.listdir(results)):
        d = os.path.join(results, version)
        meta_path = os.path.join(d, "meta.json")
        if not os.path.exists(meta_path):
            continue
        with open(meta_path, encoding="utf-8") as f:
            meta = json.load(f)
        fault = {"version": meta["version"], "meta": meta, "traces": {}}
        for s in STRATEGIES:
            p = os.path.join(d, s + ".jsonl")
            if os.path.exists(p):
                rows = [r for r in read_trace(p) if METHOD in r]
                if rows:
                    fault["traces"][s] = rows
        for name in ("pool", "afl"):
            p = os.path.join(d, name + ".json")
            fault[name] = eval_result(p, "tuples") if os.path.exists(p) else None
        faults.append(fault)
    return faults


def value_at(rows, k, key):
    """The trace's measure after k generated tests (the seed is test 0): the
    last row with index <= k; a search that stopped early keeps its last."""
    best = None
    for r in rows:
        if r["index"] <= k:
            best = r
    return best[METHOD][key] if best else None


def per_strategy(faults, strategy, budget):
    runs = [f for f in faults if strategy in f["traces"]]
    if not runs:
        return None
    curve = []  # k -> (% well-localized, mean worst rank, mean EXAM)
    for k in range(budget + 1):
        wells = [value_at(f["traces"][strategy], k, "well_localized") for f in runs]
        ranks = [value_at(f["traces"][strategy], k, "worst") for f in runs]
        exams = [value_at(f["traces"][strategy], k, "exam") for f in runs]
        curve.append((100.0 * sum(1 for w in wells if w) / len(runs), sum(ranks) / len(runs),
                      sum(exams) / len(runs)))
    # The plateau: the first k where the aggregate curve reaches its best -
    # the highest % well-localized, and among the k with it the lowest mean
    # worst rank (so a curve that never localizes well still has one).
    best_well = max(c[0] for c in curve)
    min_rank = min(c[1] for c in curve if c[0] == best_well)
    k_plateau = next(k for k, c in enumerate(curve) if c[0] == best_well and c[1] == min_rank)
    # Per fault: the tests and seconds until its best worst rank first.
    tests_to_best, seconds_to_best, total_seconds, total_tests = [], [], [], []
    for f in runs:
        rows = f["traces"][strategy]
        best = min(r[METHOD]["worst"] for r in rows)
        first = next(r for r in rows if r[METHOD]["worst"] == best)
        tests_to_best.append(first["index"])
        seconds_to_best.append(first["seconds"])
        total_seconds.append(rows[-1]["seconds"])
        total_tests.append(rows[-1]["index"])
    seconds_at = []  # mean seconds to reach the aggregate plateau (each fault's time at k, or its end)
    for f in runs:
        rows = [r for r in f["traces"][strategy] if r["index"] <= k_plateau]
        seconds_at.append(rows[-1]["seconds"])
    n = len(runs)
    return {"faults": n, "well": best_well, "rank": curve[k_plateau][1], "exam": curve[k_plateau][2],
            "k": k_plateau, "seconds_k": sum(seconds_at) / n,
            "tests_best": sum(tests_to_best) / n, "seconds_best": sum(seconds_to_best) / n,
            "tests_run": sum(total_tests) / n, "seconds_run": sum(total_seconds) / n,
            "seed_well": curve[0][0], "seed_rank": curve[0][1]}


def afl_versus_pcs(faults):
    better = equal = worse = 0
    for f in faults:
        if not f["afl"] or "pcs" not in f["traces"]:
            continue
        pcs = f["traces"]["pcs"][-1][METHOD]["worst"]
        afl = f["afl"]["worst"]
        if pcs < afl:
            better += 1
        elif pcs == afl:
            equal += 1
        else:
            worse += 1
    return better, equal, worse


def table(out_dir, seconds):
    faults = load(out_dir)
    budget = max([r["index"] for f in faults for rows in f["traces"].values() for r in rows] + [0])
    lines = []
    w = lines.append
    w(f"{len(faults)} faulty versions; the method is `culprit rank`'s default (tuples over Ochiai), "
      "worst rank of the first faulty line, EXAM over the executable lines.\n")
    w("| suite | faults | % well-localized at the plateau | mean worst rank | mean EXAM | "
      "tests to the plateau (k) | seconds to k | per fault: tests / s to its best rank | tests / s run |")
    w("|---|---|---|---|---|---|---|---|---|")
    for s in STRATEGIES:
        r = per_strategy(faults, s, budget)
        if not r:
            continue
        w(f"| {s} | {r['faults']} | {r['well']:.1f}% | {r['rank']:.1f} | {100 * r['exam']:.2f}% | {r['k']} | "
          f"{r['seconds_k']:.1f} | {r['tests_best']:.1f} / {r['seconds_best']:.1f} | "
          f"{r['tests_run']:.1f} / {r['seconds_run']:.1f} |")
    for name, label in (("pool", "hand-written pool"), ("afl", "AFL++ queue, PCS's wall time")):
        rs = [f[name] for f in faults if f[name]]
        if rs:
            n = len(rs)
            w(f"| {label} | {n} | {100.0 * sum(1 for r in rs if r['well']) / n:.1f}% | "
              f"{sum(r['worst'] for r in rs) / n:.1f} | {100 * sum(r['exam'] for r in rs) / n:.2f}% | "
              f"{sum(r['tests'] for r in rs) / n:.0f} tests | | | |")
    b, e, wo = afl_versus_pcs(faults)
    w("")
    w(f"PCS after its run against the AFL++ queue of the same wall time, fault by fault (worst rank): "
      f"PCS better on {b}, equal on {e}, worse on {wo}.")
    seed_rows = [f for f in faults if "pcs" in f["traces"]]
    if seed_rows:
        r = per_strategy(faults, "pcs", budget)
        w(f"The failing test alone (k = 0): {r['seed_well']:.1f}% well-localized, mean worst rank "
          f"{r['seed_rank']:.1f}.")
    w("")
    w("| fault | seed test | " + " | ".join(STRATEGIES) + " | pool | AFL++ (s, queue) |")
    w("|---|---|" + "---|" * len(STRATEGIES) + "---|---|")
    for f in faults:
        cells = []
        for s in STRATEGIES:
            rows = f["traces"].get(s)
            if rows:
                last = rows[-1]
                cells.append(f"{last[METHOD]['worst']:g} ({last['index']}, {last['seconds']:.0f}s)")
            else:
                cells.append("-")
        pool = f"{f['pool']['worst']:g}" if f["pool"] else "-"
        afl = (f"{f['afl']['worst']:g} ({f['meta'].get('afl_seconds', '?')}s, {f['afl']['tests']})"
               if f["afl"] else f["meta"].get("afl_note", "-"))
        w(f"| {f['version']} | {f['meta'].get('seed', '-')} | " + " | ".join(cells) + f" | {pool} | {afl} |")
    w("")
    w("Cells: worst rank after the run (generated tests, seconds).")
    if seconds:
        w(f"\nTotal time of the run: {seconds} s.")
    print("\n".join(lines))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    command = sys.argv[1]
    if command == "seed" and len(sys.argv) == 5:
        return seed(*sys.argv[2:])
    if command == "afl-manifest":
        return afl_manifest(sys.argv[2:])
    if command == "table" and len(sys.argv) in (3, 5):
        return table(sys.argv[2], sys.argv[4] if len(sys.argv) == 5 else None)
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
