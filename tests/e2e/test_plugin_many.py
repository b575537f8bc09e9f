"""Many pods on one screen: pods of several kinds get a grid (a row per kind of pods alike) before
the tables, the tables then show only the kinds with a fail or a required check not ok, one table
per kind (-o wide keeps a grid row and a table per pod), and on a terminal the progress line names
the pods still waited on (stderr a pty, stdout a pipe)."""
import fcntl
import os
import re
import pty
import select
import struct
import subprocess
import termios
import time
import unittest

import harness

SCENARIO = "fanout-mixed-24"
ARGS = ["node", "--deployment", "fanout-mixed"]
SLOW = ["fanout-mixed-0-vllmworker-slow-0", "fanout-mixed-0-vllmworker-slow-1"]
ALL_PODS = ["fanout-mixed-0-vllmworker-%d" % i for i in range(22)] + SLOW


def grid_rows(out, first="POD "):
    """{first word: row words} of the grid: the lines between its heading and the first blank
    line (the first word is the pod, or with PODS how many pods of a kind)."""
    lines = out.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(first))
    rows = {}
    for l in lines[start + 1:]:
        if not l.strip():
            break
        rows[l.split()[0]] = l.split()[1:]
    return lines[start].split(), rows


def tables(out):
    """The pods that have a table (a heading line, for pods alike their names under it, then the
    column headings): one entry per table, the pod's name or the list of the kind's names."""
    lines = out.splitlines()
    found = []
    for i, l in enumerate(lines):
        if not (l.startswith("  LAYER ") or l.startswith("  TARGET ")):
            continue
        j, names = i - 1, []
        while lines[j].startswith("         ") or lines[j].startswith("  pods   "):
            names = [n.rstrip(",") for n in lines[j][9:].split()] + names
            if lines[j].startswith("  pods   "):
                break
            j -= 1
        found.append(names if names else lines[i - 1].split()[0])
    return found


def run_on_pty(c, version, args, cols=200, timeout=60):
    """The plugin with stderr on a pty of `cols` columns -> (rc, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
    p = subprocess.Popen(["kubectl", "dynamo-icheck"] + args, env=c.env(version), cwd=c.dir,
                         stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer closed the pty
                break
            if not chunk:
                break
            seen += chunk
        elif p.poll() is not None:
            break
    out = p.communicate(timeout=timeout)[0]
    os.close(master)
    return p.returncode, out.decode(errors="replace"), seen.decode(errors="replace")


class TestManyPods(unittest.TestCase):
    @classmethod
    def setUpClass(cls):  # one cluster of 24 sandboxes for both tests
        cls.cluster = harness.FakeCluster(SCENARIO)
        cls.cluster.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.cluster.__exit__(None, None, None)  # fails on any request but reads and exec

    def test_grid_first_then_only_the_pods_that_are_not_all_ok(self):
        c = self.cluster
        v = harness.KUBECTL_VERSIONS[0]
        rc, out, err, _ = c.run_plugin(v, ARGS + ["-o", "json"])
        doc = harness.json_doc(self, rc, out, err)
        not_all_ok = sorted(t["name"] for t in doc["targets"] if any(
            ch["status"] == "fail" or (ch["required"] and ch["status"] != "ok") for ch in t["checks"]))
        self.assertEqual(len(doc["targets"]), 24)
        self.assertEqual(not_all_ok, SLOW)  # the 22 healthy pods have only optional skips

        rc, out, err, _ = c.run_plugin(v, ARGS)
        self.assertEqual(rc, 2, err)
        self.assertIn("24 pods of 2 kinds, the worst status of each layer:", out)
        heading, rows = grid_rows(out, "PODS ")
        self.assertEqual(heading[:2], ["PODS", "ROLE"])
        self.assertIn("RDMA-ACCESS", heading)
        self.assertEqual(sorted(rows), ["2", "22"])  # 22 healthy pods alike, the 2 slow ones
        access = heading.index("RDMA-ACCESS") - 1  # the rows have no PODS word
        for t in doc["targets"]:  # each cell is the worst status of that layer in the JSON
            worst = max((ch["status"] for ch in t["checks"] if ch["layer"] == "rdma-access"),
                        key=["ok", "skipped", "warn", "fail"].index)
            self.assertEqual(rows["2" if t["name"] in SLOW else "22"][access], worst, t["name"])
        self.assertEqual(rows["2"][access], "fail")
        self.assertLess(out.index("PODS "), out.index("  LAYER "))
        self.assertEqual(tables(out), [not_all_ok])  # one table for the two pods alike
        self.assertIn("2 pods alike  2 decode", out)
        hidden = 24 - len(not_all_ok)
        # Their nvlink cell reads skipped (an optional check): never summed up as "every check ok".
        self.assertIn("%d pods have every required check ok but an optional one skipped or warn "
                      "(see the grid): their tables are left out (-o wide shows every table)" % hidden,
                      out.replace("\n", " "))
        verdict = [l for l in out.splitlines() if l.startswith("VERDICT")][0]
        self.assertTrue(verdict.startswith("VERDICT  blocked  at rdma-access on 2 of 24 decode pods ("), verdict)
        self.assertLessEqual(len(verdict), 100)
        self.assertIn("  pods   %s, %s\n" % tuple(SLOW), out)

        rc, out, err, _ = c.run_plugin(v, ARGS + ["-o", "wide"])
        self.assertEqual(len(tables(out)), 24)
        self.assertIn("24 pods, the worst status of each layer:", out)
        self.assertEqual(len(grid_rows(out)[1]), 24)
        self.assertNotIn("left out", out)

    def test_progress_names_the_pods_still_waited_on(self):
        c = self.cluster
        v = harness.KUBECTL_VERSIONS[0]
        rc, out, seen = run_on_pty(c, v, ARGS + ["--parallel", "24"])
        self.assertEqual(rc, 2, seen[-2000:])
        self.assertIn("VERDICT  blocked", out)
        self.assertIn("\rwaiting for 24 of 24 pods: fanout-mixed-0-vllmworker-0, ", seen)
        # Which pods answer last depends on the load (the two slow ones do when 24 kubectl execs
        # get the CPU in time), so the test follows the lines: the count only falls, names only
        # leave for good, each line fits the 200 columns, the last pods waited on are named, and
        # the line is cleared at the end (the list is cut to the width: a name may show up late).
        # Each line after the first starts with the clock: time waited against the most it may
        # take (one 30 s deadline for one wave of 24 pods at --parallel 24).
        clock = r"(?:\d+(?:m\d+)?s of 30s · )"
        self.assertRegex(seen, "\r" + clock + "waiting for ")
        lines = [l.rstrip() for l in seen.split("\r") if re.match(clock + "?waiting", l)]
        counts, names = [], []
        for l in lines:
            m = re.match(clock + r"?waiting for (\d+) of 24 pods: (.*)$", l)
            self.assertIsNotNone(m, l)
            counts.append(int(m.group(1)))
            names.append({n.rstrip(",") for n in m.group(2).removesuffix(" ...").split(", ")})
            self.assertLess(len(l), 200, l)
        self.assertEqual(counts, sorted(counts, reverse=True), counts)
        for pod in set().union(*names):  # shown from some line on until it answers, never again
            shown = [i for i, n in enumerate(names) if pod in n]
            self.assertEqual(shown, list(range(shown[0], shown[-1] + 1)), pod)
        self.assertLessEqual(counts[-1], 2, lines[-3:])  # 1, unless the last two answer at once
        self.assertEqual(len(names[-1]), counts[-1])
        self.assertTrue(names[-1] <= set(ALL_PODS), names[-1])
        self.assertTrue(seen.endswith("\r"), seen[-200:])

        # not a terminal: no progress at all
        rc, out, err, _ = c.run_plugin(v, ARGS)
        self.assertNotIn("waiting for", err)


if __name__ == "__main__":
    unittest.main()
