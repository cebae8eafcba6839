#!/usr/bin/env python3
"""rank_scale.py - ranking a store too big to hold (issue 22 item 3;
docs/sharding.md "Ranking at scale"; `make bench-scale`).

Builds a synthetic store with bench_rank (100,000 lines, 5% hit density: its
program shape) of T0 tests, then grows it to T1 tests by copying its test rows
under new names (SQL, through Python's sqlite3: the same rows, so the ranking's
counts scale exactly), and measures `culprit rank --format csv`, whole-matrix
and --stream, at each size: wall time, peak RSS and peak anonymous memory
(RssAnon of /proc/PID/status sampled every 0.05 s: the memory that is not the
store's mapped pages).  The whole-matrix rank is skipped where its matrix
would not fit in half the machine's memory.  At the first size both rankings
must be byte-identical.

usage: rank_scale.py BUILD WORKDIR      (needs ~13 GB free in WORKDIR for 10^6)
  ELEMENTS=100000 TESTS0=100000 TESTS1=1000000 in the environment
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import time


def measure(argv, output):
    """Runs argv (stdout to output); returns (seconds, peak RSS MB (getrusage), peak anon MB
    (sampled: 0 for a run shorter than a sample))."""
    started = time.monotonic()
    with open(output, "w") as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
        anon = 0
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            try:
                with open("/proc/%d/status" % process.pid) as lines:
                    for line in lines:
                        if line.startswith("RssAnon:"):
                            anon = max(anon, int(line.split()[1]))
            except OSError:
                pass
            time.sleep(0.05)
        if status:
            sys.exit("rank_scale: %s failed: %s" % (" ".join(argv), process.stderr.read().decode()))
    return time.monotonic() - started, usage.ru_maxrss / 1024, anon / 1024


def grow(store, copies):
    """Copies every test row `copies` more times under new names."""
    db = sqlite3.connect(os.path.join(store, "culprit.db"))
    db.execute("PRAGMA journal_mode=WAL")
    ids = [row[0] for row in db.execute("SELECT id FROM tests ORDER BY id")]
    for k in range(1, copies + 1):
        db.execute("INSERT INTO tests (program_id, name, verdict, duration, hits, counts, recorded_at) "
                   "SELECT program_id, name || '#' || ?, verdict, duration, hits, counts, recorded_at "
                   "FROM tests WHERE id <= ? ORDER BY id", (k, ids[-1]))
        db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    elements = int(os.environ.get("ELEMENTS", "100000"))
    tests0 = int(os.environ.get("TESTS0", "100000"))
    tests1 = int(os.environ.get("TESTS1", "1000000"))
    culprit = os.path.join(build, "culprit")
    store = os.path.join(work, "store")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    started = time.monotonic()
    subprocess.run([os.path.join(build, "bench", "bench_rank"), "--elements", str(elements), "--tests",
                    str(tests0), "--repeat", "1", "--store", store], check=True, stdout=subprocess.DEVNULL)
    print("store of %d tests x %d lines made in %.0f s" % (tests0, elements, time.monotonic() - started))
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    rows = []
    for tests in (tests0, tests1):
        if tests != tests0:
            started = time.monotonic()
            grow(store, tests // tests0 - 1)
            print("grown to %d tests in %.0f s" % (tests, time.monotonic() - started))
        size = sum(os.path.getsize(os.path.join(store, f)) for f in os.listdir(store)) / 1e9
        matrix = tests * elements / 8
        streamed = measure([culprit, "--store", store, "rank", "--format", "csv", "--stream"],
                           os.path.join(work, "stream.csv"))
        rows.append((tests, size, "--stream") + streamed)
        if matrix < memory / 2:
            whole = measure([culprit, "--store", store, "rank", "--format", "csv", "--kind", "line"],
                            os.path.join(work, "whole.csv"))
            rows.append((tests, size, "whole matrix") + whole)
            same = open(os.path.join(work, "stream.csv")).read() == open(os.path.join(work, "whole.csv")).read()
            print("%d tests: --stream and the whole matrix rank %s" % (tests, "identically" if same else "DIFFERENTLY"))
            if not same:
                sys.exit(1)
        else:
            print("%d tests: the whole matrix (%.1f GB) is not ranked: over half the memory" % (tests, matrix / 1e9))
    print("\n| tests x lines | store | culprit rank | wall | peak RSS | of it anonymous |")
    print("| --- | --- | --- | --- | --- | --- |")
    for tests, size, how, seconds, rss, anon in rows:
        print("| %d x %d | %.1f GB | %s | %.1f s | %.0f MB | %.0f MB |" % (tests, elements, size, how, seconds,
                                                                       rss, anon))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
