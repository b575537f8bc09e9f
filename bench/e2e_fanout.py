#!/usr/bin/env python3
"""Wall time of `kubectl dynamo-icheck node` on fanout-32 / fanout-128 (200 ms injected exec latency)
at --parallel 16, against the ideal ceil(N/16) x 200 ms and a bare `kubectl exec POD -- true` fan-out
at parallelism 16 in the same run (the floor for any tool spawning one kubectl per pod).

    ICHECK_PLUGIN=build/kubectl-dynamo_icheck python3 bench/e2e_fanout.py [--kubectl 1.32] [--repeat 3]
"""
import argparse
import concurrent.futures
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
import harness  # noqa: E402


def bare_fanout(c, version, pods, parallel):
    env = c.env(version)
    def one(p):
        return subprocess.run(["kubectl", "exec", p, "-c", "main", "--", "true"], env=env,
                              capture_output=True).returncode
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(parallel) as ex:
        rcs = list(ex.map(one, pods))
    assert all(rc == 0 for rc in rcs), rcs
    return time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kubectl", default="1.32")
    ap.add_argument("--parallel", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print("%-11s %5s %10s %12s %12s" % ("scenario", "pods", "ideal_s", "plugin_s", "bare_exec_s"))
    for name, n in (("fanout-32", 32), ("fanout-128", 128)):
        with harness.FakeCluster(name) as c:
            pods = ["fanout-0-vllmworker-%d" % i for i in range(n)]
            plug, bare = [], []
            for _ in range(a.repeat):
                rc, out, err, secs = c.run_plugin(a.kubectl, ["node", "--deployment", "fanout",
                                                              "--parallel", str(a.parallel), "-o", "json"], timeout=300)
                assert rc in (0, 1, 2), err
                plug.append(secs)
                bare.append(bare_fanout(c, a.kubectl, pods, a.parallel))
            ideal = math.ceil(n / a.parallel) * 0.2
            print("%-11s %5d %10.2f %12.2f %12.2f   (median of %d; plugin min %.2f, bare min %.2f)" % (
                name, n, ideal, sorted(plug)[len(plug) // 2], sorted(bare)[len(bare) // 2], a.repeat,
                min(plug), min(bare)))


if __name__ == "__main__":
    main()
