"""Exec transports (issue 23): one `kubectl proxy` per run on a private Unix socket, our own
WebSocket streams through it, and the fallback to one `kubectl exec` per pod (said once) when the
proxy cannot start or exec through it is refused. The other modules run on either transport
(run.py --transport); this one pins the transport each test is about."""
import glob
import http.client
import os
import signal
import socket
import stat
import subprocess
import time
import unittest

import harness

PROXY = ["--transport", "proxy"]


def fake_kubectl(cluster, name, body):
    """A kubectl wrapper (DYNAMO_ICHECK_KUBECTL) that changes only the `proxy` command."""
    path = os.path.join(cluster.dir, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n"
                "# synthetic: a kubectl that treats `proxy` differently, for the fallback tests\n"
                "for a; do [ \"$a\" = proxy ] && is_proxy=1; done\n"
                "if [ -n \"$is_proxy\" ]; then\n%s\nfi\n"
                "exec kubectl \"$@\"\n" % body)
    os.chmod(path, 0o755)
    return path


def exec_requests(cluster):
    return [r for r in cluster.request_log() if r["path"].endswith("/exec")]


def verdicts(test, rc, out, err):
    doc = harness.json_doc(test, rc, out, err)
    return rc, {t["name"]: [(c["name"], c["status"]) for c in t["checks"]] for t in doc["targets"]}


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost", timeout=10)
        self.unix_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(self.unix_path)


def status_through(sock_path, method, path, headers=None):
    conn = UnixHTTPConnection(sock_path)
    try:
        conn.request(method, path, headers=headers or {})
        return conn.getresponse().status
    finally:
        conn.close()


def proxy_processes(kubeconfig):
    """PID -> argv of the `kubectl proxy` processes run with this kubeconfig."""
    found = {}
    for d in glob.glob("/proc/[0-9]*"):
        try:
            with open(d + "/cmdline", "rb") as f:
                argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
            with open(d + "/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if "proxy" in argv and any(a.startswith("--unix-socket=") for a in argv) and \
                ("KUBECONFIG=" + kubeconfig).encode() in env and not argv[0].endswith("sh"):
            found[int(d[6:])] = argv
    return found


def listening_tcp_inodes():
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if cols[3] == "0A":  # LISTEN
                inodes.add(cols[9])
    return inodes


def socket_inodes(pid):
    out = set()
    for fd in glob.glob("/proc/%d/fd/*" % pid):
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            out.add(target[8:-1])
    return out


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


class TestProxyTransport(unittest.TestCase):
    def test_v5_and_v4_pods_over_one_proxy_like_kubectl(self):
        with harness.FakeCluster("transport-v4") as c:
            tmp = os.path.join(c.dir, "tmp")
            os.makedirs(tmp)
            v = harness.KUBECTL_VERSIONS[-1]
            rc, out, err, _ = c.run_plugin(v, ["node", "--deployment", "transport-v4", "-o", "json"]
                                           + PROXY, env={"TMPDIR": tmp})
            rc, got = verdicts(self, rc, out, err)
            self.assertEqual(rc, 0, err)
            for pod in ("transport-v4-0-prefill", "transport-v4-0-decode"):
                self.assertIn(("ports", "ok"), got[pod], err)
            execs = exec_requests(c)
            self.assertEqual(len(execs), 2)
            for r in execs:  # ours, through the proxy: kubectl's own exec says `kubectl exec`
                self.assertEqual(r["ua"], "kubectl-dynamo_icheck")
                self.assertEqual(r["protocol"], "v5.channel.k8s.io, v4.channel.k8s.io")
            self.assertNotIn("note:", err)
            self.assertEqual(os.listdir(tmp), [], "the proxy's directory is removed at exit")

    def test_private_socket_allows_only_exec_in_the_targets_namespace_and_dies_with_the_plugin(self):
        with harness.FakeCluster("interrupt-hang") as c:
            tmp = os.path.join(c.dir, "tmp")
            os.makedirs(tmp)
            v = harness.KUBECTL_VERSIONS[-1]
            proc = subprocess.Popen(["kubectl", "dynamo-icheck", "node", "--deployment", "interrupt-hang",
                                     "--timeout", "120s"] + PROXY,
                                    env=c.env(v, {"TMPDIR": tmp}), cwd=c.dir,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                deadline = time.monotonic() + 30
                while not (c.sandbox_processes() and proxy_processes(c.kubeconfig)):
                    self.assertLess(time.monotonic(), deadline, "the hanging exec never started")
                    time.sleep(0.05)
                proxies = proxy_processes(c.kubeconfig)
                self.assertEqual(len(proxies), 1, proxies)  # one for the run, not one per pod
                pid, argv = next(iter(proxies.items()))
                sock = [a for a in argv if a.startswith("--unix-socket=")][0].split("=", 1)[1]
                d = os.path.dirname(sock)
                self.assertEqual(os.path.dirname(d), tmp)
                st = os.stat(d)
                self.assertEqual(stat.S_IMODE(st.st_mode), 0o700)
                self.assertEqual(st.st_uid, os.getuid())
                self.assertTrue(stat.S_ISSOCK(os.stat(sock).st_mode))
                self.assertEqual(socket_inodes(pid) & listening_tcp_inodes(), set(),
                                 "the proxy listens on no TCP port")
                ns_exec = "/api/v1/namespaces/dynamo/pods/interrupt-hang-0-prefill/exec?command=true"
                refused = {
                    "pod list": ("GET", "/api/v1/namespaces/dynamo/pods"),
                    "other namespace": ("GET", "/api/v1/namespaces/kube-system/pods/x/exec?command=true"),
                    "attach": ("GET", "/api/v1/namespaces/dynamo/pods/interrupt-hang-0-prefill/attach"),
                    "SPDY POST": ("POST", ns_exec),
                    "secrets": ("GET", "/api/v1/namespaces/dynamo/secrets"),
                }
                # Methods are case-sensitive (RFC 9110): only GET itself goes through.
                for method in ("delete", "Delete", "DELETE", "post", "put", "patch", "HEAD", "head",
                               "OPTIONS", "options", "TRACE", "get", "Get", "GETX", "GE", "G", "XGET"):
                    refused["method " + method] = (method, ns_exec)
                for what, (method, path) in refused.items():
                    self.assertEqual(status_through(sock, method, path), 403, what)
                # The allowed path reaches the server (which wants a WebSocket upgrade: 400).
                self.assertEqual(status_through(sock, "GET", ns_exec), 400)
                self.assertEqual(status_through(sock, "GET", ns_exec, {"Host": "evil.example"}), 403)

                proc.send_signal(signal.SIGKILL)  # no handler, no cleanup of its own
                proc.wait(10)
                end = time.monotonic() + 10
                while (alive(pid) or os.path.exists(d)) and time.monotonic() < end:
                    time.sleep(0.05)
                self.assertFalse(alive(pid), "the proxy outlived the killed plugin")
                self.assertFalse(os.path.exists(d), "the socket's directory outlived the plugin")
                self.assertEqual(c.sandbox_processes_left(grace=10.0), [])
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()


def silent_proxy(cluster, marker):
    """A kubectl whose `proxy` runs but never says it serves (it touches `marker` first)."""
    return fake_kubectl(cluster, "kubectl-silent-proxy", ': > %s; exec sleep 1000' % marker)


class TestProxyStart(unittest.TestCase):
    def test_a_signal_while_the_proxy_starts_ends_the_run_at_once_with_its_report(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            v = harness.KUBECTL_VERSIONS[-1]
            marker = os.path.join(c.dir, "proxy-started")
            wrapper = silent_proxy(c, marker)
            for sig, rc_want in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
                with self.subTest(signal=sig.name):
                    if os.path.exists(marker):
                        os.unlink(marker)
                    proc = subprocess.Popen(["kubectl", "dynamo-icheck", "node", "--deployment",
                                             "llama-70b-disagg", "-o", "json", "--timeout", "120s"] + PROXY,
                                            env=c.env(v, {"DYNAMO_ICHECK_KUBECTL": wrapper}), cwd=c.dir,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                            start_new_session=True)
                    try:
                        deadline = time.monotonic() + 30
                        while not os.path.exists(marker):
                            self.assertLess(time.monotonic(), deadline, "the proxy never started")
                            time.sleep(0.05)
                        os.killpg(proc.pid, sig)
                        # A hang bound: the proxy's start used to hold the run 15 s.
                        out, err = proc.communicate(timeout=10)
                    finally:
                        if proc.poll() is None:
                            os.killpg(proc.pid, signal.SIGKILL)
                            proc.wait()
                    out, err = out.decode(), err.decode()
                    doc = harness.json_doc(self, proc.returncode, out, err)
                    self.assertEqual(proc.returncode, rc_want, err)
                    self.assertEqual(doc["verdict"]["status"], "interrupted")
                    self.assertNotIn("note:", err)  # no fallback is announced: the run stops
                    self.assertEqual(c.sandbox_processes_left(), [])
            self.assertEqual(exec_requests(c), [])

    def test_a_silent_proxy_is_waited_for_half_the_pods_timeout_then_kubectl_exec_goes_on(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            v = harness.KUBECTL_VERSIONS[-1]
            wrapper = silent_proxy(c, os.path.join(c.dir, "proxy-started"))
            args = ["node", "--deployment", "llama-70b-disagg", "-o", "json", "--timeout", "8s"]
            want = verdicts(self, *c.run_plugin(v, args + ["--transport", "kubectl"])[:3])
            rc, out, err, _ = c.run_plugin(v, args + PROXY, env={"DYNAMO_ICHECK_KUBECTL": wrapper})
            self.assertEqual(verdicts(self, rc, out, err), want)
            notes = [line for line in err.splitlines() if line.startswith("note: ")]
            self.assertEqual(notes, ["note: kubectl proxy could not start (kubectl proxy did not say it "
                                     "serves within 4.0 s); using one kubectl exec per pod"], err)

    def test_the_proxys_last_words_are_cut_to_a_line(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            v = harness.KUBECTL_VERSIONS[-1]
            wrapper = fake_kubectl(c, "kubectl-chatty-proxy",
                                   "head -c 16384 /dev/zero | tr '\\0' x >&2; echo >&2; exit 1")
            rc, out, err, _ = c.run_plugin(v, ["node", "--deployment", "llama-70b-disagg"] + PROXY,
                                           env={"DYNAMO_ICHECK_KUBECTL": wrapper})
            notes = [line for line in err.splitlines() if line.startswith("note: ")]
            self.assertEqual(len(notes), 1, err[:3000])
            self.assertIn("xxxx", notes[0])
            self.assertLess(len(notes[0]), 2200, "cut at 2000 bytes, saying how many more")
            self.assertRegex(notes[0], r"\(\d+ more bytes\)")


class TestStoppedProxy(unittest.TestCase):
    def test_a_proxy_that_stops_answering_is_named_and_the_rest_goes_over_kubectl_exec(self):
        """SIGSTOP of the proxy in the middle of a fan-out (issue 31): the streams it holds go
        silent; the plugin asks the proxy itself (a request its filter answers without the API
        server), says it stopped answering, and probes every pod left with kubectl exec: no pod
        is lost and nobody waits for the run's deadline."""
        with harness.FakeCluster("fanout-32") as c:
            v = harness.KUBECTL_VERSIONS[-1]
            proc = subprocess.Popen(["kubectl", "dynamo-icheck", "node", "--deployment", "fanout",
                                     "-o", "json", "--parallel", "4", "--timeout", "120s"] + PROXY,
                                    env=c.env(v), cwd=c.dir, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)
            stopped = []
            try:
                deadline = time.monotonic() + 60
                while len(exec_requests(c)) < 6:
                    self.assertLess(time.monotonic(), deadline, "the fan-out never started")
                    self.assertIsNone(proc.poll(), "the run ended before the proxy was stopped")
                    time.sleep(0.05)
                stopped = list(proxy_processes(c.kubeconfig))
                self.assertEqual(len(stopped), 1)
                os.kill(stopped[0], signal.SIGSTOP)
                out, err = proc.communicate(timeout=110)  # well inside the 120 s --timeout
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                for pid in stopped:
                    if alive(pid):
                        os.kill(pid, signal.SIGKILL)
            err = err.decode(errors="replace")
            doc = harness.json_doc(self, proc.returncode, out.decode(), err)
            self.assertIn("the local kubectl proxy stopped answering", err)
            self.assertEqual(len([l for l in err.splitlines() if l.startswith("note: ")]), 1, err)
            self.assertEqual(len(doc["targets"]), 32)
            lost = [t["name"] for t in doc["targets"]
                    if any(ch["name"] in ("exec", "probe") for ch in t["checks"])]
            self.assertEqual(lost, [], err[-2000:])
            kubectl_execs = [r for r in exec_requests(c) if r["kubectl_command"] == "kubectl exec"]
            self.assertTrue(kubectl_execs, "the pods left went over kubectl exec")


class TestFallback(unittest.TestCase):
    def the_note(self, c, wrapper, *says):
        """Runs the plugin on kubectl exec, then on the proxy through `wrapper`: the same
        results, and exactly one note on stderr, which says each of `says`."""
        v = harness.KUBECTL_VERSIONS[-1]
        args = ["node", "--deployment", "llama-70b-disagg", "-o", "json"]
        rc, out, err, _ = c.run_plugin(v, args + ["--transport", "kubectl"])
        want = verdicts(self, rc, out, err)
        rc, out, err, _ = c.run_plugin(v, args + PROXY, env={"DYNAMO_ICHECK_KUBECTL": wrapper})
        self.assertEqual(verdicts(self, rc, out, err), want)
        notes = [line for line in err.splitlines() if line.startswith("note: ")]
        self.assertEqual(len(notes), 1, err)
        for words in says + ("using one kubectl exec per pod",):
            self.assertIn(words, notes[0])

    def test_proxy_that_cannot_start_falls_back_to_kubectl_exec_saying_so_once(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            wrapper = fake_kubectl(c, "kubectl-noproxy",
                                   'echo "error: unknown command \\"proxy\\" for \\"kubectl\\"" >&2; exit 1')
            self.the_note(c, wrapper, "kubectl proxy could not start", 'unknown command "proxy"')
            self.assertTrue(all(r["kubectl_command"] == "kubectl exec" for r in exec_requests(c)))

    def test_exec_refused_by_the_proxy_falls_back_to_kubectl_exec_saying_so_once(self):
        with harness.FakeCluster("healthy-h100-ib") as c:
            # The proxy starts, but its filter lets no exec through (403 from kubectl itself).
            wrapper = fake_kubectl(c, "kubectl-shutproxy",
                                   'for a; do shift; case "$a" in --accept-paths=*) a="--accept-paths=^/none$";; esac; '
                                   'set -- "$@" "$a"; done')
            self.the_note(c, wrapper, "exec through it was refused: HTTP 403")


if __name__ == "__main__":
    unittest.main()
