"""Test bed: a fake API server per scenario and the real kubectl binaries pointed at it.

    with FakeCluster("healthy-h100-ib") as c:
        rc, out, err, secs = c.kubectl("1.31", ["get", "pods", "-o", "json"])
        rc, out, err, secs = c.run_plugin("1.32", ["node", "--deployment", "llama-70b-disagg"])
        c.request_log()        # [{"method", "path", "query", "ua", ...}, ...]
        c.sandbox_processes()  # PIDs still running inside any fake pod's root
        c.sandbox_processes_left()  # "PID: argv" of those still there after 2 s to go
    # Leaving the `with` block fails the test if the request log holds anything but reads
    # and exec (only_reads below).

Each FakeCluster has its own
temp dir with: kubeconfig (cluster http://127.0.0.1:PORT, context "fake" with namespace
"dynamo"), HOME, KUBECACHEDIR, and bin/ where `kubectl` links to the versioned binary and
`kubectl-dynamo_icheck` to the built plugin (ICHECK_PLUGIN env or plugin= argument).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

E2E_DIR = os.path.dirname(os.path.abspath(__file__))
# kubectl >= 1.26 runs it for `kubectl __complete dynamo-icheck ...`; it runs the plugin on PATH.
COMPLETION_HELPER = os.path.join(E2E_DIR, "..", "..", "plugin", "kubectl_complete-dynamo_icheck")
sys.path.insert(0, E2E_DIR)
sys.path.insert(0, os.path.join(os.path.dirname(E2E_DIR), "schema"))
import schema_check  # noqa: E402
import kubectl_finder  # noqa: E402
from fakeapi import sandbox as _sandbox  # noqa: E402

# The kubectl labels the tests loop over: the versioned binaries found, else the one on PATH.
KUBECTL_VERSIONS = [k.label for k in kubectl_finder.available()]


def transport():
    """The plugin's exec transport for this test run (run.py --transport); "" for its default."""
    return os.environ.get("ICHECK_E2E_TRANSPORT", "")


def kubectl_binary(version):
    return kubectl_finder.path_for(version)


def skip_reason():
    """Why the e2e bed cannot run on this machine (no kubectl, no root, no mount namespaces),
    or None. Checked before any test, so a missing piece is a skip with its reason."""
    if not kubectl_finder.available():
        return kubectl_finder.none_reason()
    try:
        _sandbox.check_host()
    except _sandbox.SandboxError as e:
        return str(e)
    return None


def plugin_path(plugin=None):
    p = plugin or os.environ.get("ICHECK_PLUGIN")
    if not p:
        raise RuntimeError("set ICHECK_PLUGIN to the built kubectl-dynamo_icheck (CTest passes it)")
    return os.path.abspath(p)


class FakeCluster:
    def __init__(self, scenario, namespace="dynamo", plugin=None, keep=False, rbac=None,
                 server_env=None):
        self.scenario = scenario
        self.server_env = server_env  # added to the fake API server's environment
        self.rbac = rbac  # a Role YAML the server enforces (fakeapi --rbac), or None
        self.namespace = namespace
        self.plugin = plugin
        self.keep = keep
        self.proc = None
        self.port = None
        self._bin_lock = threading.Lock()

    # -- lifecycle --
    def start(self, timeout=30):
        self.dir = tempfile.mkdtemp(prefix="icheck-e2e-")
        self.workdir = os.path.join(self.dir, "server")
        self.log_path = os.path.join(self.dir, "requests.jsonl")
        port_file = os.path.join(self.dir, "port")
        open(self.log_path, "w").close()
        t0 = time.monotonic()
        self.server_out = open(os.path.join(self.dir, "server.log"), "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fakeapi", "--scenario", self.scenario, "--port-file", port_file,
             "--request-log", self.log_path, "--workdir", self.workdir]
            + (["--rbac", os.path.abspath(self.rbac)] if self.rbac else []),
            cwd=E2E_DIR, stdout=self.server_out, stderr=subprocess.STDOUT, start_new_session=True,
            env=dict(os.environ, **(self.server_env or {})))
        while not os.path.exists(port_file):
            if self.proc.poll() is not None:
                raise RuntimeError("fake API server exited %d:\n%s" % (self.proc.returncode, self.server_log()))
            if time.monotonic() - t0 > timeout:
                self.stop()
                raise RuntimeError("fake API server did not start in %ds" % timeout)
            time.sleep(0.02)
        with open(port_file) as f:
            self.port = int(f.read())
        self.start_seconds = time.monotonic() - t0
        self.home = os.path.join(self.dir, "home")
        self.cache = os.path.join(self.dir, "kubecache")
        os.makedirs(self.home)
        self.kubeconfig = os.path.join(self.dir, "kubeconfig")
        self.write_kubeconfig(self.kubeconfig, self.namespace)
        return self

    def write_kubeconfig(self, path, namespace, context="fake"):
        with open(path, "w") as f:
            f.write("apiVersion: v1\nkind: Config\n"
                    "clusters:\n- name: fake\n  cluster:\n    server: http://127.0.0.1:%d\n"
                    "users:\n- name: tester\n  user:\n    token: fake-token\n"
                    "contexts:\n- name: %s\n  context:\n    cluster: fake\n    user: tester\n"
                    "    namespace: %s\ncurrent-context: %s\n" % (self.port, context, namespace, context))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.proc:
            self.server_out.close()
        if not self.keep and getattr(self, "dir", None):
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, exc_type, *exc):
        # Read-only proof for the whole suite: every cluster a test opens with `with` must
        # have seen only reads and exec, whatever the test itself asserted.
        writes = only_reads(self.request_log()) if exc_type is None and self.proc else []
        self.stop()
        if writes:
            raise AssertionError("requests other than reads and exec: %s" % writes[:5])

    def server_log(self):
        with open(os.path.join(self.dir, "server.log")) as f:
            return f.read()

    # -- running things --
    def bin_dir(self, version):
        d = os.path.join(self.dir, "bin-" + version)
        with self._bin_lock:  # tests call kubectl from several threads at once
            if not os.path.isdir(d):
                os.makedirs(d)
                os.symlink(kubectl_binary(version), os.path.join(d, "kubectl"))
                os.symlink(COMPLETION_HELPER, os.path.join(d, os.path.basename(COMPLETION_HELPER)))
                try:
                    os.symlink(plugin_path(self.plugin), os.path.join(d, "kubectl-dynamo_icheck"))
                except RuntimeError:
                    pass  # kubectl-only tests do not need the plugin
        return d

    def env(self, version, extra=None):
        env = {"PATH": self.bin_dir(version) + ":/usr/bin:/bin", "HOME": self.home,
               "KUBECONFIG": self.kubeconfig, "KUBECACHEDIR": self.cache, "LANG": "C.UTF-8"}
        if transport():
            env["DYNAMO_ICHECK_TRANSPORT"] = transport()
        env.update(extra or {})
        return env

    def run(self, argv, version="1.31", env=None, timeout=120, input=None):
        """Run argv (argv[0] looked up in the per-test PATH) -> (rc, stdout, stderr, seconds)."""
        t0 = time.monotonic()
        r = subprocess.run(argv, env=self.env(version, env), cwd=self.dir, capture_output=True,
                           text=True, errors="replace", timeout=timeout, input=input)
        return r.returncode, r.stdout, r.stderr, time.monotonic() - t0

    def kubectl(self, version, args, **kw):
        return self.run(["kubectl"] + list(args), version=version, **kw)

    def run_plugin(self, version, args, **kw):
        """`kubectl dynamo-icheck ARGS` through kubectl's plugin dispatch. A -o json / -o yaml
        report on stdout is validated against docs/report-v1.schema.json on the way."""
        result = self.run(["kubectl", "dynamo-icheck"] + list(args), version=version, **kw)
        check_report_output(args, result[1])
        return result

    def request_log(self):
        with open(self.log_path) as f:
            return [json.loads(line) for line in f if line.strip()]

    def sandbox_processes(self):
        return _sandbox.processes_in(self.workdir)

    def sandbox_processes_left(self, grace=10.0):
        """sandbox_processes() once they had up to `grace` seconds to go (a hang bound: it returns as
        soon as none is left): the fake API server kills an
        exec's processes when it sees the client's connection close, a moment after the client
        (kubectl, or the plugin killing it) has exited."""
        deadline = time.monotonic() + grace
        left = self.sandbox_processes()
        while left and time.monotonic() < deadline:
            time.sleep(0.05)
            left = self.sandbox_processes()
        return [_sandbox.describe(pid) for pid in left]


# The plugin's report, read back by the tests.
OK, WARN, FAIL, SKIP = "ok", "warn", "fail", "skipped"
VERDICT_RC = {"surface-ok": 0, "confirmed": 0, "unconfirmed": 1, "blocked": 2, "error": 3}


def check_report_output(args, out):
    """Every JSON or YAML report a test makes follows the schema; nothing printed, nothing to
    check (a run that stopped before its report, e.g. on a usage error)."""
    fmt = schema_check.output_format(args)
    if fmt and out.strip():
        schema_check.check_report(out, fmt)


def json_doc(test, rc, out, err):
    """The -o json document, checked against the schema, or the test fails showing what came
    instead."""
    try:
        doc = json.loads(out)
    except ValueError:
        test.fail("not JSON (rc %s):\n%s\n%s" % (rc, out[:2000], err[-2000:]))
    problems = schema_check.errors(doc)
    if problems:
        test.fail("the report does not follow docs/report-v1.schema.json:\n  " + "\n  ".join(problems[:20]))
    return doc


def details(doc):
    """{(pod, check name): detail} over every target."""
    return {(t["name"], c["name"]): c["detail"] for t in doc["targets"] for c in t["checks"]}


def only_reads(log):
    """Requests that are neither a GET nor the SPDY fallback POST of an exec (which kubectl sends
    after a refused WebSocket upgrade, e.g. a 403). Empty means the client never tried to write."""
    return [r for r in log if not (r["method"] == "GET" or
                                  (r["method"] == "POST" and r["path"].endswith("/exec")))]
