"""The healthy twin is a real deployment (issue 37): every Dynamo recipe under tests/recipes/ (copies
of ../shared/recipes, as shipped) judged by `env` fires no known-trouble row, except the findings
listed in REAL_FINDINGS, each a real finding with its source. A row that fires on a shipped recipe
is either such a finding or a wrong row."""
import json
import os
import subprocess
import unittest

PLUGIN = os.environ.get("ICHECK_PLUGIN", "build/kubectl-dynamo_icheck")
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECIPES = os.path.join(TESTS, "recipes")

# (recipe folder relative to tests/recipes, row id): why the row is right on the shipped recipe.
REAL_FINDINGS = {
    ("kimi-k3/vllm/disagg-gb200-agentic", "ucx-mnnvl-enabled-but-cuda-ipc-excluded"):
        "UCX_TLS=^cuda_ipc beside UCX_CUDA_IPC_ENABLE_MNNVL=y cancel out: KV never takes NVLink "
        "(ai-dynamo/dynamo #14357)",
    ("qwen3-235b-a22b-fp8/trtllm/disagg/blackwell", "trtllm-nixl-max-tokens-in-buffer-unset"):
        "cache_transceiver_config backend DEFAULT (NIXL) without max_tokens_in_buffer: TRT-LLM warns "
        "'may use dynamic buffer which will fail with NIXL backend' for inputs above the buffer "
        "(ai-dynamo/dynamo #5523 set it to 16384 in the recipes it touched)",
    ("qwen3-235b-a22b-fp8/trtllm/disagg/hopper", "trtllm-nixl-max-tokens-in-buffer-unset"):
        "the same, on the Hopper variant (ai-dynamo/dynamo #5523)",
    ("deepseek-r1/vllm/disagg", "vllm-nixl-kv-lease-default-giant-model"):
        "NixlConnector's 30 s KV lease on a 671B model, which aws-samples/aws-do-eks #84 had to raise "
        "to 300 s after decode read freed blocks (a preflight warn)",
}


def recipe_dirs():
    out = []
    for root, dirs, files in os.walk(RECIPES):
        if any(f.endswith((".yaml", ".yml")) for f in files):
            out.append(root)
    return sorted(out)


class ShippedRecipesFireNoRow(unittest.TestCase):
    def test_no_row_fires_on_a_shipped_recipe(self):
        fired = {}
        for d in recipe_dirs():
            p = subprocess.run([PLUGIN, "env", d, "-o", "json"], capture_output=True, text=True, timeout=60)
            if p.returncode == 3 and "no DynamoGraphDeployment could be checked" in p.stderr:
                continue  # a recipe of plain Deployments (tokenspeed): nothing for env to judge
            self.assertIn(p.returncode, (0, 1, 2), d + ": " + p.stderr[-500:])
            doc = json.loads(p.stdout)
            for t in doc["targets"]:
                for c in t["checks"]:
                    if "row" in c:
                        fired.setdefault((os.path.relpath(d, RECIPES), c["row"]), c["detail"])
        unexpected = {k: v for k, v in fired.items() if k not in REAL_FINDINGS}
        self.assertEqual(unexpected, {})


if __name__ == "__main__":
    unittest.main()
