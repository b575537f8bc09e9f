#!/usr/bin/env python3
"""How long the plugin takes to end when its `kubectl proxy` never says it is ready (issue 31):
a kubectl wrapper whose `proxy` sleeps without printing "Starting to serve on", against the
fake API server's healthy-h100-ib scenario (`node`, -o json, --transport proxy).

Rows (seconds from the plugin's start, or from the signal, to its exit; exit code; whether
stdout held one parseable Report):
  timeout      no signal, --timeout 4s: the run's own deadline
  SIGINT@2     one SIGINT 2 s after the start
  SIGTERM@2    one SIGTERM 2 s after the start
  2xSIGINT     SIGINT at 2 s, a second one at 2.05 s

    ICHECK_PLUGIN=build/kubectl-dynamo_icheck /usr/bin/python3 bench/proxy_signals.py [--kubectl 1.32]
Figures, never assertions (run as root: the fake pods are sandboxes).
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time

E2E = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e")
sys.path.insert(0, E2E)
import harness  # noqa: E402


def silent_proxy(cluster):
    path = os.path.join(cluster.dir, "kubectl-silent-proxy")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n"
                "for a; do [ \"$a\" = proxy ] && exec sleep 1000; done\n"
                "exec kubectl \"$@\"\n")
    os.chmod(path, 0o755)
    return path


def one(cluster, version, wrapper, timeout, signals):
    args = ["kubectl", "dynamo-icheck", "node", "--deployment", "llama-70b-disagg", "-o", "json",
            "--transport", "proxy", "--timeout", timeout]
    env = cluster.env(version, {"DYNAMO_ICHECK_KUBECTL": wrapper})
    t0 = time.monotonic()
    proc = subprocess.Popen(args, env=env, cwd=cluster.dir, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    done = {}

    def wait():
        out, _ = proc.communicate()
        done["end"], done["out"] = time.monotonic(), out

    waiter = threading.Thread(target=wait)
    waiter.start()
    sent = None
    for at, sig in signals:
        time.sleep(max(0.0, t0 + at - time.monotonic()))
        if proc.poll() is None:
            os.killpg(proc.pid, sig)
            sent = sent or time.monotonic()
    waiter.join(120)
    if waiter.is_alive():
        os.killpg(proc.pid, signal.SIGKILL)
        waiter.join()
    end, out = done["end"], done["out"]
    try:
        doc = json.loads(out)
        report = doc.get("kind") == "Report"
    except ValueError:
        report = False
    return end - t0, (end - sent) if sent else None, proc.returncode, report


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kubectl", default=harness.KUBECTL_VERSIONS[-1])
    a = ap.parse_args()
    rows = [("timeout", "4s", []),
            ("SIGINT@2", "60s", [(2.0, signal.SIGINT)]),
            ("SIGTERM@2", "60s", [(2.0, signal.SIGTERM)]),
            ("2xSIGINT", "60s", [(2.0, signal.SIGINT), (2.05, signal.SIGINT)])]
    print("%-10s %10s %12s %5s %7s" % ("case", "total_s", "after_sig_s", "rc", "report"))
    with harness.FakeCluster("healthy-h100-ib") as c:
        wrapper = silent_proxy(c)
        for name, timeout, signals in rows:
            total, after, rc, report = one(c, a.kubectl, wrapper, timeout, signals)
            print("%-10s %10.2f %12s %5d %7s" % (name, total, "%.2f" % after if after else "-", rc,
                                                 "yes" if report else "no"))


if __name__ == "__main__":
    main()
