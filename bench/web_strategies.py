#!/usr/bin/env python3
"""web_strategies.py - culprit web's strategies on the PHP web subjects
(issue 24 acceptance; seeds/001 Tables 3-4; BENCHMARKS.md "culprit web:
strategies").

For every faulty version of every PHP web subject (tests/subjects/php/NAME
with tests/manifest.json, or tests/chains.json, and faults/): copy its src/ and tests/, apply
faults/vN.patch, run the subject's request tests once (`culprit run`) to find
a failing test - the user's failing request - then, for each strategy,

  culprit web src --from TEST --tests tests/manifest.json --strategy S
              --budget BUDGET [--reference CORRECT_SRC]

into a fresh store (the correct version is the reference oracle when culprit
web has --reference, and REFERENCE=1).  Every request's progress line is
timestamped as it arrives.  The explored suite is exported (culprit export
json) and, for each prefix of k requests (k = 1..BUDGET), imported into a
fresh store and ranked with culprit's default (`culprit rank`, tuples over
Ochiai, as seeds/001 applies Ochiai to tuples): the faulty line's rank (the
worst of its ties; a fault of several lines: its best line) over the lines
the k requests executed is EXAM; a fault is *well localized* when EXAM < 1%
(seeds/001 §5).

Per strategy and subject, as the paper's Tables 3 and 4: the share of faults
well localized at the end of the budget (the plateau), the mean number and
share of executed lines to inspect, and the mean number of requests and
seconds until each fault reached its final EXAM for good (its plateau).
Writes OUT/web_strategies.json (every fault's EXAM per k) and
OUT/web_strategies.md.

usage: web_strategies.py BUILD OUT
  BUDGET=50, STRATEGIES="base coverage pcs is", VERSIONS="faqdesk/v1 ..." (default
  all), REFERENCE=1 (0: no reference oracle) in the environment
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHP = os.path.join(TOP, "tests", "subjects", "php")


def run(argv, cwd, **kwargs):
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, **kwargs)


def fault_lines(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def versions():
    wanted = os.environ.get("VERSIONS", "").split()
    found = []
    for subject in sorted(os.listdir(PHP)):
        sdir = os.path.join(PHP, subject)
        if not os.path.isfile(os.path.join(sdir, "tests", "manifest.json")):
            continue
        faults = sorted((int(f[1:-6]) for f in os.listdir(os.path.join(sdir, "faults"))
                         if f.startswith("v") and f.endswith(".patch")))
        found += [(subject, "v%d" % n) for n in faults]
    return [v for v in found if not wanted or "%s/%s" % v in wanted]


def prepare(subject, version, work):
    sdir = os.path.join(PHP, subject)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for part in ("src", "tests"):
        shutil.copytree(os.path.join(sdir, part), os.path.join(work, part))
    shutil.copytree(os.path.join(sdir, "src"), os.path.join(work, "correct"))
    with open(os.path.join(sdir, "faults", version + ".patch")) as patch:
        if run(["patch", "-s", "-p1"], work, stdin=patch).returncode:
            return "patch does not apply"
    return None


def suite(work):
    """The subject's request tests: tests/chains.json when it has one
    (fourplay: its play.sh chains as "requests" tests, which --from can
    start from), else tests/manifest.json."""
    chains = os.path.join(work, "tests", "chains.json")
    return "tests/chains.json" if os.path.isfile(chains) else "tests/manifest.json"


def first_failing(culprit, work):
    store = os.path.join(work, ".pool")
    run([culprit, "--store", store, "run", "--tests", suite(work), "-j", "2"], work)
    out = run([culprit, "--store", store, "tests", "--format", "csv"], work)
    for row in csv.DictReader(io.StringIO(out.stdout)):
        if row.get("verdict") not in ("pass", "skip"):
            return row["name"]
    return None


def explore(culprit, work, test, strategy, budget, reference):
    """Runs culprit web; returns (store, seconds at each request, exit status)."""
    store = os.path.join(work, ".web-" + strategy)
    shutil.rmtree(store, ignore_errors=True)
    argv = [culprit, "--store", store, "web", "src", "--from", test, "--tests", suite(work),
            "--strategy", strategy, "--budget", str(budget)]
    if reference:
        argv += ["--reference", os.path.join(work, "correct")]
    started = time.monotonic()
    stamps = []
    process = subprocess.Popen(argv, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if line.startswith("culprit web: ") and " web-0" in line:
            stamps.append(time.monotonic() - started)
    return store, stamps, process.wait()


def exams(culprit, work, store, faults, budget):
    """EXAM over executed lines after each prefix of k requests."""
    exported = run([culprit, "--store", store, "export", "json"], work)
    if exported.returncode:
        return []
    data = json.loads(exported.stdout)
    tests = sorted(data["tests"], key=lambda t: t["name"])
    lines = {i for i, e in enumerate(data["elements"]) if e.get("kind") == "line"}
    results = []
    executed = set()
    for k in range(1, min(budget, len(tests)) + 1):
        executed |= lines.intersection(tests[k - 1]["hits"])
        if k not in schedule(budget) and k != len(tests):
            results.append(results[-1] if results else None)  # ranked at the next point of the schedule
            continue
        if not any(t["verdict"] != "pass" for t in tests[:k]):
            results.append(None)
            continue
        prefix = dict(data, tests=tests[:k])
        path = os.path.join(work, "prefix.json")
        with open(path, "w") as f:
            json.dump(prefix, f)
        shutil.rmtree(os.path.join(work, ".prefix"), ignore_errors=True)
        run([culprit, "--store", os.path.join(work, ".prefix"), "import", "json", path], work)
        ranked = run([culprit, "--store", os.path.join(work, ".prefix"), "rank", "--format", "csv"], work)
        best = None
        for row in csv.DictReader(io.StringIO(ranked.stdout)):
            element = row["element"]
            relative = os.path.relpath(element.rsplit(":", 1)[0], work) + ":" + element.rsplit(":", 1)[1]
            if relative in faults:
                best = int(row["rank"]) if best is None else min(best, int(row["rank"]))
        results.append(None if best is None else (best, len(executed)))
    return results


def schedule(budget):
    """The prefixes ranked: every k up to 10, then every 5th (a rank takes ~0.1 s)."""
    return set(range(1, 11)) | set(range(15, budget + 1, 5)) | {budget}


def plateau(series):
    """The first k (1-based) from which the EXAM stays at its final value."""
    final = series[-1] if series else None
    k = len(series)
    while k > 1 and series[k - 2] == final:
        k -= 1
    return k


def exam_of(point):
    return None if point is None else point[0] / point[1]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    culprit = os.path.join(build, "culprit")
    os.environ["PATH"] = build + os.pathsep + os.environ["PATH"]
    budget = int(os.environ.get("BUDGET", "50"))
    strategies = os.environ.get("STRATEGIES", "base coverage pcs is").split()
    has_reference = "--reference" in run([culprit, "help", "web"], TOP).stdout
    reference = has_reference and os.environ.get("REFERENCE", "1") == "1"
    os.makedirs(out, exist_ok=True)
    results = []
    for subject, version in versions():
        work = os.path.join(out, "work", subject + "-" + version)
        problem = prepare(subject, version, work)
        test = None if problem else first_failing(culprit, work)
        entry = {"subject": subject, "version": version, "test": test, "problem": problem, "strategies": {}}
        faults = fault_lines(os.path.join(PHP, subject, "faults", version + ".lines"))
        if test:  # the subject's own suite, for comparison: what a user with tests gets
            pool = exams(culprit, work, os.path.join(work, ".pool"), faults, 10**6)
            entry["pool"] = list(pool[-1]) if pool and pool[-1] else None
        for strategy in strategies if test else []:
            store, stamps, status = explore(culprit, work, test, strategy, budget, reference)
            series = [None if p is None else list(p) for p in exams(culprit, work, store, faults, budget)]
            entry["strategies"][strategy] = {"status": status, "seconds": stamps, "exam": series}
        results.append(entry)
        summary = " ".join("%s=%s" % (s, (lambda e: "-" if e is None else "%d/%d" % tuple(e))(
            v["exam"][-1] if v["exam"] else None)) for s, v in entry["strategies"].items())
        print("%s/%s: from %s: %s" % (subject, version, test or problem or "no failing test", summary), flush=True)
        if os.environ.get("KEEP") != "1":
            shutil.rmtree(work, ignore_errors=True)
    with open(os.path.join(out, "web_strategies.json"), "w") as f:
        json.dump({"budget": budget, "reference": reference, "results": results}, f, indent=1)
    with open(os.path.join(out, "web_strategies.md"), "w") as f:
        f.write(table(results, strategies, budget, reference))
    print(open(os.path.join(out, "web_strategies.md")).read())


def table(results, strategies, budget, reference):
    rows = ["| subject | strategy | faults | well localized at the plateau | lines to inspect (mean) | "
            "% of executed (mean) | requests to the plateau (mean) | seconds to the plateau (mean) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    subjects = sorted({r["subject"] for r in results}) + ["all"]
    for subject in subjects:
        chosen = [r for r in results if r["test"] and (subject == "all" or r["subject"] == subject)]
        pooled = [r["pool"] for r in chosen if r.get("pool")]
        if chosen:
            well = sum(exam_of(p) < 0.01 for p in pooled)
            rows.append("| %s | the subject's suite | %d | %d (%.0f%%) | %.1f | %.1f%% | | |" % (
                subject, len(chosen), well, 100.0 * well / len(chosen),
                sum(p[0] for p in pooled) / max(len(pooled), 1),
                100.0 * sum(exam_of(p) for p in pooled) / max(len(pooled), 1)))
        for strategy in strategies:
            well = inspect = share = tests = seconds = counted = ranked = 0
            for r in chosen:
                s = r["strategies"].get(strategy)
                if not s or not s["exam"]:
                    continue
                final = s["exam"][-1]
                counted += 1
                if final is None:
                    continue
                exam = exam_of(final)
                ranked += 1
                well += exam < 0.01
                inspect += final[0]
                share += exam
                k = plateau(s["exam"])
                tests += k
                seconds += s["seconds"][k - 1] if len(s["seconds"]) >= k else 0
            if counted:
                mean = max(ranked, 1)
                rows.append("| %s | %s | %d | %d (%.0f%%) | %.1f | %.1f%% | %.1f | %.1f |" % (
                    subject, strategy, counted, well, 100.0 * well / counted, inspect / mean,
                    100.0 * share / mean, tests / mean, seconds / mean))
    head = ("culprit web --from (the first failing test of the subject's suite) --budget %d, %s; "
            "culprit's default ranking (tuples, Ochiai) after each request; EXAM over the executed lines; "
            "a fault never ranked counts as not well localized; the means are over the faults ranked.\n\n"
            % (budget, "the correct version as --reference" if reference else "no reference oracle"))
    return head + "\n".join(rows) + "\n"


if __name__ == "__main__":
    main()
