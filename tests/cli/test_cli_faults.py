"""Promises under faults, without a cluster: kubeconfig files that would block or flood, signals
before any child exists (SIGINT, SIGTERM, SIGHUP, SIGQUIT), manifests of countless documents,
and one parseable Report on stdout with -o json/yaml on every exit (error and interrupted).

A hang is caught by the subprocess timeout (60 s); nothing here measures how long a run takes.
Speed and memory figures are in bench/faults_inputs.py.
"""
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import unittest

import yaml

from test_cli import PLUGIN, recipe

HANG_BOUND = 60  # seconds: a blocked read would never end; a refused one ends at once
DISAGG = recipe("deepseek-v4", "deepseek-v4-flash", "vllm", "disagg-h200-agentic")
GOOD_KUBECONFIG = """\
apiVersion: v1
kind: Config
current-context: gone
clusters:
- name: gone
  cluster: {server: "http://127.0.0.1:1"}
contexts:
- name: gone
  context: {cluster: gone, user: u, namespace: dynamo}
users:
- name: u
  user: {token: not-a-secret-worth-keeping}
"""


def run(args, env=None, pending=None, ignore=None):
    """The plugin with `env` on top of a clean environment. `pending`: a signal raised in the
    child before exec and kept blocked, so it arrives the moment the plugin unblocks it (before
    anything is read or started). `ignore`: a signal left ignored, as nohup leaves SIGHUP."""
    e = {k: v for k, v in os.environ.items() if k not in ("KUBECONFIG", "NO_COLOR")}
    e.update(env or {})

    def before_exec():
        if ignore is not None:
            signal.signal(ignore, signal.SIG_IGN)
        if pending is not None:
            signal.pthread_sigmask(signal.SIG_BLOCK, {pending})
            os.kill(os.getpid(), pending)

    p = subprocess.run([PLUGIN, *args], capture_output=True, text=True, env=e, timeout=HANG_BOUND,
                       preexec_fn=before_exec)
    return p.returncode, p.stdout, p.stderr


@contextlib.contextmanager
def good_kubeconfig():
    """A readable kubeconfig whose cluster does not answer (port 1)."""
    with tempfile.NamedTemporaryFile("w", suffix=".kubeconfig") as k:
        k.write(GOOD_KUBECONFIG)
        k.flush()
        yield k


def report(fmt, out):
    """The one document stdout must hold; fails the test when it is not exactly one Report."""
    doc = json.loads(out) if fmt == "json" else yaml.safe_load(out)
    assert doc["apiVersion"] == "dynamo-icheck/v1" and doc["kind"] == "Report", out[:500]
    return doc


class SpecialFiles:
    """Scratch files that are not plain kubeconfigs: a FIFO, a folder, a 20 GiB sparse file."""

    def __enter__(self):
        self.dir = tempfile.mkdtemp()
        self.fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(self.fifo)
        self.folder = os.path.join(self.dir, "folder")
        os.mkdir(self.folder)
        self.huge = os.path.join(self.dir, "huge")
        with open(self.huge, "wb") as f:
            f.truncate(20 << 30)  # sparse: no disk
        self.cases = (("/dev/zero", "not a regular file (a character device)"),
                      (self.fifo, "not a regular file (a FIFO)"),
                      (self.folder, "not a regular file (a folder)"),
                      (self.huge, "larger than the 16 MiB a kubeconfig may be (20480 MiB)"))
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir)


class KubeconfigIsInput(unittest.TestCase):
    def test_special_files_by_flag_and_by_variable_end_with_exit_3_naming_the_file(self):
        with SpecialFiles() as files:
            for path, why in files.cases:
                for how in ("flag", "KUBECONFIG"):
                    with self.subTest(path=path, given=how):
                        args, env = ["node"], {}
                        if how == "flag":
                            args += ["--kubeconfig", path]
                        else:
                            env["KUBECONFIG"] = "/nonexistent/first:" + path
                        rc, out, err = run(args, env)
                        self.assertEqual(rc, 3, err)
                        self.assertEqual(out, "")
                        self.assertEqual(err, 'error: error loading config file "%s": %s\n' % (path, why))

    def test_special_files_give_one_report_in_json_and_yaml(self):
        with SpecialFiles() as files:
            for path, why in files.cases:
                for fmt in ("json", "yaml"):
                    with self.subTest(path=path, output=fmt):
                        rc, out, err = run(["nixl", "--kubeconfig", path, "-o", fmt])
                        self.assertEqual(rc, 3, err)
                        doc = report(fmt, out)
                        self.assertEqual(doc["verdict"]["status"], "error")
                        self.assertEqual(doc["errors"], ['error loading config file "%s": %s' % (path, why)])
                        self.assertEqual(doc["targets"], [])
                        self.assertEqual(doc["mode"], "nixl")

    def test_a_good_file_next_to_them_is_still_read(self):
        # The healthy twin: the same run with a readable kubeconfig gets past loading (to kubectl).
        with good_kubeconfig() as k:
            rc, out, err = run(["node", "-o", "json"], {"KUBECONFIG": k.name,
                                                        "DYNAMO_ICHECK_KUBECTL": "/nonexistent/kubectl"})
        self.assertEqual(rc, 3, err)
        doc = report("json", out)
        self.assertEqual(doc["context"], "")  # nothing was listed, so no target and no context
        self.assertIn('could not run "/nonexistent/kubectl"', doc["errors"][0])


class ReportOnEveryExit(unittest.TestCase):
    def test_bad_recipe_is_one_report(self):
        for args in (["env", "/nonexistent/recipe"], ["all", "/nonexistent/recipe"],
                     ["node", "--recipe", "/nonexistent/recipe"]):
            for fmt in ("json", "yaml"):
                with self.subTest(args=args, output=fmt):
                    rc, out, err = run(args + ["-o", fmt])
                    self.assertEqual(rc, 3, err)
                    doc = report(fmt, out)
                    self.assertEqual(doc["verdict"]["status"], "error")
                    self.assertIn("/nonexistent/recipe", doc["errors"][-1])
                    self.assertIn("/nonexistent/recipe", err)  # stderr still says it

    @unittest.skipUnless(shutil.which("kubectl"), "no kubectl on PATH")
    def test_unreachable_cluster_keeps_the_recipe_targets_gathered_before(self):
        with good_kubeconfig() as k:
            for fmt in ("json", "yaml"):
                with self.subTest(output=fmt):
                    rc, out, err = run(["all", DISAGG, "--kubeconfig", k.name, "--timeout", "20s",
                                        "-o", fmt])
                    self.assertEqual(rc, 3, err)
                    doc = report(fmt, out)
                    self.assertEqual(doc["verdict"]["status"], "error")
                    self.assertTrue(doc["targets"], "the recipe's targets were gathered first")
                    self.assertTrue(all(t["kind"] == "manifest" for t in doc["targets"]))
                    self.assertIn("127.0.0.1:1", doc["verdict"]["summary"])
                    self.assertNotIn("not-a-secret-worth-keeping", out + err)

    def test_the_table_stays_text_on_stderr(self):
        rc, out, err = run(["node", "--kubeconfig", "/dev/zero"])
        self.assertEqual((rc, out), (3, ""))
        self.assertIn('"/dev/zero"', err)


class SignalsBeforeAnyChild(unittest.TestCase):
    def test_each_interrupt_pending_at_start_ends_the_run_with_128_plus_signal(self):
        for sig, rc_want in ((signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129),
                             (signal.SIGQUIT, 131)):
            with self.subTest(signal=sig.name):
                rc, out, err = run(["env", DISAGG], pending=sig)
                self.assertEqual(rc, rc_want, out + err)
                self.assertIn("VERDICT  interrupted  by %s" % sig.name, out)
                self.assertIn("interrupted by %s: only what was gathered before it is shown" % sig.name, out)

    def test_interrupted_json_and_yaml_carry_what_was_gathered(self):
        for fmt in ("json", "yaml"):
            with self.subTest(output=fmt):
                rc, out, err = run(["env", DISAGG, "-o", fmt], pending=signal.SIGINT)
                self.assertEqual(rc, 130, err)
                doc = report(fmt, out)
                self.assertEqual(doc["verdict"]["status"], "interrupted")
                self.assertTrue(doc["targets"])
                self.assertIn("so far: surface-ok", doc["verdict"]["summary"])

    def test_interrupt_before_kubectl_starts_none_and_is_one_report(self):
        # Pending SIGTERM: the kubeconfig is read, then no kubectl may start (it does not exist:
        # starting it would say "could not run").
        with good_kubeconfig() as k:
            for fmt in ("json", "yaml"):
                with self.subTest(output=fmt):
                    rc, out, err = run(["node", "--kubeconfig", k.name, "-o", fmt],
                                       {"DYNAMO_ICHECK_KUBECTL": "/nonexistent/kubectl"},
                                       pending=signal.SIGTERM)
                    self.assertEqual(rc, 143, err)
                    doc = report(fmt, out)
                    self.assertEqual(doc["verdict"]["status"], "interrupted")
                    self.assertEqual(doc["errors"], ["interrupted before kubectl get pods finished"])

    def test_the_same_run_without_a_signal_is_not_interrupted(self):
        rc, out, _ = run(["env", DISAGG, "-o", "json"])
        self.assertEqual(rc, 0)
        self.assertEqual(report("json", out)["verdict"]["status"], "surface-ok")

    def test_nohup_keeps_sighup_ignored(self):
        rc, out, err = run(["env", DISAGG, "-o", "json"], ignore=signal.SIGHUP, pending=signal.SIGHUP)
        self.assertEqual(rc, 0, err)
        self.assertEqual(report("json", out)["verdict"]["status"], "surface-ok")


class BoundedYaml(unittest.TestCase):
    def manifest(self, text):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        path = os.path.join(d, "many.yaml")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_four_million_empty_documents_are_one_short_error(self):
        path = self.manifest("---\n" * ((16 << 20) // 4 - 1))  # just under the 16 MiB cap
        rc, out, err = run(["env", path])
        self.assertEqual((rc, out), (3, ""))
        self.assertIn("many.yaml:10001: more than 10000 YAML documents", err)
        self.assertLess(len(err), 500)
        rc, out, err = run(["env", path, "-o", "json"])
        self.assertEqual(rc, 3)
        self.assertEqual(report("json", out)["verdict"]["status"], "error")

    def test_a_2_6_mb_file_of_tiny_documents_prints_a_short_error(self):
        path = self.manifest("a: 1\n---\n" * 300000)
        rc, out, err = run(["env", path])
        self.assertEqual(rc, 3)
        self.assertLess(len(out + err), 500)

    def test_tiny_documents_within_the_cap_name_ten_and_how_many_more(self):
        path = self.manifest("a: 1\n---\n" * 5000)
        rc, out, err = run(["env", path])
        self.assertEqual(rc, 3)
        self.assertIn("(no kind)/ and 4990 more", err)
        self.assertLess(len(err), 500)

    def test_a_few_documents_still_read(self):
        with open(os.path.join(DISAGG, "deploy.yaml")) as f:
            path = self.manifest("---\n" * 100 + f.read())
        rc, out, err = run(["env", path, "-o", "json"])
        self.assertIn(rc, (0, 1, 2), err)
        self.assertTrue(report("json", out)["targets"])


if __name__ == "__main__":
    unittest.main()
