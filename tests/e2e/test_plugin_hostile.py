"""A hostile or unlucky environment: signals sent to the plugin while it probes, pods whose
strings carry terminal escapes and invalid UTF-8, secrets in values and flags.
Run: cd tests/e2e && ICHECK_PLUGIN=../../build/kubectl-dynamo_icheck python3 -m unittest -v test_plugin_hostile
"""
import os
import signal
import subprocess
import time
import unittest

import harness


def wait_for_sandbox_process(cluster, seconds=20):
    """True once some process runs inside a fake pod (the hanging exec has started)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cluster.sandbox_processes():
            return True
        time.sleep(0.05)
    return False


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
                    self.assertNotIn(doc["verdict"]["status"], ("surface-ok", "confirmed"))
                    self.assertIn("interrupted by SIGINT: only what was gathered before it is shown",
                                  doc["verdict"]["limitations"])
                    self.assertEqual(c.sandbox_processes_left(), [])
            self.assertEqual(harness.only_reads(c.request_log()), [])


if __name__ == "__main__":
    unittest.main()
