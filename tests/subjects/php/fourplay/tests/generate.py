#!/usr/bin/env python3
"""Write tests/manifest.json and tests/expected/ for fourplay (see ../php_subject.py).

A test is one visitor's session: a chain of requests run by tests/play.sh,
sharing a session cookie (a test's pages end to end are its output).  The
same chains are also written as "requests" tests (tests/chains.json,
tests/expected-chains/: culprit-php-cgi's chains, whose last page is the
output), which `culprit web --from` can start from (bench/web_strategies.py).
Run from anywhere: python3 tests/generate.py  (needs culprit built: make php).
"""
import os
import shlex
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", ".."))
import php_subject  # noqa: E402

TWO = "start.php|name1=Ann&name2=Bob&mode=two&first=1"
CPU = "start.php|name1=Ann&mode=computer&first=1"
CPU_FIRST = "start.php|name1=Ann&mode=computer&first=2"
DRAW = [0, 2, 0, 0, 1, 0, 0, 2, 0, 4, 1, 1, 2, 1, 1, 4, 1, 6, 2, 2, 3, 2, 3, 3, 4, 3, 3, 6, 4,
        4, 5, 4, 6, 5, 5, 5, 5, 5, 6, 6, 3, 6]

tests = []


def moves(cols):
    return ["play.php?col=%d" % c for c in cols]


def chain(name, *requests):
    flat = []
    for r in requests:
        flat.extend(r if isinstance(r, list) else [r])
    tests.append({"name": name, "cmd": "sh play.sh " + " ".join(shlex.quote(r) for r in flat)})


chain("index_fresh", "index.php")
chain("rules", "rules.php")
chain("play_nogame", "play.php")
chain("undo_nogame", "undo.php")
chain("history_nogame", "history.php")
chain("resign_nogame", "resign.php")
chain("scores_empty", "scores.php")
chain("start_two", TWO, "play.php")
chain("start_yellow_first", "start.php|name1=Ann&name2=Bob&mode=two&first=2", "play.php", moves([3]))
chain("start_empty_names", "start.php|name1=&name2=&mode=two&first=1")
chain("start_same_names", "start.php|name1=Ann&name2=ann&mode=two&first=1")
chain("start_long_name", "start.php|name1=Bartholomew+Montgomery&name2=Bob&mode=two&first=1")
chain("start_name_16", "start.php|name1=Abcdefghijklmnop&name2=Bob&mode=two&first=1", "play.php")
chain("start_computer_name", "start.php|name1=computer&mode=computer&first=1")
chain("start_nomode", "start.php|name1=Ann&name2=Bob", "play.php")
chain("start_markup_names", "start.php|name1=%3Ci%3EAnn%3C%2Fi%3E&name2=Bob+%26+Co&mode=two&first=1",
      "play.php", moves([0, 1]))
chain("index_in_progress", TWO, moves([3]), "index.php")
chain("moves_two", TWO, moves([3, 3, 4, 2]))
chain("win_vertical", TWO, moves([0, 1, 0, 1, 0, 1, 0]))
chain("win_left", TWO, moves([0, 0, 1, 1, 2, 2, 3]))
chain("win_right", TWO, moves([6, 6, 5, 5, 4, 4, 3]))
chain("win_middle_row2", TWO, moves([1, 1, 2, 2, 3, 3, 0, 4, 6, 5, 6, 0, 6, 6, 5, 4]))
chain("win_diag_up", TWO, moves([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3]))
chain("win_diag_down", TWO, moves([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3]))
chain("win_yellow", TWO, moves([0, 3, 1, 3, 0, 3, 6, 3]))
chain("after_win", TWO, moves([0, 1, 0, 1, 0, 1, 0, 2]))
chain("draw", TWO, moves(DRAW))
chain("column_full", TWO, moves([0, 0, 0, 0, 0, 0, 0]))
chain("column_nine", TWO, moves([9]))
chain("column_word", TWO, moves([3]), "play.php?col=d")
chain("column_negative", TWO, "play.php?col=-1")
chain("undo_one", TWO, moves([3, 4]), "undo.php")
chain("undo_then_play", TWO, moves([3, 4]), "undo.php", moves([2]))
chain("undo_empty", TWO, "undo.php")
chain("undo_after_win", TWO, moves([0, 1, 0, 1, 0, 1, 0]), "undo.php")
chain("undo_twice", TWO, moves([3, 3, 3]), "undo.php", "undo.php", "play.php")
chain("cpu_first_move", CPU, "play.php", moves([0]))
chain("cpu_starts", CPU_FIRST, "play.php")
chain("cpu_blocks", CPU, moves([0, 1, 2]))
chain("cpu_wins", CPU, moves([0, 0, 6, 6, 5]))
chain("cpu_undo", CPU, moves([2]), "undo.php")
chain("cpu_undo_four", CPU, moves([2, 0]), "undo.php", "history.php")
chain("cpu_game", CPU, moves([3, 2, 4, 5, 1, 1, 0]), "scores.php")
chain("resign_ask", TWO, moves([3]), "resign.php")
chain("resign_yellow", TWO, moves([3]), "resign.php|confirm=Resign", "scores.php")
chain("resign_over", TWO, moves([0, 1, 0, 1, 0, 1, 0]), "resign.php")
chain("resign_then_play", TWO, "resign.php|confirm=Resign", moves([2]))
chain("history_moves", TWO, moves([3, 3, 4, 4]), "history.php")
chain("history_upto", TWO, moves([3, 3, 4, 4]), "history.php?upto=2")
chain("history_upto_big", TWO, moves([3, 2]), "history.php?upto=9")
chain("history_start", TWO, moves([3]), "history.php?upto=0")
chain("history_none", TWO, "history.php")
chain("scores_two_games", TWO, moves([0, 1, 0, 1, 0, 1, 0]),
      "start.php|name1=Bob&name2=Ann&mode=two&first=1", moves([0, 1, 0, 1, 0, 1, 0]), "scores.php")
chain("scores_three_players", TWO, moves([0, 1, 0, 1, 0, 1, 0]),
      "start.php|name1=Cid&name2=Bob&mode=two&first=2", moves([0, 1, 0, 1, 0, 1, 0]), "scores.php")
chain("scores_reset", TWO, moves([0, 1, 0, 1, 0, 1, 0]), "scores.php|reset=1")

def request_of(text):
    """PAGE[?QUERY] (a GET) or PAGE[?QUERY]|FORM (a POST), as play.sh reads it."""
    page, form = (text.split("|", 1) + [None])[:2]
    script, query = (page.split("?", 1) + [None])[:2]
    request = {"script": script}
    if query is not None:
        request["get"] = query
    if form is not None:
        request["post"] = form
    return request


php_subject.write(os.path.join(here, ".."), tests)
chains = [{"name": t["name"], "requests": [request_of(r) for r in shlex.split(t["cmd"])[2:]]} for t in tests]
php_subject.write(os.path.join(here, ".."), chains, manifest_name="chains.json", expected_name="expected-chains")
