"""php_subject.py - shared by the PHP web subjects' tests/generate.py.

A subject's generate.py lists its tests and calls write(); this writes
tests/manifest.json (culprit's JSON manifest, docs/harness.md) and runs
every test once against the correct version (src/) to write its expected
page, tests/expected/NAME.out.  Nothing here is random, so the files are
the same on every run.

A test is a dict:
  {"name": N, "request": {"script": "index.php", "get": {...},
   "post": {...}, "cookies": {...}, "method": "POST"}}   one HTTP request,
      through culprit-php-cgi (the script is relative to src/); checked
      by the expected page and the HTML oracle (libtidy);
  {"name": N, "requests": [REQUEST, ...]}   a chain of such requests, one
      visitor's (culprit-php-cgi REQUEST --then REQUEST: a shared session
      and the cookies pages set), checked by its last page, which is its
      output;
  {"name": N, "cmd": "sh play.sh ..."}   a shell command run in tests/
      (a chain of requests, say), checked by the expected output only
      (several pages end to end are not one HTML document).
A test may also have "env": {...}, variables of its own.
Every test runs with CULPRIT_PHP_FAIL_ON=warning, so a PHP warning or
notice fails it (docs/php.md).

The launcher comes from the build directory: CULPRIT_BUILD, else
../../../../build from the subject.  Generation refuses a test whose
correct run exits non-zero or writes to stderr (a warning, say).
"""

import json
import os
import subprocess
import sys
import urllib.parse

FAIL_ON = "warning"


def _encode_fields(fields, plus):
    if isinstance(fields, str):
        return fields
    quote = urllib.parse.quote_plus if plus else urllib.parse.quote
    return "&".join(quote(k, safe="-_.~") + "=" + quote(v, safe="-_.~") for k, v in fields.items())


def _cookie_header(cookies):
    if isinstance(cookies, str):
        return cookies
    return "; ".join(k + "=" + urllib.parse.quote(v, safe="-_.~") for k, v in cookies.items())


def launcher_args(request, src):
    args = []
    if "method" in request:
        args += ["--method", request["method"]]
    if "get" in request:
        args += ["--query", _encode_fields(request["get"], True)]
    if "cookies" in request:
        args += ["--cookie", _cookie_header(request["cookies"])]
    if "post" in request:
        args += ["--form", _encode_fields(request["post"], True)]
    return args + [os.path.join(src, request["script"])]


def write(subject, tests, env=None, manifest_name="manifest.json", expected_name="expected"):
    """Write SUBJECT/tests/MANIFEST_NAME and SUBJECT/tests/EXPECTED_NAME/."""
    subject = os.path.abspath(subject)
    tdir = os.path.join(subject, "tests")
    src = os.path.join(subject, "src")
    build = os.environ.get("CULPRIT_BUILD") or os.path.join(subject, "..", "..", "..", "..", "build")
    build = os.path.abspath(build)
    launcher = os.path.join(build, "culprit-php-cgi")
    if not os.access(launcher, os.X_OK):
        sys.exit("generate.py: no %s (make php, or set CULPRIT_BUILD)" % launcher)
    expected = os.path.join(tdir, expected_name)
    os.makedirs(expected, exist_ok=True)
    for old in os.listdir(expected):
        os.remove(os.path.join(expected, old))
    run_env = dict(os.environ)
    run_env.pop("CULPRIT_COLLECT_DIR", None)
    run_env["PATH"] = build + os.pathsep + run_env.get("PATH", "")
    test_env = {"CULPRIT_PHP_FAIL_ON": FAIL_ON}
    test_env.update(env or {})
    run_env.update(test_env)
    manifest = []
    names = set()
    for t in tests:
        name = t["name"]
        if name in names:
            sys.exit("generate.py: test %s twice" % name)
        names.add(name)
        entry = {"name": name}
        env_here = dict(test_env)
        env_here.update(t.get("env", {}))
        run_env_here = dict(run_env)
        run_env_here.update(env_here)
        if "request" in t:
            req = dict(t["request"])
            argv = [launcher] + launcher_args(req, src)
            req["script"] = "../src/" + req["script"]
            entry["request"] = req
            entry["oracle"] = "html"
            proc = subprocess.run(argv, cwd=tdir, env=run_env_here, capture_output=True)
        elif "requests" in t:
            argv = [launcher]
            entry["requests"] = []
            for i, request in enumerate(t["requests"]):
                req = dict(request)
                argv += (["--then"] if i else []) + launcher_args(req, src)
                req["script"] = "../src/" + req["script"]
                entry["requests"].append(req)
            proc = subprocess.run(argv, cwd=tdir, env=run_env_here, capture_output=True)
        else:
            entry["cmd"] = t["cmd"]
            proc = subprocess.run(["sh", "-c", t["cmd"]], cwd=tdir, env=run_env_here, capture_output=True)
        if proc.returncode != 0 or proc.stderr:
            sys.exit("generate.py: %s: exit status %d on the correct version: %s"
                     % (name, proc.returncode, proc.stderr.decode(errors="replace")))
        with open(os.path.join(expected, name + ".out"), "wb") as f:
            f.write(proc.stdout)
        entry["expect_stdout"] = {"file": expected_name + "/" + name + ".out"}
        entry["env"] = env_here
        manifest.append(entry)
    with open(os.path.join(tdir, manifest_name), "w") as f:
        f.write("[\n")
        f.write(",\n".join("  " + json.dumps(e, sort_keys=False) for e in manifest))
        f.write("\n]\n")
    print("generate.py: %d tests in %s" % (len(manifest), os.path.join(tdir, manifest_name)))
