#!/usr/bin/env python3
"""`kubectl dynamo-icheck node` on N identical pods (every exec waits 200 ms before its command
starts), for N = 16, 64, 256, 1024 by default, side by side:

  floor    a bare `kubectl exec POD -c main -- true` per pod at --parallel (the least any tool
           that starts one kubectl per pod pays),
  stream   the same `true` per pod over one kubectl proxy with the plugin's WebSocket client
           (build/bench/bench_stream_fanout): the new transport's own floor,
  kubectl  the plugin with --transport=kubectl (one `kubectl exec` child per pod),
  proxy    the plugin with --transport=proxy (one `kubectl proxy`, our WebSocket streams).

--ending sets how the fake API server ends each exec stream after the status (fakeapi/server.py
ENDINGS; default close-drop, the close frame and then the connection closed at once, as servers
on Go's x/net/websocket do); --parallel takes a list, to choose the default from the figures.
Per row: pods lost (not probed whole), wall seconds, CPU seconds of the client side (the plugin or the bench's kubectl
children and everything they started; the fake API server and its pods are not counted), and the
peak RSS of that whole client process tree (summed over its processes, sampled every 10 ms).
The ideal is ceil(N / parallel) x 200 ms. Figures, never assertions.

    ICHECK_PLUGIN=build/kubectl-dynamo_icheck /usr/bin/python3 bench/e2e_fanout.py \\
        [--pods 16,64,256,1024] [--kubectl 1.32] [--parallel 16,32,64] [--repeat 1]
        [--methods floor,stream,kubectl,proxy] [--ending close-drop]
    (cmake --build build --target bench first, for the stream row)
"""
import argparse
import concurrent.futures
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

E2E = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e")
sys.path.insert(0, E2E)
import harness  # noqa: E402

BASE_SCENARIO = os.path.join(E2E, "scenarios", "fanout-128", "scenario.json")


def scenario_dir(n, into):
    """fanout-128 with n replicas instead, written under `into`."""
    with open(BASE_SCENARIO) as f:
        spec = json.load(f)
    spec["replicate"][0]["count"] = n
    spec["description"] = "bench: %d copies of the fanout-128 pod" % n
    d = os.path.join(into, "fanout-%d" % n)
    os.makedirs(d)
    with open(os.path.join(d, "scenario.json"), "w") as f:
        json.dump(spec, f)
    return d


def children_of():
    """ppid -> [pid] for every process now."""
    tree = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        tree.setdefault(ppid, []).append(int(name))
    return tree


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class TreeRss:
    """Peak of the summed RSS of the descendants of `root` (not root itself unless asked),
    leaving out the subtrees of `exclude`."""

    def __init__(self, root, exclude=(), include_root=False):
        self.root, self.exclude, self.include_root = root, set(exclude), include_root
        self.peak_kib = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def sample(self):
        tree = children_of()
        todo = list(tree.get(self.root, []))
        total = rss_kib(self.root) if self.include_root else 0
        while todo:
            pid = todo.pop()
            if pid in self.exclude:
                continue
            total += rss_kib(pid)
            todo.extend(tree.get(pid, []))
        self.peak_kib = max(self.peak_kib, total)

    def run(self):
        while not self.stop.is_set():
            self.sample()
            time.sleep(0.01)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def floor(c, version, pods, parallel):
    env = c.env(version)

    def one(p):
        return subprocess.run(["kubectl", "exec", p, "-c", "main", "--", "true"], env=env,
                              capture_output=True).returncode

    cpu0, t0 = child_cpu(), time.monotonic()
    with TreeRss(os.getpid(), exclude=[c.proc.pid]) as rss:
        with concurrent.futures.ThreadPoolExecutor(parallel) as ex:
            rcs = list(ex.map(one, pods))
    return time.monotonic() - t0, child_cpu() - cpu0, rss.peak_kib, sum(1 for rc in rcs if rc != 0)


def stream_floor(c, version, pods, parallel, binary):
    cpu0, t0 = child_cpu(), time.monotonic()
    proc = subprocess.Popen([binary, "kubectl", str(parallel), "dynamo"] + pods, env=c.env(version),
                            cwd=c.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with TreeRss(proc.pid, include_root=True) as rss:
        out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, out + err
    return time.monotonic() - t0, child_cpu() - cpu0, rss.peak_kib, 0


def plugin(c, version, transport, parallel):
    argv = ["kubectl", "dynamo-icheck", "node", "--deployment", "fanout", "--parallel", str(parallel),
            "-o", "json", "--transport", transport]
    cpu0, t0 = child_cpu(), time.monotonic()
    proc = subprocess.Popen(argv, env=c.env(version), cwd=c.dir, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    with TreeRss(proc.pid, include_root=True) as rss:
        out, err = proc.communicate(timeout=900)
    secs = time.monotonic() - t0
    assert proc.returncode in (0, 1, 2), err[-2000:]
    assert b"note:" not in err, err[-2000:]  # no fallback: the row measures what it names
    doc = json.loads(out)
    lost = sum(1 for t in doc["targets"] if any(ch["name"] in ("exec", "probe") for ch in t["checks"]))
    return secs, child_cpu() - cpu0, rss.peak_kib, lost


def median(rows):
    return sorted(rows)[len(rows) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pods", default="16,64,256,1024")
    ap.add_argument("--kubectl", default="1.32")
    ap.add_argument("--parallel", default="16")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--methods", default="floor,stream,kubectl,proxy")
    ap.add_argument("--ending", default="close-drop")
    ap.add_argument("--stream-bench", default=os.path.join(E2E, "..", "..", "build", "bench",
                                                           "bench_stream_fanout"),
                    help="built by `cmake --build build --target bench`; its row is left out if absent")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="icheck-bench-")
    print("kubectl %s, 200 ms exec latency, stream ending %s, median of %d"
          % (a.kubectl, a.ending, a.repeat))
    print("%5s %4s  %-8s %5s %8s %8s %8s %13s"
          % ("pods", "par", "method", "lost", "ideal_s", "wall_s", "cpu_s", "peak_rss_mib"))
    methods = a.methods.split(",")
    try:
        for n in [int(x) for x in a.pods.split(",")]:
            with harness.FakeCluster(scenario_dir(n, work),
                                     server_env={"FAKEAPI_EXEC_ENDING": a.ending}) as c:
                pods = ["fanout-0-vllmworker-%d" % i for i in range(n)]
                for parallel in [int(x) for x in a.parallel.split(",")]:
                    runs = {
                        "floor": lambda: floor(c, a.kubectl, pods, parallel),
                        "stream": lambda: stream_floor(c, a.kubectl, pods, parallel, a.stream_bench),
                        "kubectl": lambda: plugin(c, a.kubectl, "kubectl", parallel),
                        "proxy": lambda: plugin(c, a.kubectl, "proxy", parallel),
                    }
                    if not os.path.exists(a.stream_bench):
                        del runs["stream"]
                    ideal = math.ceil(n / parallel) * 0.2
                    for name, fn in runs.items():
                        if name not in methods:
                            continue
                        got = [fn() for _ in range(a.repeat)]
                        wall, cpu, rss, lost = (median([g[i] for g in got]) for i in range(4))
                        print("%5d %4d  %-8s %5d %8.2f %8.2f %8.2f %13.1f"
                              % (n, parallel, name, lost, ideal, wall, cpu, rss / 1024.0), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
