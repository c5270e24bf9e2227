#!/usr/bin/env python3
"""Writes tests/data/class/lesson01-class.json: a class session of lesson 01
as attnviz autosaves it, played by the real server (`attnviz --class --test`)
with 24 students answering over HTTP, for the README's projector pictures and
the UI test of the tally (`attnviz --class --class-resume FILE`).

Step 1 (click a cell) and step 2 (a number) are revealed; step 5 (a choice)
is locked, its tally shown before the reveal. The answers are spread the way
a class's would be (most near the right answer, some not), from a fixed seed.

Usage: scripts/make_class_fixture.py BUILD_DIR
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LESSON = os.path.join(ROOT, "assets/lessons/01_attention_from_scratch.json")
OUT = os.path.join(ROOT, "tests/data/class/lesson01-class.json")


def post(url, body):
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.load(r)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    rng = random.Random(42)
    config = tempfile.mkdtemp(prefix="attnviz-class-fixture-")
    teacher = subprocess.Popen([os.path.join(build, "app/viz/attnviz"), "--lesson", LESSON, "--class", "--test",
                                "--bind", "127.0.0.1", "--port", "0", "--config-dir", config],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def command(line):
        teacher.stdin.write(line + "\n")
        teacher.stdin.flush()
        return json.loads(teacher.stdout.readline())

    first = json.loads(teacher.stdout.readline())
    join, code = first["join"], first["code"]
    names = ["Ada", "Ben", "Chloé", "Dev", "Emi", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
             "Mo", "Nia", "Oto", "Pia", "Quin", "Rui", "Sol", "Tess", "Uma", "Vik", "Wen", "Yuri"]
    devices = ["fixture-device-%02d" % i for i in range(len(names))]
    for d, n in zip(devices, names):
        post(join + "/api/join", {"code": code, "device": d, "nickname": n})

    def answer_all(step, make):
        asked = command("step %d" % step)
        q = asked["question"]
        for d in devices:
            post(join + "/api/answer", {"code": code, "device": d, "step": q["step"], "answer": make(q)})
        return q

    # Step 1: which movie scores highest (a 1-row grid of scores): most find
    # the quiet drama (column 0); the romantic comedy, close behind, fools some.
    def cell(q):
        if rng.random() < 0.6:
            return {"row": 0, "col": 0}
        if rng.random() < 0.6:
            return {"row": 0, "col": 2}
        return {"row": rng.randrange(q["rows"]), "col": rng.randrange(q["cols"])}
    answer_all(1, cell)
    command("lock")
    command("reveal")
    # Step 2: the action blockbuster's share (0.066): some compute it, many
    # guess a third, a few think a negative score gives a negative share.
    def share(q):
        x = rng.random()
        if x < 0.4:
            return {"number": round(rng.gauss(0.066, 0.003), 3)}
        if x < 0.8:
            return {"number": round(rng.gauss(0.3, 0.05), 2)}
        return {"number": round(rng.uniform(-0.3, 0.0), 2)}
    answer_all(2, share)
    command("lock")
    command("reveal")
    # Step 5: the choice, locked before the reveal.
    answer_all(5, lambda q: {"choice": rng.choices([0, 1, 2], [5, 13, 6])[0]})
    command("lock")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    saved = command("save " + OUT)
    if "saved" not in saved:
        sys.exit("make_class_fixture: " + json.dumps(saved))
    command("end")
    teacher.wait(timeout=20)
    shutil.rmtree(config)


if __name__ == "__main__":
    main()
