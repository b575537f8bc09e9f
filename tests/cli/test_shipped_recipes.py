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
    ("kimi-k3/trtllm/disagg-gb200", "ucx-tls-excludes-cuda-ipc-on-mnnvl"):
        "UCX_TLS excludes cuda_ipc beside UCX_CUDA_IPC_ENABLE_MNNVL=y (ai-dynamo/dynamo #14357)",
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
