#!/usr/bin/env python3
"""Write tests/manifest.json and tests/expected/ for faqdesk (see ../php_subject.py).

Run from anywhere: python3 tests/generate.py  (needs culprit built: make php).
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", ".."))
import php_subject  # noqa: E402

ADMIN = {"faq_user": "admin", "faq_pass": "0d107d09f5bbe40cade3de5c71e9e9b7"}
BAD_PASS = {"faq_user": "admin", "faq_pass": "5f4dcc3b5aa765d61d8327deb882cf99"}

tests = []


def req(name, script, **kw):
    r = {"script": script}
    r.update(kw)
    tests.append({"name": name, "request": r})


req("home", "index.php")
req("home_admin", "index.php", cookies=ADMIN)
req("home_badcookie", "index.php", cookies=BAD_PASS)
for slug in ("install", "usage", "admin", "general", "empty"):
    req("cat_" + slug, "category.php", get={"c": slug})
req("cat_install_date", "category.php", get={"c": "install", "sort": "date"})
req("cat_install_views", "category.php", get={"c": "install", "sort": "views"})
req("cat_install_p2", "category.php", get={"c": "install", "page": "2"})
req("cat_install_p2_date", "category.php", get={"c": "install", "sort": "date", "page": "2"})
req("cat_install_p9", "category.php", get={"c": "install", "page": "9"})
req("cat_install_p0", "category.php", get={"c": "install", "page": "0"})
req("cat_badsort", "category.php", get={"c": "usage", "sort": "colour"})
req("cat_usage_views", "category.php", get={"c": "usage", "sort": "views"})
req("cat_unknown", "category.php", get={"c": "<none>"})
req("cat_missing", "category.php")
for i in range(1, 15):
    req("view_%d" % i, "view.php", get={"id": str(i)})
req("view_99", "view.php", get={"id": "99"})
req("view_noid", "view.php")
req("view_word", "view.php", get={"id": "two"})
req("view_admin", "view.php", get={"id": "6"}, cookies=ADMIN)
for i in (2, 5, 7, 12):
    req("print_%d" % i, "print.php", get={"id": str(i)})
req("print_99", "print.php", get={"id": "99"})
req("search_form", "search.php")
req("search_php", "search.php", get={"q": "php"})
req("search_upper", "search.php", get={"q": "PHP Data"})
req("search_two", "search.php", get={"q": "document printable"})
req("search_short", "search.php", get={"q": "ab"})
req("search_none", "search.php", get={"q": "zeppelin"})
req("search_in", "search.php", get={"q": "php", "in": "install"})
req("search_in_none", "search.php", get={"q": "password", "in": "usage"})
req("search_amp", "search.php", get={"q": "can't log"})
req("stats", "stats.php")
req("stats_admin", "stats.php", cookies=ADMIN)
req("login_form", "login.php")
req("login_ok", "login.php", post={"user": "admin", "password": "letmein"})
req("login_wrong", "login.php", post={"user": "admin", "password": "letmeout"})
req("login_empty", "login.php", post={"user": "admin", "password": ""})
req("logout", "login.php", get={"logout": "1"}, cookies=ADMIN)
req("edit_guest", "edit.php")
req("edit_new", "edit.php", cookies=ADMIN)
req("edit_9", "edit.php", get={"id": "9"}, cookies=ADMIN)
req("edit_99", "edit.php", get={"id": "99"}, cookies=ADMIN)
NEW = {"title": "Does FAQDesk support RSS?", "category": "general", "author": "Ann Baker",
       "created": "2012-01-01", "body": "Not yet.\n\nIt is planned for 1.3."}
req("save_new", "edit.php", cookies=ADMIN, post=NEW)
req("save_list", "edit.php", cookies=ADMIN, post=dict(NEW, body="What you need:\n\n- PHP\n- a web server"))
req("save_empty_title", "edit.php", cookies=ADMIN, post=dict(NEW, title=""))
req("save_title_80", "edit.php", cookies=ADMIN, post=dict(NEW, title="Q" * 79 + "?"))
req("save_title_81", "edit.php", cookies=ADMIN, post=dict(NEW, title="Q" * 80 + "?"))
req("save_bad_category", "edit.php", cookies=ADMIN, post=dict(NEW, category="nowhere", author=""))
req("save_edit_3", "edit.php", get={"id": "3"}, cookies=ADMIN,
    post={"title": "Why is the page blank?", "category": "install", "author": "Carl Diaz",
          "body": "Look in the error log.\n\n  tail /var/log/apache2/error.log"})

php_subject.write(os.path.join(here, ".."), tests)
