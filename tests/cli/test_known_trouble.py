"""Known trouble as data in recipes (issue 28): `env` applies the rows of src/knowledge/data/ to
each service's manifest facts (its env, command line, engine config). A recipe that sets a value
a row knows to break warns or fails in the row's layer with its first source; the same recipe
with the fix does not."""
import os
import subprocess
import sys
import unittest

PLUGIN = os.environ.get("ICHECK_PLUGIN", "build/kubectl-dynamo_icheck")
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KNOWN = os.path.join(TESTS, "fixtures", "recipe", "known-trouble")
sys.path.insert(0, os.path.join(TESTS, "schema"))
import schema_check  # noqa: E402


def env_report(name):
    p = subprocess.run([PLUGIN, "env", os.path.join(KNOWN, name), "-o", "json"], capture_output=True,
                       text=True, timeout=60)
    return p.returncode, schema_check.check_report(p.stdout)


def checks(doc, name):
    """id -> check, for the checks named `name` (a row's check)."""
    return {c.get("id", c["name"]): c for t in doc["targets"] for c in t["checks"] if c["name"] == name}


class KnownTroubleInRecipes(unittest.TestCase):
    def test_side_channel_host_0_0_0_0_fails_pod_ip_does_not(self):
        rc, doc = env_report("vllm-side-channel-host-0.0.0.0.yaml")
        got = checks(doc, "side-channel-host")
        self.assertEqual(sorted(got), ["VllmDecodeWorker/side-channel-host", "VllmPrefillWorker/side-channel-host"])
        c = got["VllmPrefillWorker/side-channel-host"]
        self.assertEqual((c["status"], c["layer"]), ("fail", "nixl"))
        self.assertEqual(c["detail"],
                         "VllmPrefillWorker: VLLM_NIXL_SIDE_CHANNEL_HOST=0.0.0.0: vLLM also advertises this address "
                         "to the peer, so decode dials itself, gets its own engine id back and the handshake fails "
                         "(volcano-sh/kthena #1781)")
        self.assertIn("status.podIP", c["next"])
        self.assertEqual((doc["verdict"]["status"], rc), ("blocked", 2))
        rc, doc = env_report("vllm-side-channel-host-pod-ip.yaml")
        self.assertEqual(checks(doc, "side-channel-host"), {})
        self.assertNotEqual(doc["verdict"]["status"], "blocked")

    def test_expandable_segments_under_mooncake_warns(self):
        _, doc = env_report("sglang-mooncake-expandable-segments.yaml")
        got = checks(doc, "kv-memory-registration")
        self.assertEqual(sorted(got), ["decode/kv-memory-registration", "prefill/kv-memory-registration"])
        c = got["prefill/kv-memory-registration"]
        self.assertEqual((c["status"], c["layer"]), ("warn", "gpudirect"))
        self.assertTrue(c["detail"].startswith(
            "prefill: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: the KV cache becomes expandable (VMM) memory"))
        self.assertTrue(c["detail"].endswith("(kvcache-ai/Mooncake #351)"))
        _, doc = env_report("sglang-mooncake-alloc-conf-plain.yaml")
        self.assertEqual(checks(doc, "kv-memory-registration"), {})


if __name__ == "__main__":
    unittest.main()
