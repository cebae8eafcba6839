#!/usr/bin/env python3
"""Write tests/manifest.json and tests/expected/ for sysinfo (see ../php_subject.py).

The page reads a machine's files below SYSINFO_ROOT: each test shows one of
the machines copied in tests/hosts/ (web1, db1, tiny, bare), given as
../tests/hosts/NAME (relative to src/).
Run from anywhere: python3 tests/generate.py  (needs culprit built: make php).
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", ".."))
import php_subject  # noqa: E402

HOSTS = ["web1", "db1", "tiny", "bare"]
SECTIONS = ["vitals", "cpu", "memory", "disks", "network"]
tests = []


def req(name, host, **kw):
    r = {"script": "index.php"}
    r.update(kw)
    tests.append({"name": name, "request": r, "env": {"SYSINFO_ROOT": "../tests/hosts/" + host}})


for host in HOSTS:
    for section in SECTIONS:
        for lang in ("en", "de"):
            req("%s_%s_%s" % (host, section, lang), host, get={"show": section, "lang": lang})
    req(host + "_all", host)
    req(host + "_all_de", host, get={"lang": "de"})
    req(host + "_all_fr", host, get={"lang": "fr"})
req("web1_two_sections", "web1", get={"show": "memory,disks"})
req("tiny_bogus_section", "tiny", get={"show": "graphics"})
req("db1_twice", "db1", get={"show": "cpu,cpu,vitals"})
req("web1_unknown_lang", "web1", get={"show": "vitals", "lang": "xx"})
req("db1_cookie_fr", "db1", get={"show": "vitals"}, cookies={"sysinfo_lang": "fr"})
req("db1_cookie_and_query", "db1", get={"show": "vitals", "lang": "de"}, cookies={"sysinfo_lang": "fr"})
req("tiny_cookie_and_query", "tiny", get={"show": "cpu", "lang": "en"}, cookies={"sysinfo_lang": "de"})

php_subject.write(os.path.join(here, ".."), tests)
