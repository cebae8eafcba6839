#!/usr/bin/env python3
"""Write tests/manifest.json and tests/expected/ for schoolhouse (see ../php_subject.py).

Every request runs on a fresh in-memory database made from src/sql/schema.sql
and src/sql/seed.sql (SCHOOLHOUSE_DSN=sqlite::memory:), so tests are
independent and may run side by side.  A POST and the page it changes are
one request (the page shows the result).
Run from anywhere: python3 tests/generate.py  (needs culprit built: make php).
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", ".."))
import php_subject  # noqa: E402

HASH = "5ebe2294ecd0e0f08eab7690d2a6ee69"


def who(login):
    return {"sh_login": login + ":" + HASH}


ADMIN, GRANT, MOSS, KAUR = who("admin"), who("hgrant"), who("pmoss"), who("rkaur")
AMY, BEN, DAN, HAL = who("aadams"), who("bbrown"), who("doneil"), who("hhill")

tests = []


def req(name, script, **kw):
    r = {"script": script}
    r.update(kw)
    tests.append({"name": name, "request": r})


req("home", "index.php")
req("home_admin", "index.php", cookies=ADMIN)
req("home_teacher", "index.php", cookies=GRANT)
req("home_student", "index.php", cookies=AMY)
req("home_badcookie", "index.php", cookies={"sh_login": "admin:0000"})
req("login_ok", "login.php", post={"login": "pmoss", "password": "secret"})
req("login_wrong", "login.php", post={"login": "pmoss", "password": "Secret"})
req("login_unknown", "login.php", post={"login": "nobody", "password": "secret"})
req("classes", "classes.php")
req("classes_spring", "classes.php", get={"term": "2"})
req("classes_term9", "classes.php", get={"term": "9"})
for cid, cookie in ((1, GRANT), (2, MOSS), (3, KAUR), (4, GRANT), (5, MOSS)):
    req("class_%d" % cid, "class.php", get={"id": str(cid)}, cookies=cookie)
req("class_admin", "class.php", get={"id": "3"}, cookies=ADMIN)
req("class_other_teacher", "class.php", get={"id": "3"}, cookies=GRANT)
req("class_student", "class.php", get={"id": "1"}, cookies=AMY)
req("class_guest", "class.php", get={"id": "1"})
req("class_none", "class.php", get={"id": "42"}, cookies=ADMIN)
req("class_noid", "class.php", cookies=ADMIN)
for sid in range(10, 18):
    req("report_%d" % sid, "report.php", get={"id": str(sid)}, cookies=ADMIN)
req("report_own", "report.php", get={"id": "13"}, cookies=DAN)
req("report_other", "report.php", get={"id": "10"}, cookies=BEN)
req("report_teacher", "report.php", get={"id": "15"}, cookies=KAUR)
req("report_guest", "report.php", get={"id": "10"})
req("report_teacher_id", "report.php", get={"id": "2"}, cookies=ADMIN)
req("report_noid", "report.php", cookies=ADMIN)
req("grade_form", "grade.php", get={"class": "1"}, cookies=GRANT)
req("grade_new", "grade.php", get={"class": "1"}, cookies=GRANT,
    post={"assignment": "2", "student": "14", "score": "15"})
req("grade_change", "grade.php", get={"class": "3"}, cookies=KAUR,
    post={"assignment": "7", "student": "13", "score": "34.5"})
req("grade_full_marks", "grade.php", get={"class": "2"}, cookies=MOSS,
    post={"assignment": "5", "student": "17", "score": "10"})
req("grade_too_high", "grade.php", get={"class": "2"}, cookies=MOSS,
    post={"assignment": "5", "student": "17", "score": "11"})
req("grade_negative", "grade.php", get={"class": "1"}, cookies=GRANT,
    post={"assignment": "1", "student": "10", "score": "-1"})
req("grade_word", "grade.php", get={"class": "1"}, cookies=GRANT,
    post={"assignment": "1", "student": "10", "score": "ten"})
req("grade_wrong_class", "grade.php", get={"class": "1"}, cookies=GRANT,
    post={"assignment": "4", "student": "15", "score": "5"})
req("grade_zero", "grade.php", get={"class": "3"}, cookies=KAUR,
    post={"assignment": "6", "student": "15", "score": "0"})
req("grade_guest", "grade.php", get={"class": "1"})
req("attendance_1", "attendance.php", get={"class": "1"}, cookies=GRANT)
req("attendance_2", "attendance.php", get={"class": "2"}, cookies=MOSS)
req("attendance_none", "attendance.php", get={"class": "3"}, cookies=KAUR)
req("attendance_day", "attendance.php", get={"class": "1", "day": "2011-09-13"}, cookies=GRANT)
req("attendance_new_day", "attendance.php", get={"class": "2", "day": "2011-09-19"}, cookies=MOSS)
req("attendance_save", "attendance.php", get={"class": "2", "day": "2011-09-19"}, cookies=MOSS,
    post={"s10": "present", "s12": "absent", "s15": "late", "s16": "excused", "s17": "present"})
req("attendance_change", "attendance.php", get={"class": "1", "day": "2011-09-12"}, cookies=GRANT,
    post={"s11": "excused", "s13": "present", "s99": "absent"})
req("attendance_badday", "attendance.php", get={"class": "1", "day": "12/09/2011"}, cookies=GRANT)
req("announce_list", "announce.php", cookies=ADMIN)
req("announce_post", "announce.php", cookies=ADMIN,
    post={"title": "Snow day", "body": "School is closed on Friday.", "posted": "2011-11-25"})
req("announce_empty", "announce.php", cookies=ADMIN, post={"title": "", "body": "short"})
req("announce_teacher", "announce.php", cookies=GRANT)

php_subject.write(os.path.join(here, ".."), tests, env={"SCHOOLHOUSE_DSN": "sqlite::memory:"})
