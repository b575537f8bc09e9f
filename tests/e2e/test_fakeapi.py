"""The fake API server against the real kubectl 1.30, 1.31 and 1.32.

Run: cd tests/e2e && python3 -m unittest -v test_fakeapi   (as root; needs busybox-static)
"""
import json
import os
import subprocess
import time
import unittest
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from harness import KUBECTL_VERSIONS, FakeCluster, kubectl_binary, only_reads
from fakeapi.scenario import parse_selector

DGD = "nvidia.com/dynamo-graph-deployment-name"
PREFILL0 = "llama-70b-disagg-0-vllmprefillworker-7xk2p"


def names(list_json):
    doc = json.loads(list_json)
    return sorted(i["metadata"]["name"] for i in doc["items"])


class SelectorTest(unittest.TestCase):
    def test_grammar(self):
        l = {"a": "1", "b": "2"}
        cases = [("", True), ("a=1", True), ("a==1", True), ("a!=1", False), ("a", True),
                 ("!a", False), ("!c", True), ("c!=1", True), ("a in (1,3)", True),
                 ("a in (3)", False), ("a notin (3, 4)", True), ("a=1,b=3", False),
                 ("a=1, b in (2)", True), ("c", False)]
        for sel, want in cases:
            with self.subTest(sel=sel):
                self.assertEqual(parse_selector(sel)(l), want)
        for bad in ("a in 1", "a=1,,", "=x"):
            with self.subTest(bad=bad):
                with self.assertRaises(ValueError):
                    parse_selector(bad)(l)


class KubectlVersionsPresent(unittest.TestCase):
    def test_binaries(self):
        for v in KUBECTL_VERSIONS:
            self.assertTrue(os.access(kubectl_binary(v), os.X_OK), kubectl_binary(v))


class HealthyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = FakeCluster("healthy-h100-ib").start()

    @classmethod
    def tearDownClass(cls):
        cls.c.stop()

    def test_1_get_pods_selectors(self):
        want_dgd = sorted(["llama-70b-disagg-0-frontend-5tq8v", PREFILL0,
                           "llama-70b-disagg-0-vllmprefillworker-m4q9z",
                           "llama-70b-disagg-0-vllmdecodeworker-b8w3c",
                           "llama-70b-disagg-0-vllmdecodeworker-r2n6d"])
        for v in KUBECTL_VERSIONS:
            with self.subTest(kubectl=v):
                rc, out, err, _ = self.c.kubectl(v, ["get", "pods", "-o", "json", "-l", DGD + "=llama-70b-disagg"])
                self.assertEqual((rc, err), (0, ""))
                self.assertEqual(names(out), want_dgd)
                rc, out, err, _ = self.c.kubectl(v, [
                    "get", "pods", "-o", "json", "-l",
                    DGD + "=llama-70b-disagg,nvidia.com/dynamo-component-type in (prefill,worker)"])
                self.assertEqual(len(names(out)), 4, err)
                self.assertNotIn("llama-70b-disagg-0-frontend-5tq8v", names(out))
                rc, out, err, _ = self.c.kubectl(v, ["get", "pods", "-A", "-o", "json", "-l",
                                                     DGD + "==llama-70b-disagg"])
                self.assertEqual(len(names(out)), 6, err)
                rc, out, err, _ = self.c.kubectl(v, ["get", "pods", "-o", "json", "-l", "!grove.io/podclique"])
                self.assertEqual(names(out), ["other-dgd-0-vllmworker-x1", "unrelated-nginx-6d9f7"])
                rc, out, err, _ = self.c.kubectl(v, ["get", "pods", "-o", "json", "-l", DGD + "=nope"])
                self.assertEqual((rc, names(out), err), (0, [], ""))
                rc, out, err, _ = self.c.kubectl(v, ["get", "pod", PREFILL0, "-o", "json"])
                pod = json.loads(out)
                self.assertEqual(pod["spec"]["nodeName"], "h100-node-a")
                self.assertEqual(pod["status"]["podIP"], "10.42.1.11")
                self.assertEqual(pod["spec"]["containers"][0]["name"], "main")

    def test_2_exec_relays_stdout(self):
        cmd = "cat /sys/class/infiniband/mlx5_0/ports/1/state; uname -r; hostname"
        for v in KUBECTL_VERSIONS:
            with self.subTest(kubectl=v):
                rc, out, err, secs = self.c.kubectl(v, ["exec", PREFILL0, "-c", "main", "--", "sh", "-c", cmd])
                self.assertEqual((rc, err), (0, ""))
                self.assertEqual(out, "4: ACTIVE\n%s\n%s\n" % (os.uname().release, PREFILL0))

    def test_3_sandbox_is_the_pod(self):
        script = ("echo $HOSTNAME; echo $UCX_TLS; ls /dev/infiniband | wc -l; grep CapEff /proc/self/status; "
                  "grep -c '^nvidia_peermem ' /proc/modules; ls /sys/class/infiniband; test -e /etc/shadow || echo no-host-files; "
                  "nvidia-smi -L | wc -l")
        rc, out, err, _ = self.c.kubectl("1.31", ["exec", PREFILL0, "-c", "main", "--", "sh", "-c", script])
        self.assertEqual((rc, err), (0, ""))
        lines = out.split("\n")
        self.assertEqual(lines[0], PREFILL0)
        self.assertEqual(lines[1], "rc_x,cuda_copy,cuda_ipc")
        self.assertEqual(lines[2].strip(), "9")  # uverbs0-7 + rdma_cm
        self.assertEqual(lines[3], "CapEff:\t00000000a80465fb")
        self.assertEqual(lines[4], "1")
        self.assertEqual(lines[5:13], ["mlx5_%d" % i for i in range(8)])
        self.assertEqual(lines[13], "no-host-files")
        self.assertEqual(lines[14].strip(), "8")

    def test_4_exit_code(self):
        for v in KUBECTL_VERSIONS:
            with self.subTest(kubectl=v):
                rc, out, err, _ = self.c.kubectl(v, ["exec", PREFILL0, "-c", "main", "--", "sh", "-c",
                                                     "echo out; echo err >&2; exit 42"])
                self.assertEqual(rc, 42)
                self.assertEqual(out, "out\n")
                self.assertEqual(err, "err\ncommand terminated with exit code 42\n")

    def test_5_pod_not_found(self):
        for v in KUBECTL_VERSIONS:
            with self.subTest(kubectl=v):
                rc, out, err, _ = self.c.kubectl(v, ["exec", "ghost", "-c", "main", "--", "true"])
                self.assertEqual((rc, err), (1, 'Error from server (NotFound): pods "ghost" not found\n'))

    def test_6_long_command_survives_pings(self):
        # kubectl pings every 5 s; the server must answer and keep streaming.
        rc, out, err, secs = self.c.kubectl("1.32", ["exec", PREFILL0, "-c", "main", "--", "sh", "-c",
                                                     "echo a; sleep 6; echo b"])
        self.assertEqual((rc, out, err), (0, "a\nb\n", ""))
        self.assertGreater(secs, 6)

    def test_7_parallel_execs(self):
        pods = [PREFILL0, "llama-70b-disagg-0-vllmprefillworker-m4q9z",
                "llama-70b-disagg-0-vllmdecodeworker-b8w3c", "llama-70b-disagg-0-vllmdecodeworker-r2n6d"] * 4
        def hostname(pod):
            r = self.c.kubectl("1.31", ["exec", pod, "-c", "main", "--", "hostname"])
            if r[:3] == (0, "", ""):
                # kubectl itself can exit 0 having dropped stdout (kubernetes#124571; here about
                # once in 800 parallel execs): the server is judged on the next answer instead.
                r = self.c.kubectl("1.31", ["exec", pod, "-c", "main", "--", "hostname"])
            return r

        with ThreadPoolExecutor(16) as ex:
            res = list(ex.map(hostname, pods))
        self.assertEqual([(r[0], r[1].strip()) for r in res], [(0, p) for p in pods], [r[2] for r in res if r[0]])

    def test_9_request_log_only_reads(self):
        log = self.c.request_log()
        self.assertTrue(log)
        self.assertEqual({r["method"] for r in log}, {"GET"})
        execs = [r for r in log if r["path"].endswith("/exec")]
        self.assertTrue(execs)
        for r in execs:
            self.assertEqual((r["upgrade"], r["protocol"]), ("websocket", "v5.channel.k8s.io"))
        # kubectl names itself after argv[0] (here the `kubectl` symlink) and its version.
        uas = {r["ua"].split(" ")[0].rsplit(".", 1)[0] for r in log}
        self.assertEqual(uas, {"kubectl/v" + v for v in KUBECTL_VERSIONS})
        # The log catches a write, and the server refuses it.
        req = urllib.request.Request("http://127.0.0.1:%d/api/v1/namespaces/dynamo/pods/%s" % (self.c.port, PREFILL0),
                                     method="DELETE")
        with self.assertRaises(urllib.error.HTTPError) as cm:
            urllib.request.urlopen(req)
        self.assertEqual(cm.exception.code, 405)
        self.assertEqual([r["method"] for r in only_reads(self.c.request_log())], ["DELETE"])


class BrokenTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = FakeCluster("pending-and-broken").start()

    @classmethod
    def tearDownClass(cls):
        cls.c.stop()

    def exec_all(self, pod, want_rc, want_err, cmd=("sh", "-c", "echo hi")):
        for v in KUBECTL_VERSIONS:
            with self.subTest(kubectl=v, pod=pod):
                rc, out, err, _ = self.c.kubectl(v, ["exec", pod, "-c", "main", "--"] + list(cmd))
                self.assertEqual(rc, want_rc, err)
                self.assertEqual(out, "")
                if hasattr(want_err, "match"):
                    self.assertRegex(err, want_err)
                else:
                    self.assertEqual(err, want_err)

    def test_forbidden(self):
        self.exec_all("broken-dgd-0-decode-forbidden", 1,
                      'Error from server (Forbidden): pods "broken-dgd-0-decode-forbidden" is forbidden: '
                      'User "system:serviceaccount:dynamo:icheck-viewer" cannot create resource "pods/exec" '
                      'in API group "" in the namespace "dynamo"\n')

    def test_no_shell(self):
        import re
        self.exec_all("broken-dgd-0-decode-nosh", 1, re.compile(
            r'^error: Internal error occurred: error executing command in container: failed to exec in '
            r'container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to '
            r'start container process: exec: "sh": executable file not found in \$PATH: unknown\n$'))

    def test_no_main_container(self):
        self.exec_all("broken-dgd-0-decode-nomain", 1,
                      "Error from server (BadRequest): container main is not valid for pod "
                      "broken-dgd-0-decode-nomain\n")

    def test_pending(self):
        self.exec_all("broken-dgd-0-prefill-pending", 1,
                      "Error from server (BadRequest): pod broken-dgd-0-prefill-pending does not have a host assigned\n")
        self.exec_all("broken-dgd-0-decode-creating", 1,
                      'Error from server (InternalError): container not found ("main")\n')

    def test_memlock(self):
        rc, out, err, _ = self.c.kubectl("1.31", ["exec", "broken-dgd-0-decode-memlock", "-c", "main", "--", "sh", "-c",
                                                  "ulimit -l; grep locked /proc/self/limits"])
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out.split("\n")[0], "64")
        self.assertEqual(out.split("\n")[1].split()[3:5], ["65536", "65536"])

    def test_hang_is_killed(self):
        for v in KUBECTL_VERSIONS:
            with self.subTest(kubectl=v):
                t0 = time.monotonic()
                p = subprocess.Popen(["timeout", "3", "kubectl", "exec", "broken-dgd-0-decode-hang", "-c", "main",
                                      "--", "sh", "-c", "echo never"], env=self.c.env(v),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                seen = []
                while p.poll() is None and not seen:
                    seen = self.c.sandbox_processes()
                    time.sleep(0.05)
                self.assertTrue(seen, "the hanging exec never started a sandbox process")
                out, err = p.communicate(10)
                self.assertEqual(p.returncode, 124)
                self.assertLess(time.monotonic() - t0, 5)
                self.assertEqual(self.c.sandbox_processes_left(), [], "sandbox processes outlived the client")

    def test_z_request_log(self):
        log = self.c.request_log()
        self.assertEqual(only_reads(log), [])
        # A refused upgrade (403/400/500) makes kubectl retry the exec once as a SPDY POST.
        posts = [r for r in log if r["method"] == "POST"]
        self.assertTrue(posts, "the refused-upgrade tests above should have caused a SPDY fallback")
        self.assertTrue(all(r["path"].endswith("/exec") for r in posts))


class HugeOutputTest(unittest.TestCase):
    def test_100_mib(self):
        with FakeCluster("huge-output") as c:
            for v in KUBECTL_VERSIONS:
                with self.subTest(kubectl=v):
                    t0 = time.monotonic()
                    p = subprocess.run(["kubectl", "exec", "huge-0-vllmprefillworker-big", "-c", "main", "--",
                                        "sh", "-c", "echo done"], env=c.env(v), capture_output=True, timeout=120)
                    self.assertEqual((p.returncode, p.stderr), (0, b""))
                    self.assertEqual(len(p.stdout), 100 * 1024 * 1024 + 5)
                    self.assertTrue(p.stdout.endswith(b"x\ndone\n"))
                    print("\n  100 MiB through kubectl %s: %.2fs" % (v, time.monotonic() - t0), end="")


class FanoutTest(unittest.TestCase):
    def test_32_pods_latency(self):
        with FakeCluster("fanout-32") as c:
            pods = ["fanout-0-vllmworker-%d" % i for i in range(32)]
            c.kubectl("1.31", ["get", "pods"])  # warm the discovery cache
            t0 = time.monotonic()
            with ThreadPoolExecutor(16) as ex:
                res = list(ex.map(lambda p: c.kubectl("1.31", ["exec", p, "-c", "main", "--", "true"]), pods))
            wall = time.monotonic() - t0
            self.assertEqual([r[0] for r in res], [0] * 32, [r[2] for r in res if r[0]])
            self.assertGreaterEqual(wall, 0.4)  # ceil(32/16) x 200 ms is the floor
            print("\n  32 x kubectl exec true, 200 ms latency, 16 parallel: %.2fs (server start %.2fs)"
                  % (wall, c.start_seconds), end="")


if __name__ == "__main__":
    unittest.main()
