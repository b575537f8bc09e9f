"""Predict, then confirm (src/knowledge/data/trouble_preflight.yaml): where a log signature's
failure has a precondition a recipe carries (a launch flag, an env variable, an engine-config
value, an image's version), `env RECIPE` warns or fails on it before any traffic. Each case is a
copy of a real recipe under tests/fixtures/recipe/preflight/<case>/ that changes one fact; its twin
differs only in that fact and gets no finding of the row's check."""
import os
import subprocess
import sys
import unittest

PLUGIN = os.environ.get("ICHECK_PLUGIN", "build/kubectl-dynamo_icheck")
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(TESTS, "fixtures", "recipe", "preflight")
sys.path.insert(0, os.path.join(TESTS, "schema"))
import schema_check  # noqa: E402


def env_report(case, name):
    p = subprocess.run([PLUGIN, "env", os.path.join(CASES, case, name), "-o", "json"], capture_output=True,
                       text=True, timeout=60)
    return schema_check.check_report(p.stdout)


def checks(doc, name):
    """id -> check, for the checks named `name` (a row's check)."""
    return {c.get("id", c["name"]): c for t in doc["targets"] for c in t["checks"] if c["name"] == name}


class PreflightRows(unittest.TestCase):
    def assert_fires(self, case, failing, healthy, check, status, layer, source, ids=None):
        got = checks(env_report(case, failing), check)
        self.assertTrue(got, f"{case}/{failing}: no {check} finding")
        if ids is not None:
            self.assertEqual(sorted(got), ids)
        for c in got.values():
            self.assertEqual((c["status"], c["layer"]), (status, layer), c)
            self.assertIn(source, c["detail"])
        for twin in healthy:
            self.assertEqual(checks(env_report(case, twin), check), {}, f"{case}/{twin}")

    def test_vllm_0_11_0_nixl_beside_deepep_warns(self):
        self.assert_fires("vllm-nixl-threads-deepep", "vllm-0.11.0.yaml",
                          ["vllm-0.11.0-num-threads.yaml", "vllm-0.11.1.yaml"],
                          "nixl-threads-uar", "warn", "env", "vllm #27196",
                          ["decode/nixl-threads-uar", "prefill/nixl-threads-uar"])

    def test_nixl_default_kv_lease_on_deepseek_r1_warns(self):
        self.assert_fires("vllm-nixl-kv-lease", "deploy.yaml", ["kv-lease-300.yaml"], "kv-lease", "warn", "env",
                          "aws-do-eks #84", ["decode/kv-lease", "prefill/kv-lease"])

    def test_vllm_serve_pair_without_kv_transfer_config_fails(self):
        self.assert_fires("vllm-serve-no-kv-connector", "vllm-serve-no-flag.yaml",
                          ["dynamo-vllm-no-flag.yaml", "vllm-serve.yaml"], "kv-connector", "fail", "env",
                          "kserve #5987")

    def test_sglang_nixl_ib_device_without_ucx_net_devices_warns(self):
        self.assert_fires("sglang-nixl-ib-device", "ib-device.yaml", ["ib-device-ucx-net-devices.yaml"],
                          "nic-selection", "warn", "ucx", "sglang #28737")

    def test_trtllm_both_backend_selectors_warn(self):
        self.assert_fires("trtllm-nixl-backend-selectors", "both-selectors.yaml", ["trtllm-selector.yaml"],
                          "nixl-backend-selector", "warn", "env", "TensorRT-LLM #10024")

    def test_trtllm_default_transceiver_without_max_tokens_warns(self):
        self.assert_fires("trtllm-default-max-tokens", "deploy.yaml", ["max-tokens-16384.yaml"],
                          "cache-transceiver", "warn", "env", "dynamo #5523")


if __name__ == "__main__":
    unittest.main()
