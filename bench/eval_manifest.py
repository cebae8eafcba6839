#!/usr/bin/env python3
"""eval_manifest.py - turn a subject's plain manifest into a JSON one.

usage: eval_manifest.py SUBJECT_DIR OUT.json

The subjects' tests are `NAME: ./PROG ARGS... < tests/inputs/NAME.in`, run
by /bin/sh in the subject directory.  `culprit run` executes a plain-word
command directly, but a redirection needs the shell: one more exec per
test.  This writes the same tests as JSON with "argv" and "stdin", so that
culprit runs the program itself, with the expected output and exit status
of tests/expected/ (NAME.out, NAME.exit when present).  A command that is
not of that simple form is kept as "cmd" (run by the shell, as before).
The JSON file goes in SUBJECT_DIR, so relative paths resolve the same way.
"""
import json
import os
import re
import shlex
import sys

SIMPLE = re.compile(r"^(?P<command>[^<>|&;`$(){}*?\[\]\\\"]*?(?:'[^']*'[^<>|&;`$(){}*?\[\]\\\"]*?)*)"
                    r"\s*<\s*(?P<stdin>[A-Za-z0-9_./-]+)\s*$")


def convert(subject):
    manifest = os.path.join(subject, "tests", "manifest.txt")
    expected = os.path.join("tests", "expected")
    tests = []
    with open(manifest, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            if text.startswith("--"):
                sys.exit(f"{manifest}:{number}: header options are not supported here")
            name, sep, command = text.partition(":")
            if not sep:
                sys.exit(f"{manifest}:{number}: expected NAME: COMMAND")
            name, command = name.strip(), command.strip()
            test = {"name": name}
            m = SIMPLE.match(command)
            argv = None
            if m:
                try:
                    argv = shlex.split(m.group("command"))
                except ValueError:
                    argv = None
            if argv:
                test["argv"] = argv
                test["stdin"] = {"file": m.group("stdin")}
            else:
                test["cmd"] = command
            test["expect_stdout"] = {"file": os.path.join(expected, name + ".out")}
            exit_file = os.path.join(subject, expected, name + ".exit")
            if os.path.exists(exit_file):
                with open(exit_file, encoding="utf-8") as e:
                    test["expect_exit"] = int(e.read().strip())
            tests.append(test)
    return tests


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: eval_manifest.py SUBJECT_DIR OUT.json")
    tests = convert(sys.argv[1])
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        json.dump(tests, out, indent=None, separators=(",", ":"))
        out.write("\n")


if __name__ == "__main__":
    main()
