#!/usr/bin/env python3
"""shard_recipes.py - runs the CI recipes of docs/sharding.md locally, for
tests/e2e/test_shard_merge.sh: the YAML is taken from the page as written and
its shell commands executed as the CI system would, one job or pod after the
other.

usage: shard_recipes.py github DOC PROJECT ROOT
       shard_recipes.py kubernetes DOC PROJECT ROOT

PROJECT is a checkout (sources, a Makefile taking CC, tests.json).  ROOT is
where the simulation lives:
  github: every job gets a fresh copy of PROJECT at ROOT/checkout (one path,
          as on GitHub's runners); upload-artifact copies into
          ROOT/artifacts/NAME, download-artifact copies back.  The merged
          store ends up in ROOT/artifacts/culprit-store.
  kubernetes: the "image" is PROJECT copied to ROOT/src and built there
          once; each pod runs the container's command with
          JOB_COMPLETION_INDEX set and /src, /shards and /tmp mapped under
          ROOT; then the page's merge command.  The merged store ends up in
          ROOT/shards/merged.
Needs PyYAML.  Exits 1 with a message on the first thing that goes wrong.
"""
import fnmatch
import itertools
import os
import re
import shutil
import subprocess
import sys

import yaml


def block(doc, heading, language, which=0):
    """The which-th ```language block after the heading line."""
    text = open(doc, encoding="utf-8").read()
    start = text.index("\n" + heading + "\n")
    blocks = re.findall(r"```" + language + r"\n(.*?)```", text[start:], re.S)
    return blocks[which]


def fail(message):
    sys.exit("shard_recipes.py: " + message)


def shell(script, cwd, env=None, bash=False):
    command = ["bash", "-e", "-c", script] if bash else ["sh", "-c", script]
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        fail("'%s' exited %d in %s: %s" % (script.strip(), result.returncode, cwd,
                                           (result.stdout + result.stderr)[-800:]))


def fresh_copy(source, target):
    if os.path.exists(target):
        shutil.rmtree(target)
    shutil.copytree(source, target, symlinks=True)


# ---- GitHub Actions ----

def expand(text, matrix):
    return re.sub(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", lambda m: str(matrix[m.group(1)]), text)


def github_step(step, matrix, project, root):
    checkout = os.path.join(root, "checkout")
    uses = step.get("uses", "")
    inputs = {k: expand(str(v), matrix) for k, v in (step.get("with") or {}).items()}
    artifacts = os.path.join(root, "artifacts")
    if uses.startswith("actions/checkout@"):
        fresh_copy(project, checkout)
    elif uses.startswith("actions/upload-artifact@"):
        target = os.path.join(artifacts, inputs["name"])
        os.makedirs(target)  # an artifact name is used once
        shutil.copy(os.path.join(checkout, inputs["path"]), target)
    elif uses.startswith("actions/download-artifact@"):
        for name in sorted(os.listdir(artifacts)):
            if fnmatch.fnmatch(name, inputs["pattern"]):
                shutil.copytree(os.path.join(artifacts, name), os.path.join(checkout, inputs["path"], name))
    elif "run" in step:
        shell(expand(step["run"], matrix), checkout, bash=True)  # GitHub's shell: bash -e {0}
    else:
        fail("step %r is not simulated" % step)


def github(doc, project, root):
    workflow = yaml.safe_load(block(doc, "### GitHub Actions: a matrix, the stores as artifacts", "yaml"))
    jobs = workflow["jobs"]
    done = set()
    while len(done) < len(jobs):
        ready = [name for name, job in jobs.items() if name not in done and
                 set([job["needs"]] if isinstance(job.get("needs"), str) else job.get("needs", [])) <= done]
        if not ready:
            fail("the jobs' needs form a cycle")
        for name in ready:
            job = jobs[name]
            matrix = (job.get("strategy") or {}).get("matrix") or {}
            combinations = [dict(zip(matrix, values)) for values in itertools.product(*matrix.values())]
            for combination in combinations:
                for step in job["steps"]:
                    github_step(step, combination, project, root)
            done.add(name)


# ---- Kubernetes ----

def kubernetes(doc, project, root):
    heading = "### Kubernetes: an Indexed Job"
    job = yaml.safe_load(block(doc, heading, "yaml"))
    spec = job["spec"]
    if job["kind"] != "Job" or spec["completionMode"] != "Indexed":
        fail("not an Indexed Job")
    container = spec["template"]["spec"]["containers"][0]
    command = container["command"]
    if command[:2] != ["sh", "-c"]:
        fail("the container's command is not sh -c")
    image_dir = os.path.join(root, "src")
    fresh_copy(project, image_dir)
    shell("make CC=culprit-cc", image_dir)  # the image's build, at its own path
    shards = os.path.join(root, "shards")
    os.makedirs(shards)
    mounts = {m["mountPath"]: shards for m in container["volumeMounts"]}

    def mapped(text, index):
        """The pod's paths (mounts, /tmp) moved under root, in one pass."""
        places = dict(mounts, **{"/tmp": os.path.join(root, "tmp-%d" % index)})
        pattern = "|".join(re.escape(path) for path in places)
        return re.sub(r"(?<![\w/.])(%s)(?=[/\s]|$)" % pattern, lambda m: places[m.group(1)], text)

    for index in range(spec["completions"]):
        os.makedirs(os.path.join(root, "tmp-%d" % index))
        env = dict(os.environ, JOB_COMPLETION_INDEX=str(index))
        shell(mapped(command[2], index), image_dir, env=env)
    merge = block(doc, heading, "sh")
    shell(mapped(merge, 0), image_dir)


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("github", "kubernetes"):
        sys.exit(__doc__)
    _, which, doc, project, root = sys.argv
    os.makedirs(root, exist_ok=True)
    (github if which == "github" else kubernetes)(doc, os.path.abspath(project), os.path.abspath(root))


if __name__ == "__main__":
    main()
