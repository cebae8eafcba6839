#!/usr/bin/env python3
"""sat_tar.py - SAT-TAR on the data-structure subjects (issue 23; seeds/003
Tables 2-3; BENCHMARKS.md "Specifications and unsat cores").

For every faulty version of every subject given (default: tests/subjects/ds-*):
build it with culprit-cc --coverage=symbolic (-O0 -g) and the correct version
with cc (the reference oracle); run the subject's pool once to find a failing
test, preferring one that violates a specification; then, for k = 1..ROUNDS,
`culprit gen --core --strategy STRATEGY --budget k` from that test's input in a
fresh store (the search is deterministic: round k's store holds round k-1's
tests plus one), and rank the faulty lines under

  tar_dt   Tarantula over the generated suite (the paper's TAR_DT),
  sat      the cores alone (culprit rank --technique sat),
  sat-tar  Tarantula + the cores (--technique sat-tar),

each rank the worst of its ties (`culprit rank`'s rank column).  Tarantula over
the whole pool is reported beside them.  The last column says why the faulty
line is where it is after the last round: whether a core names it, how many
lines score above it and how many share its score, and how many passing tests
ran it (ep: Tarantula lowers it); "no core" when no failure violated a
specification.  Writes OUT/sat_tar.json (every rank)
and OUT/sat_tar.md (the table and the headline figures).

usage: sat_tar.py BUILD OUT [SUBJECT_DIR ...]
  ROUNDS=5 (generated tests), STRATEGY=coverage (culprit gen's; sat-tar aims at the
  cores' suspects) in the environment
"""
import csv
import glob
import io
import json
import os
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METHODS = [("tar_dt", ["--formula", "tarantula"]), ("sat", ["--technique", "sat"]),
           ("sat-tar", ["--technique", "sat-tar"])]


def run(argv, cwd, **kwargs):
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, **kwargs)


def fault_lines(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def ranked_rows(culprit, store, cwd, options):
    """The ranking's rows, each line once (its best row), or the error's last line."""
    out = run([culprit, "--store", store, "rank", "--format", "csv"] + options, cwd)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1:]
    rows = {}
    for row in csv.DictReader(io.StringIO(out.stdout)):
        element = os.path.relpath(row["element"].rsplit(":", 1)[0], cwd) + ":" + row["element"].rsplit(":", 1)[1]
        rows.setdefault(element, row)
    return rows, []


def ranks(culprit, store, cwd, options, faults):
    """The worst rank of each faulty line (None: not ranked)."""
    rows, problems = ranked_rows(culprit, store, cwd, options)
    if rows is None:
        return {f: None for f in faults}, problems
    return {f: int(rows[f]["rank"]) if f in rows else None for f in faults}, []


def why(culprit, store, cwd, faults):
    """Why each faulty line is not first under sat-tar: whether a core names
    it, how many lines score above it and how many tie with it (ties count
    worst), and whether a passing test ran it (Tarantula then lowers it)."""
    rows, _ = ranked_rows(culprit, store, cwd, ["--technique", "sat-tar"])
    if rows is None:
        return "no core"
    parts = []
    for f in faults:
        row = rows.get(f)
        if row is None or int(row["ef"]) == 0:
            parts.append("no failing test ran it")
            continue
        score = float(row["score"])
        above = sum(1 for r in rows.values() if float(r["score"]) > score + 1e-9)
        tied = sum(1 for r in rows.values() if abs(float(r["score"]) - score) <= 1e-9) - 1
        parts.append("%s, %d above, %d tied%s" % ("in core" if int(row["cores"]) else "not in core", above, tied,
                                                  ", ep %s" % row["ep"] if int(row["ep"]) else ""))
    return "; ".join(parts)


def seed_test(culprit, store, cwd):
    """A failing test's stdin: one violating a specification first."""
    out = run([culprit, "--store", store, "tests", "--format", "csv"], cwd)
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    failing = [r for r in rows if r.get("verdict") not in ("pass", "skip")]
    failing.sort(key=lambda r: ("violated" not in r.get("message", ""), r["name"]))
    return failing[0]["name"] if failing else None


def build(culprit_cc, subject, sdir, work, version):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    shutil.copytree(os.path.join(sdir, "src"), os.path.join(work, "src"))
    shutil.copytree(os.path.join(sdir, "src"), os.path.join(work, "correct"))
    os.symlink(os.path.join(sdir, "tests"), os.path.join(work, "tests"))
    with open(os.path.join(sdir, "faults", version + ".patch")) as patch:
        if run(["patch", "-s", "-p1"], work, stdin=patch).returncode:
            return "patch does not apply"
    include = "-I" + os.path.join(TOP, "include")
    sources = sorted(glob.glob(os.path.join(work, "src", "*.c")))
    made = run([culprit_cc, "--coverage=symbolic", "-std=c11", "-O0", "-g", include, "-o", subject] + sources + ["-lm"],
               work)
    if made.returncode:
        return "does not build: " + made.stderr.strip()[-200:]
    correct = sorted(glob.glob(os.path.join(work, "correct", "*.c")))
    if run(["cc", "-std=c11", "-O0", include, "-o", "reference"] + correct + ["-lm"], work).returncode:
        return "the correct version does not build"
    return None


def evaluate(build_dir, subject, sdir, version, out, rounds, strategy):
    culprit = os.path.join(build_dir, "culprit")
    work = os.path.join(out, "work", subject + "-" + version)
    problem = build(os.path.join(build_dir, "culprit-cc"), subject, sdir, work, version)
    result = {"subject": subject, "version": version,
              "faults": fault_lines(os.path.join(sdir, "faults", version + ".lines"))}
    if problem:
        result["error"] = problem
        return result
    manifest = os.path.join(work, "manifest.json")
    run([sys.executable, os.path.join(TOP, "bench", "eval_manifest.py"), sdir, manifest], work)
    run([culprit, "--store", "pool", "run", "--tests", manifest, "-j", "2"], work)
    result["pool_tarantula"], _ = ranks(culprit, "pool", work, ["--formula", "tarantula"], result["faults"])
    seed = seed_test(culprit, "pool", work)
    if not seed:
        result["error"] = "no failing test in the pool"
        return result
    result["seed"] = seed
    stdin = os.path.join(sdir, "tests", "inputs", seed + ".in")
    # the user's suite and the seed's core together: gen --core in a copy of the pool's store
    shutil.copytree(os.path.join(work, "pool"), os.path.join(work, "pool-core"))
    run([culprit, "--store", "pool-core", "gen", "--core", "--strategy", "coverage", "--budget", "1", "--stable", "0",
         "--input", stdin, "--reference", "./reference", "--", "./" + subject], work)
    result["pool_sat_tar"], _ = ranks(culprit, "pool-core", work, ["--technique", "sat-tar"], result["faults"])
    result["rounds"] = []
    for k in range(1, rounds + 1):
        store = "gen-%d" % k
        gen = run([culprit, "--store", store, "gen", "--core", "--strategy", strategy, "--budget", str(k),
                   "--stable", "0", "--input", stdin, "--reference", "./reference", "--", "./" + subject], work)
        cores = [line for line in gen.stderr.splitlines() if "core" in line and "gen/" in line]
        entry = {"tests": k, "cores": cores[-3:]}
        for name, options in METHODS:
            entry[name], problems = ranks(culprit, store, work, options, result["faults"])
            if problems:
                entry[name + "_error"] = problems
        result["rounds"].append(entry)
    result["why"] = why(culprit, "gen-%d" % rounds, work, result["faults"])
    return result


def worst(ranked):
    values = [r for r in ranked.values()]
    return None if not values or None in values else max(values)


def show(rank):
    return "-" if rank is None else str(rank)


def table(results, rounds):
    lines = ["| version | faults | seed | pool: Tarantula | pool: SAT-TAR | TAR_DT@%d | SAT@%d | SAT-TAR after 1..%d tests "
             "| SAT-TAR@%d: the faulty line |" % (rounds, rounds, rounds, rounds), "|---|---|---|---|---|---|---|---|---|"]
    single_first = single = double_top3 = double = 0
    for r in results:
        if "error" in r:
            lines.append("| %s/%s | %s | - | - | - | - | - | %s | |" % (r["subject"], r["version"],
                                                                    " ".join(r["faults"]), r["error"]))
            continue
        last = r["rounds"][-1]
        sat_tar = " ".join(show(worst(e["sat-tar"])) for e in r["rounds"])
        lines.append("| %s/%s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["subject"], r["version"], " ".join(f.split("/")[-1] for f in r["faults"]), r["seed"],
            show(worst(r["pool_tarantula"])), show(worst(r.get("pool_sat_tar", {}))), show(worst(last["tar_dt"])),
            show(worst(last["sat"])), sat_tar, r.get("why", "")))
        if len(r["faults"]) == 1:
            single += 1
            single_first += any(worst(e["sat-tar"]) == 1 for e in r["rounds"])
        else:
            double += 1
            double_top3 += any(worst(e["sat-tar"]) is not None and worst(e["sat-tar"]) <= 3 for e in r["rounds"])
    lines.append("")
    lines.append("Single-fault versions whose faulty line SAT-TAR ranks first within %d generated tests: "
                 "%d of %d; two-fault versions with both faulty lines in SAT-TAR's top 3: %d of %d." %
                 (rounds, single_first, single, double_top3, double))
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build_dir, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    subjects = sys.argv[3:] or sorted(glob.glob(os.path.join(TOP, "tests", "subjects", "ds-*")))
    rounds = int(os.environ.get("ROUNDS", "5"))
    strategy = os.environ.get("STRATEGY", "coverage")
    os.makedirs(out, exist_ok=True)
    results = []
    for sdir in subjects:
        subject = os.path.basename(os.path.normpath(sdir))
        versions = sorted((os.path.basename(p)[:-6] for p in glob.glob(os.path.join(sdir, "faults", "v*.patch"))),
                          key=lambda v: int(v[1:]))
        for version in versions:
            results.append(evaluate(build_dir, subject, os.path.abspath(sdir), version, out, rounds, strategy))
            print("%s/%s done" % (subject, version), file=sys.stderr)
    with open(os.path.join(out, "sat_tar.json"), "w") as f:
        json.dump(results, f, indent=1)
    text = table(results, rounds)
    with open(os.path.join(out, "sat_tar.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
