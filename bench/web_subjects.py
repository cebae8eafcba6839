#!/usr/bin/env python3
"""web_subjects.py - culprit web with no tests on the PHP web subjects
(issue 24 acceptance: failures found per subject within a budget;
docs/web.md "On the subjects").

For the correct version and every faulty version of each PHP web subject
(tests/subjects/php/NAME with faults/): copy src/ (schoolhouse's database file
made empty first, as its suite's setup does), then `culprit web src --entry
index.php --budget BUDGET [EXTRA...]` into a fresh store, and report per
subject: requests run (mean), versions with a failing request (*found*;
on a correct version, a false alarm), versions where a request ran a faulty
line (*reached*), and the fault's best line rank (`culprit rank`, worst of
ties) when found.  With REFERENCE=1 the correct version is each run's
--reference (a copy, so that its database files are its own).

usage: web_subjects.py BUILD OUT
  BUDGET=100, EXTRA="--fill" (more culprit web options), REFERENCE=0|1,
  VERSIONS="faqdesk/v1 ..." in the environment
"""
import csv
import io
import os
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHP = os.path.join(TOP, "tests", "subjects", "php")
SUBJECTS = ["faqdesk", "fourplay", "schoolhouse", "sysinfo"]


def run(argv, cwd):
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True)


def copy_source(subject, target, patch=None):
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(os.path.join(PHP, subject, "src"), os.path.join(target, "src"))
    if subject == "schoolhouse":  # the application fills an existing, empty database file
        os.makedirs(os.path.join(target, "src", "data"), exist_ok=True)
        open(os.path.join(target, "src", "data", "school.db"), "w").close()
    if patch:
        with open(patch) as f:
            return subprocess.run(["patch", "-s", "-p1"], cwd=target, stdin=f, capture_output=True).returncode == 0
    return True


def explore(culprit, work, budget, extra, reference):
    store = os.path.join(work, ".culprit")
    argv = [culprit, "--store", store, "web", "src", "--entry", "index.php", "--budget", str(budget)] + extra
    if reference:
        argv += ["--reference", reference]
    out = run(argv, work)
    requests = failing = 0
    for line in out.stderr.splitlines():
        if line.startswith("culprit web: done: "):
            words = line.split()
            requests = int(words[3])
            failing = int(words[5].lstrip("("))
    return store, requests, failing


def fault_ranks(culprit, work, store, faults):
    """(reached, best rank when ranked) of the faulty lines."""
    ranked = run([culprit, "--store", store, "rank", "--format", "csv", "--kind", "line"], work)
    reached, best = False, None
    for row in csv.DictReader(io.StringIO(ranked.stdout)):
        element = row["element"]
        path, line = element.rsplit(":", 1)
        if os.path.relpath(path, work) + ":" + line not in faults:
            continue
        reached = reached or int(row["ef"]) + int(row["ep"]) > 0
        if int(row["ef"]) > 0:
            best = int(row["rank"]) if best is None else min(best, int(row["rank"]))
    default = run([culprit, "--store", store, "rank", "--format", "csv"], work)
    for row in csv.DictReader(io.StringIO(default.stdout)):
        path, line = row["element"].rsplit(":", 1)
        if os.path.relpath(path, work) + ":" + line in faults and int(row["ef"]) > 0:
            return reached, int(row["rank"])
    return reached, best


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    culprit = os.path.join(build, "culprit")
    os.environ["PATH"] = build + os.pathsep + os.environ["PATH"]
    budget = int(os.environ.get("BUDGET", "100"))
    extra = os.environ.get("EXTRA", "").split()
    with_reference = os.environ.get("REFERENCE", "0") == "1"
    wanted = os.environ.get("VERSIONS", "").split()
    os.makedirs(out, exist_ok=True)
    rows = []
    for subject in SUBJECTS:
        faults_dir = os.path.join(PHP, subject, "faults")
        versions = ["correct"] + sorted((f[:-6] for f in os.listdir(faults_dir) if f.endswith(".patch")),
                                        key=lambda v: int(v[1:]))
        stats = {"versions": 0, "requests": 0, "found": [], "reached": 0, "false_alarm": False}
        for version in versions:
            if wanted and "%s/%s" % (subject, version) not in wanted:
                continue
            work = os.path.join(out, subject + "-" + version)
            patch = None if version == "correct" else os.path.join(faults_dir, version + ".patch")
            if not copy_source(subject, work, patch):
                print("%s/%s: the patch does not apply" % (subject, version))
                continue
            reference = None
            if with_reference:
                copy_source(subject, os.path.join(work, "reference"))
                reference = os.path.join(work, "reference", "src")
            store, requests, failing = explore(culprit, work, budget, extra, reference)
            if version == "correct":
                stats["false_alarm"] = failing > 0
                print("%s/correct: %d requests, %d failing" % (subject, requests, failing), flush=True)
            else:
                faults = [l.strip() for l in open(os.path.join(faults_dir, version + ".lines")) if l.strip()]
                reached, rank = fault_ranks(culprit, work, store, faults)
                stats["versions"] += 1
                stats["requests"] += requests
                stats["reached"] += reached
                if failing:
                    stats["found"].append("%s: %s" % (version, rank if rank is not None else "-"))
                print("%s/%s: %d requests, %d failing, faulty line %s, rank %s" % (
                    subject, version, requests, failing, "run" if reached else "not run", rank), flush=True)
            shutil.rmtree(work, ignore_errors=True)
        rows.append((subject, stats))
    print("\n| subject | requests, mean | correct version fails | found | reached | rank when found |")
    print("| --- | --- | --- | --- | --- | --- |")
    for subject, s in rows:
        n = max(s["versions"], 1)
        print("| %s (%d) | %.0f | %s | %d | %d | %s |" % (subject, s["versions"], s["requests"] / n,
                                                       "yes" if s["false_alarm"] else "no", len(s["found"]),
                                                       s["reached"], ", ".join(s["found"]) or "-"))


if __name__ == "__main__":
    main()
