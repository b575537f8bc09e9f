"""A hostile or unlucky environment: signals sent to the plugin while it probes, pods whose
strings carry terminal escapes and invalid UTF-8, secrets in values and flags.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 -m unittest -v test_plugin_hostile
"""
import glob
import json
import os
import re
import signal
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request

import harness
import schema_check  # tests/schema, on the path harness sets


def wait_for_sandbox_process(cluster, seconds=20):
    """True once some process runs inside a fake pod (the hanging exec has started)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cluster.sandbox_processes():
            return True
        time.sleep(0.05)
    return False


try:
    import yaml
except ImportError:  # PyYAML is optional: the YAML check then only looks at the bytes
    yaml = None

HOSTILE_ARGS = ["node", "--deployment", "hostile-strings"]
HOSTILE_SECRETS = [b"hunter2-userinfo", b"tok-access-0123", b"tok-plain-4567", b"tok-bearer-89ab",
                   b"hf_FAKEfakeFAKEfakeFAKEfake0123456789", b"ss-lastat-5150", b"dXNlcjpiYXNpYy02Ng",
                   b"pw-flag-7788", b"tok-flag-8899", b"pw-pair-9900", b"MIIpemBodySecret0001",
                   b"auth-suffix-1111", b"pass-suffix-2222", b"passwd-suffix-3333", b"cred-suffix-4444"]
# C0 controls but newline, DEL, and C1 controls as UTF-8 (U+0080..U+009F).
TERMINAL_ACTIVE = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
PREFILL_NODE = "h100-\u001b]52;c;cm0gLXJmIH4K\u0007node-\u009b2J-a"


def run_bytes(cluster, version, args):
    r = subprocess.run(["kubectl", "dynamo-icheck"] + args, env=cluster.env(version),
                       cwd=cluster.dir, capture_output=True, timeout=120)
    harness.check_report_output(args, r.stdout.decode("utf-8"))
    return r.returncode, r.stdout, r.stderr


class TestHostileStrings(unittest.TestCase):
    def assert_no_secret(self, data):
        for secret in HOSTILE_SECRETS:
            self.assertNotIn(secret, data)

    def test_terminal_outputs_carry_no_control_character(self):
        with harness.FakeCluster("hostile-strings") as c:
            for v in harness.KUBECTL_VERSIONS:
                for fmt in ("table", "wide"):
                    with self.subTest(kubectl=v, output=fmt):
                        rc, out, err = run_bytes(c, v, HOSTILE_ARGS + ["-o", fmt, "--color", "never"])
                        self.assertIn(rc, (1, 2), err)
                        for data in (out, err):
                            self.assertIsNone(TERMINAL_ACTIVE.search(data), data[:3000])
                            data.decode("utf-8")  # strict
                            self.assert_no_secret(data)
                        # the pods are alike: the default view's one table names no node, -o
                        # wide's tables name each; both show the GPU names, escaped
                        if fmt == "wide":
                            self.assertIn(b"node h100-\\x1b]52;c;cm0gLXJmIH4K\\x07node-\\u009b2J-a", out)
                        self.assertIn(b"NVIDIA H100\\x1b]0;owned\\x07 80GB", out)
                        verdict = [l for l in out.split(b"\n") if l.startswith(b"VERDICT")]
                        self.assertEqual(len(verdict), 1, out[-2000:])
                        # The newline inside UCX_TLS's value forges no second variable: the
                        # value may be shown, but only whole, its newline escaped.
                        self.assertNotIn(b"NIXL_INJECTED=forged",
                                         out.replace(b"cuda_copy\\nNIXL_INJECTED=forged", b""))

    def test_documents_stay_exact_and_valid(self):
        with harness.FakeCluster("hostile-strings") as c:
            for v in harness.KUBECTL_VERSIONS:
                with self.subTest(kubectl=v, output="json"):
                    rc, out, err = run_bytes(c, v, HOSTILE_ARGS + ["-o", "json"])
                    doc = json.loads(out)  # bytes: strict UTF-8, strict JSON
                    self.assert_no_secret(out + err)
                    prefill = [t for t in doc["targets"] if t["name"] == "hostile-strings-0-prefill"][0]
                    self.assertEqual(prefill["node"], PREFILL_NODE)  # exact, escapes and all
                    env = prefill["facts"]["transportEnv"]
                    self.assertEqual(env["UCX_TLS"], "rc_x,cuda_copy\nNIXL_INJECTED=forged")
                    self.assertNotIn("NIXL_INJECTED", env)
                    self.assertEqual(env["NIXL_ETCD_ENDPOINTS"], "http://***@etcd.dynamo:2379")
                    self.assertEqual(env["NCCL_DEBUG_FILE"], "/tmp/x?access_token=***&part=2")
                    self.assertEqual(env["NIXL_EXTRA"], "token=*** mode=rc")
                    self.assertEqual(env["NCCL_NET_PLUGIN_HEADER"], "Authorization: Bearer ***")
                    self.assertEqual(env["NCCL_PROXY_URL"], "http://***@proxy.dynamo:3128")
                    self.assertEqual(env["NIXL_AUTH_HEADER"], "Authorization: Basic ***")
                    self.assertEqual(env["NIXL_WORKER_ARGS"], "--password *** --token *** password=***")
                    self.assertEqual(env["NIXL_TLS_CA"],
                                     "-----BEGIN PRIVATE KEY-----***-----END PRIVATE KEY-----\n")
                    for name in ("NIXL_ETCD_AUTH", "UCX_PROXY_PASS", "NCCL_SMB_PASSWD", "NIXL_CLOUD_CREDENTIALS"):
                        self.assertEqual(env[name], "***")
                    gpus = [g["name"] for g in prefill["facts"]["gpus"]]
                    self.assertIn("NVIDIA H100\u001b]0;owned\u0007 80GB \u009b31m HBM3", gpus)
                    self.assertIn("NVIDIA H100\u001b]52;c;cm0gLXJmIH4K\u0007 \\xff\\xfe\\x9b2J", gpus)
                    # The hostile HCA has no uverbs node in the pod: it is listed as not allocated.
                    hcas = prefill["facts"]["hcas"] + prefill["facts"]["unallocatedHcas"]
                    names = json.dumps([h["name"] for h in hcas])
                    self.assertIn("mlx5_\\u001b]0;title\\u0007x", names)
                with self.subTest(kubectl=v, output="yaml"):
                    rc, yout, err = run_bytes(c, v, HOSTILE_ARGS + ["-o", "yaml"])
                    yout.decode("utf-8")
                    self.assert_no_secret(yout + err)
                    if yaml is not None:
                        self.assertEqual(yaml.safe_load(yout), doc)


class TestHostilePods(unittest.TestCase):
    def test_names_in_the_plugin_directory_forge_nothing_and_the_loader_has_one_budget(self):
        v = harness.KUBECTL_VERSIONS[-1]
        with harness.FakeCluster("nixl-hostile") as c:
            rc, out, err, _ = c.run_plugin(v, ["nixl", "--deployment", "nixl-hostile", "-o", "json"])
            doc = harness.json_doc(self, rc, out, err)
            d = {(t["name"], f["name"]): (f["status"], f["detail"]) for t in doc["targets"] for f in t["checks"]}
            # The file named with newlines spells no listing line: UCX still resolves.
            self.assertEqual(d[("nixl-hostile-0-prefill", "UCX plugin")],
                             ("ok", "libplugin_UCX.so in /opt/dynamo/nixl/plugins, its libraries resolve (ldd)"))
            self.assertEqual(d[("nixl-hostile-0-prefill", "install")],
                             ("ok", "NIXL plugins in /opt/dynamo/nixl/plugins (env): POSIX, UCX; 1 file there "
                                    "whose name holds a control character or a blank, not read"))
            # An existing directory without plugins is no install.
            self.assertEqual(d[("nixl-hostile-0-decode", "install")],
                             ("fail", "/proc (NIXL_PLUGIN_DIR) holds no NIXL plugin (libplugin_*.so): NIXL loads "
                                      "its backends only from there, so it has none"))
            # A loader that never answers costs one shared budget, not 5 s per plugin: the pod's
            # other NIXL facts stay, the plugins it did not reach are said as not checked.
            self.assertEqual(d[("nixl-hostile-1-decode", "UCX libraries")],
                             ("skipped", "libplugin_UCX.so was not listed by ldd (the listings' shared 10 s ran "
                                         "out before it)"))
            self.assertEqual(d[("nixl-hostile-1-decode", "install")][0], "ok")
            self.assertEqual(c.sandbox_processes_left(grace=10.0), [])


class TestStderr(unittest.TestCase):
    def test_error_messages_quote_outside_text_safely(self):
        bad = "/nonexistent/recipe\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J\xc2\x9b"
        r = subprocess.run([harness.plugin_path(), "env", bad.encode("latin-1")], capture_output=True,
                           timeout=60)
        self.assertEqual(r.returncode, 3)
        self.assertIn(b"/nonexistent/recipe\\x1b]52;c;cm0gLXJmIH4K\\x07\\x1b[2J\\u009b", r.stderr)
        self.assertIsNone(TERMINAL_ACTIVE.search(r.stderr), r.stderr)
        r = subprocess.run([harness.plugin_path(), "node", "--local", "--timeout", "x\x1b[2J"],
                           capture_output=True, timeout=60)
        self.assertEqual(r.returncode, 3)
        self.assertIsNone(TERMINAL_ACTIVE.search(r.stderr), r.stderr)


SURFACE_OK_RECIPE = os.path.join(harness.E2E_DIR, "..", "recipes", "deepseek-v4", "deepseek-v4-flash",
                                 "vllm", "disagg-h200-agentic")


def as_unprivileged():
    """Root reads everything: the unreadable cases run as nobody when the tests run as root."""
    if os.getuid() == 0:
        os.setgid(65534)
        os.setuid(65534)


class TestRecipeInput(unittest.TestCase):
    def test_unreadable_file_and_folder_are_could_not_check_and_the_walk_goes_on(self):
        d = tempfile.mkdtemp(prefix="icheck-recipe-")
        try:
            os.chmod(d, 0o755)
            manifest = [f for f in os.listdir(SURFACE_OK_RECIPE) if f.endswith(".yaml")][0]
            for rel in ("a-good.yaml", "b-unreadable.yaml", "c-locked/x.yaml", "d-later/z.yaml"):
                os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
                shutil.copy(os.path.join(SURFACE_OK_RECIPE, manifest), os.path.join(d, rel))
            for sub in ("c-locked", "d-later"):
                os.chmod(os.path.join(d, sub), 0o755)
            os.chmod(os.path.join(d, "b-unreadable.yaml"), 0)
            os.chmod(os.path.join(d, "c-locked"), 0)
            r = subprocess.run([harness.plugin_path(), "env", d, "--recursive", "-o", "json"],
                               capture_output=True, timeout=60, preexec_fn=as_unprivileged)
            doc = schema_check.check_report(r.stdout.decode("utf-8"))
            names = {t["name"]: t["checks"] for t in doc["targets"]}
            self.assertIn("d-later/z.yaml", names)  # the walk went on past the locked folder
            self.assertEqual(names["b-unreadable.yaml"][0]["status"], "skipped")
            self.assertIn("could not check: b-unreadable.yaml: cannot be read (Permission denied)",
                          names["b-unreadable.yaml"][0]["detail"])
            self.assertIn("c-locked/", names)
            self.assertIn("folder cannot be read", names["c-locked/"][0]["detail"])
            self.assertNotEqual(doc["verdict"]["status"], "surface-ok")
            self.assertEqual(r.returncode, 1, r.stderr)
            # Alone, the same manifest is surface-ok: the unreadable entries made the difference.
            r = subprocess.run([harness.plugin_path(), "env", os.path.join(d, "a-good.yaml")],
                               capture_output=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stdout)
        finally:
            for root, dirs, _ in os.walk(d):
                for sub in dirs:
                    os.chmod(os.path.join(root, sub), 0o755)
            os.chmod(os.path.join(d, "c-locked"), 0o755)
            shutil.rmtree(d, ignore_errors=True)

    def test_fifo_and_dev_zero_do_not_block(self):
        d = tempfile.mkdtemp(prefix="icheck-recipe-")
        try:
            os.mkfifo(os.path.join(d, "deploy.yaml"))
            r = subprocess.run([harness.plugin_path(), "env", d], capture_output=True, timeout=30)
            self.assertEqual(r.returncode, 3)
            self.assertIn(b"deploy.yaml: not a regular file (a FIFO)", r.stderr)
            r = subprocess.run([harness.plugin_path(), "env", "/dev/zero"], capture_output=True, timeout=30)
            self.assertEqual(r.returncode, 3)
            self.assertIn(b"/dev/zero: not a regular file (a character device)", r.stderr)
        finally:
            shutil.rmtree(d, ignore_errors=True)


class TestCredentialFlags(unittest.TestCase):
    def test_printed_commands_never_carry_a_credential_children_still_get_it(self):
        token = "sekret-token-e2e-5150"
        with harness.FakeCluster("nixl-perftest") as c:
            argv_log = os.path.join(c.dir, "kubectl-argv.log")
            wrapper = os.path.join(c.dir, "kubectl-logging")
            with open(wrapper, "w") as f:  # records each child's argv, then runs kubectl
                f.write('#!/bin/sh\nprintf "%%s\\n" "$*" >> %s\nexec kubectl "$@"\n' % argv_log)
            os.chmod(wrapper, 0o755)
            for v in harness.KUBECTL_VERSIONS:
                for fmt in ("json", "table", "yaml"):
                    with self.subTest(kubectl=v, output=fmt):
                        rc, out, err, _ = c.run_plugin(
                            v, ["nixl", "--deployment", "nixl-perftest", "-o", fmt, "--token=" + token,
                                "--client-key=/nonexistent/u.key"],
                            env={"DYNAMO_ICHECK_KUBECTL": wrapper})
                        self.assertIn("exec nixl-perftest-0-decode -n dynamo", out, err)
                        self.assertIn("--context=fake", out)
                        self.assertNotIn(token, out + err)
                        self.assertNotIn("u.key", out + err)
                        self.assertNotIn("--token", out + err)
            with open(argv_log) as f:
                children = f.read()
            self.assertIn("--token=" + token, children)  # the children were given it


class TestReadOnlyProof(unittest.TestCase):
    def test_a_write_in_the_request_log_fails_the_test_that_caused_it(self):
        with self.assertRaises(AssertionError) as caught:
            with harness.FakeCluster("healthy-h100-ib") as c:
                req = urllib.request.Request("http://127.0.0.1:%d/api/v1/namespaces/dynamo/pods/x" % c.port,
                                             method="DELETE")
                with self.assertRaises(urllib.error.HTTPError):  # refused with 405, but logged
                    urllib.request.urlopen(req)
        self.assertIn("DELETE", str(caught.exception))


def plugin_processes_left(cluster, grace=5.0):
    """PIDs still running with the cluster's KUBECONFIG in their environment (the plugin's kubectl
    children, its kubectl proxy and the shell that watches it), after `grace` seconds to go."""
    needle = ("KUBECONFIG=" + cluster.kubeconfig).encode()
    deadline = time.monotonic() + grace
    while True:
        left = []
        for d in glob.glob("/proc/[0-9]*"):
            try:
                with open(d + "/environ", "rb") as f:
                    if needle in f.read().split(b"\0"):
                        left.append(int(d[6:]))
            except OSError:
                continue
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


class TestSignals(unittest.TestCase):
    def interrupt(self, cluster, version, sig, extra=()):
        args = ["kubectl", "dynamo-icheck", "node", "--deployment", "interrupt-hang",
                "--timeout", "120s"] + list(extra)
        # Its own session: the signal goes to the plugin's process group, as a terminal's
        # Ctrl-C would; the kubectl exec children sit in groups of their own.
        proc = subprocess.Popen(args, env=cluster.env(version), cwd=cluster.dir,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            self.assertTrue(wait_for_sandbox_process(cluster), "the hanging exec never started")
            time.sleep(0.5)  # the prefill pod's probe is done by now
            t0 = time.monotonic()
            os.killpg(proc.pid, sig)
            out, err = proc.communicate(timeout=20)
            return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"), \
                time.monotonic() - t0
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    def test_sigint_and_sigterm_end_children_and_report_what_was_gathered(self):
        with harness.FakeCluster("interrupt-hang") as c:
            for v in harness.KUBECTL_VERSIONS:
                for sig, rc_want, name in ((signal.SIGINT, 130, "SIGINT"),
                                           (signal.SIGTERM, 143, "SIGTERM")):
                    with self.subTest(kubectl=v, signal=name):
                        rc, out, err, secs = self.interrupt(c, v, sig)
                        self.assertEqual(rc, rc_want, out + err)
                        self.assertLess(secs, 10)
                        self.assertIn("interrupt-hang-0-prefill", out)
                        self.assertIn("interrupted by %s before the probe of this pod finished" % name, out)
                        self.assertIn("interrupted by %s: only what was gathered before it is shown" % name, out)
                        self.assertEqual(c.sandbox_processes_left(), [])
                with self.subTest(kubectl=v, output="json"):
                    rc, out, err, _ = self.interrupt(c, v, signal.SIGINT, ["-o", "json"])
                    doc = harness.json_doc(self, rc, out, err)
                    self.assertEqual(rc, 130)
                    self.assertEqual(doc["verdict"]["status"], "interrupted")
                    self.assertIn("interrupted by SIGINT: only what was gathered before it is shown",
                                  doc["verdict"]["limitations"])
                    self.assertEqual(c.sandbox_processes_left(), [])
            self.assertEqual(harness.only_reads(c.request_log()), [])

    def test_a_second_signal_stops_at_once_and_still_prints_one_report(self):
        # Two Ctrl-Cs while the run is stopping (its kubectl children ignore SIGTERM, so they get
        # SIGKILL after the grace): the second ends the run at once, and stdout still holds
        # exactly one Report (the run's, or the one the second signal prints), never nothing.
        v = harness.KUBECTL_VERSIONS[-1]
        with harness.FakeCluster("interrupt-hang") as c:
            deaf = os.path.join(c.dir, "kubectl-deaf")
            with open(deaf, "w") as f:
                f.write("#!/bin/sh\n# synthetic: a kubectl exec that outlives SIGTERM for a while\n"
                        "for a; do [ \"$a\" = exec ] && is_exec=1; done\n"
                        "[ -n \"$is_exec\" ] || exec kubectl \"$@\"\n"
                        "trap '' TERM INT\nkubectl \"$@\"\nrc=$?\nsleep 30\nexit $rc\n")
            os.chmod(deaf, 0o755)
            for fmt in ("json", "yaml"):
                with self.subTest(output=fmt):
                    proc = subprocess.Popen(["kubectl", "dynamo-icheck", "node", "--deployment", "interrupt-hang",
                                             "--timeout", "120s", "-o", fmt, "--transport", "kubectl"],
                                            env=c.env(v, {"DYNAMO_ICHECK_KUBECTL": deaf}), cwd=c.dir,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                            start_new_session=True)
                    try:
                        self.assertTrue(wait_for_sandbox_process(c), "the hanging exec never started")
                        os.killpg(proc.pid, signal.SIGINT)
                        time.sleep(0.05)  # two at once would merge into one pending signal
                        os.killpg(proc.pid, signal.SIGINT)
                        out, err = proc.communicate(timeout=20)
                    finally:
                        if proc.poll() is None:
                            os.killpg(proc.pid, signal.SIGKILL)
                            proc.wait()
                    self.assertEqual(proc.returncode, 130, err)
                    text = out.decode("utf-8")
                    self.assertTrue(text.strip(), err)
                    harness.check_report_output(["-o", fmt], text)
                    doc = json.loads(text) if fmt == "json" else (yaml.safe_load(text) if yaml else None)
                    if doc is not None:
                        self.assertEqual(doc["verdict"]["status"], "interrupted")
                    self.assertEqual(c.sandbox_processes_left(), [])
                    self.assertEqual(plugin_processes_left(c, grace=10.0), [])
            self.assertEqual(harness.only_reads(c.request_log()), [])

    def test_sighup_and_sigquit_are_interrupts_too(self):
        # A closed terminal or a lost ssh session: the children and the probes they started in
        # the pods end, what was gathered is printed (one YAML Report), exit 128 + signal.
        v = harness.KUBECTL_VERSIONS[-1]
        with harness.FakeCluster("interrupt-hang") as c:
            for sig, rc_want in ((signal.SIGHUP, 129), (signal.SIGQUIT, 131)):
                with self.subTest(signal=sig.name):
                    rc, out, err, secs = self.interrupt(c, v, sig, ["-o", "yaml"])
                    self.assertEqual(rc, rc_want, out + err)
                    self.assertLess(secs, 60)  # a hang bound, well before --timeout 120s
                    self.assertEqual(c.sandbox_processes_left(), [])
                    self.assertEqual(plugin_processes_left(c), [])
                    if yaml is None:
                        continue
                    doc = yaml.safe_load(out)
                    self.assertEqual(doc["verdict"]["status"], "interrupted")
                    names = [t["name"] for t in doc["targets"]]
                    self.assertIn("interrupt-hang-0-prefill", names)
                    self.assertIn("interrupted by %s: only what was gathered before it is shown"
                                  % sig.name, doc["verdict"]["limitations"])
            self.assertEqual(harness.only_reads(c.request_log()), [])


class TestReportOnError(unittest.TestCase):
    def test_no_such_deployment_is_one_report_with_exit_3(self):
        v = harness.KUBECTL_VERSIONS[-1]
        with harness.FakeCluster("healthy-h100-ib") as c:
            for fmt in ("json", "yaml"):
                with self.subTest(output=fmt):
                    rc, out, err, _ = c.run_plugin(v, ["nixl", "--deployment", "no-such-dgd", "-o", fmt])
                    self.assertEqual(rc, 3, err)
                    doc = json.loads(out) if fmt == "json" else (yaml.safe_load(out) if yaml else None)
                    if doc is None:
                        continue
                    self.assertEqual(doc["verdict"]["status"], "error")
                    self.assertEqual(doc["targets"], [])
                    self.assertIn("no Dynamo worker pods found for deployment no-such-dgd",
                                  doc["errors"][0])


class TestBadEnvironment(unittest.TestCase):
    def test_an_unknown_transport_in_the_environment_is_one_error_report(self):
        v = harness.KUBECTL_VERSIONS[-1]
        with harness.FakeCluster("healthy-h100-ib") as c:
            for fmt in ("json", "yaml"):
                with self.subTest(output=fmt):
                    r = subprocess.run(["kubectl", "dynamo-icheck", "node", "-o", fmt],
                                       env=c.env(v, {"DYNAMO_ICHECK_TRANSPORT": "bogus"}), cwd=c.dir,
                                       capture_output=True, text=True, timeout=60)
                    self.assertEqual(r.returncode, 3, r.stderr)
                    self.assertIn("invalid DYNAMO_ICHECK_TRANSPORT: use proxy or kubectl", r.stderr)
                    self.assertTrue(r.stdout.strip(), r.stderr)
                    harness.check_report_output(["-o", fmt], r.stdout)
                    doc = json.loads(r.stdout) if fmt == "json" else (yaml.safe_load(r.stdout) if yaml else None)
                    if doc is not None:
                        self.assertEqual(doc["verdict"]["status"], "error")
                        self.assertEqual(doc["errors"], ["invalid DYNAMO_ICHECK_TRANSPORT: use proxy or kubectl"])
            r = subprocess.run(["kubectl", "dynamo-icheck", "node"], capture_output=True, text=True, timeout=60,
                               env=c.env(v, {"DYNAMO_ICHECK_TRANSPORT": "bogus"}), cwd=c.dir)
            self.assertEqual((r.returncode, r.stdout), (3, ""), r.stderr)
            self.assertEqual(c.request_log(), [])  # nothing was asked of the cluster


class TestProbeDeadline(unittest.TestCase):
    def test_the_probe_ends_in_the_pod_when_the_exec_is_gone(self):
        # The probe hangs on a read in the pod; the plugin gives up at --timeout 2s and kills its
        # kubectl, the pod keeps the command (keep_on_disconnect). Its own watchdog (2 s from its
        # start) must end it: without one it stays in the pod for good.
        with harness.FakeCluster("probe-outlives-exec") as c:
            v = harness.KUBECTL_VERSIONS[-1]
            r = subprocess.run(["kubectl", "dynamo-icheck", "node", "--deployment", "probe-outlives",
                                "--timeout", "2s"], env=c.env(v), cwd=c.dir, capture_output=True,
                               text=True, timeout=60)
            self.assertIn("probe-outlives-0-decode", r.stdout, r.stderr)
            self.assertNotEqual(r.returncode, 0, r.stdout)
            self.assertEqual(c.sandbox_processes_left(grace=10.0), [])
            self.assertEqual(harness.only_reads(c.request_log()), [])


if __name__ == "__main__":
    unittest.main()
