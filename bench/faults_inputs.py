#!/usr/bin/env python3
"""Peak RSS and wall time of the plugin on inputs that used to block or flood (issue 21): figures,
never asserts. Each case runs the plugin once per repeat under a wall-clock limit; a case that
hits the limit says so instead of a figure.

    ICHECK_PLUGIN=build/kubectl-dynamo_icheck /usr/bin/python3 bench/faults_inputs.py [--repeat 3]

Cases: KUBECONFIG=/dev/zero (`node`), --kubeconfig a FIFO, a 20 GiB sparse kubeconfig, a manifest of
4 194 303 empty documents (`---` lines, 16 MiB: just under the manifest cap), a 2.7 MB manifest
of 300 000 tiny documents, and one of 5 000 tiny documents (under the document cap).
"""
import argparse
import os
import shutil
import subprocess
import tempfile
import time

PLUGIN = os.environ.get("ICHECK_PLUGIN", "build/kubectl-dynamo_icheck")
LIMIT_S = 60


def measure(args, env):
    """(exit code or 'killed at LIMIT_S', wall seconds, bytes printed)."""
    e = dict(os.environ)
    e.pop("KUBECONFIG", None)
    e.update(env)
    t0 = time.monotonic()
    proc = subprocess.Popen([PLUGIN, *args], env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=LIMIT_S)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        rc = "killed at %d s" % LIMIT_S
    return rc, time.monotonic() - t0, len(out) + len(err)


def peak_rss_mib(args, env):
    """The plugin's own peak RSS from GNU time (a fork from Python would count Python's pages
    too); None without /usr/bin/time."""
    if not os.path.exists("/usr/bin/time"):
        return None
    e = dict(os.environ)
    e.pop("KUBECONFIG", None)
    e.update(env)
    r = subprocess.run(["/usr/bin/time", "-f", "%M", PLUGIN, *args], env=e, capture_output=True,
                       text=True, timeout=LIMIT_S)
    return int(r.stderr.strip().splitlines()[-1]) / 1024.0  # KiB


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    d = tempfile.mkdtemp()
    try:
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        huge = os.path.join(d, "huge")
        with open(huge, "wb") as f:
            f.truncate(20 << 30)
        empty = os.path.join(d, "empty.yaml")
        with open(empty, "w") as f:
            f.write("---\n" * ((16 << 20) // 4 - 1))
        tiny = os.path.join(d, "tiny.yaml")
        with open(tiny, "w") as f:
            f.write("a: 1\n---\n" * 300000)
        tiny5k = os.path.join(d, "tiny5k.yaml")
        with open(tiny5k, "w") as f:
            f.write("a: 1\n---\n" * 5000)
        cases = (("KUBECONFIG=/dev/zero node", ["node"], {"KUBECONFIG": "/dev/zero"}),
                 ("--kubeconfig FIFO node", ["node", "--kubeconfig", fifo], {}),
                 ("--kubeconfig 20 GiB sparse", ["node", "--kubeconfig", huge], {}),
                 ("env 4194303 empty docs", ["env", empty], {}),
                 ("env 300000 tiny docs", ["env", tiny], {}),
                 ("env 5000 tiny docs", ["env", tiny5k], {}))
        print("%-28s %-16s %9s %9s %9s" % ("case", "exit", "wall_s", "rss_mib", "printed"))
        for name, args, env in cases:
            for _ in range(a.repeat):
                rc, wall, printed = measure(args, env)
                rss = peak_rss_mib(args, env)
                shown = "%9.1f" % rss if rss is not None else "%9s" % "n/a"
                print("%-28s %-16s %9.3f %s %9d" % (name, rc, wall, shown, printed), flush=True)
    finally:
        shutil.rmtree(d)


if __name__ == "__main__":
    main()
