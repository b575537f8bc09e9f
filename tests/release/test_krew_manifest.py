"""The krew manifest as tools/release.sh writes it, checked against krew's own rules
(krew_rules.py) without a release: the template is filled from two small archives made here,
exactly as tools/krew_manifest.py fills it for real ones. Each rule also rejects what breaks it.
"""
import copy
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import unittest

import yaml

import krew_rules

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEMPLATE = os.path.join(ROOT, "krew-manifest", "dynamo-icheck.yaml")


def filled_manifest():
    with tempfile.TemporaryDirectory() as d:
        archives = []
        for arch in ("amd64", "arm64"):
            path = os.path.join(d, "dynamo-icheck_0.1.0_linux_%s.tar.gz" % arch)
            with tarfile.open(path, "w:gz") as t:
                t.add(TEMPLATE, arcname="README.md")
            archives.append(path)
        out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "krew_manifest.py"), TEMPLATE,
                              "v0.1.0", "https://example.invalid/releases/v0.1.0"] + archives,
                             capture_output=True, text=True, check=True).stdout
    return yaml.safe_load(out)


class KrewAcceptsIt(unittest.TestCase):
    def test_the_filled_manifest_passes_krews_rules(self):
        self.assertEqual(krew_rules.errors("dynamo-icheck", filled_manifest()), [])

    def test_short_description_fits_krew_index(self):
        short = filled_manifest()["spec"]["shortDescription"]
        self.assertLessEqual(len(short), 50, short)

    def test_completion_caveat_copies_the_helper(self):
        # A copy survives `krew upgrade` (the store path has the version in it; a link into it
        # breaks on upgrade) and finds the plugin beside it through krew's own link.
        caveats = filled_manifest()["spec"]["caveats"]
        self.assertIn("cp ", caveats)
        self.assertNotIn("ln -s", caveats)
        self.assertIsNone(re.search(r"store/dynamo-icheck/v\d", caveats), caveats)


class KrewRules(unittest.TestCase):
    """Each rule of krew's validation refuses what breaks it: the check above cannot pass blindly."""

    def broken(self, change, name="dynamo-icheck"):
        m = copy.deepcopy(filled_manifest())
        change(m)
        return krew_rules.errors(name, m)

    def test_each_rule(self):
        cases = {
            "apiVersion": lambda m: m.update(apiVersion="krew.googlecontainertools.github.com/v1alpha1"),
            "kind": lambda m: m.update(kind="Plug"),
            "should be named": lambda m: m["metadata"].update(name="other"),
            "should have a short description": lambda m: m["spec"].update(shortDescription=""),
            "line breaks": lambda m: m["spec"].update(shortDescription="two\nlines"),
            "krew-index takes 50": lambda m: m["spec"].update(shortDescription="x" * 51),
            "should have a platform": lambda m: m["spec"].update(platforms=[]),
            "not start with 'v'": lambda m: m["spec"].update(version="0.1.0"),
            "major.minor.patch": lambda m: m["spec"].update(version="v0.1"),
            "zero-prefixed": lambda m: m["spec"].update(version="v0.01.0"),
            "pre-release or build": lambda m: m["spec"].update(version="v0.1.0_rc1"),
            "`uri` has to be set": lambda m: m["spec"]["platforms"][0].pop("uri"),
            "`sha256` value": lambda m: m["spec"]["platforms"][0].update(sha256="ABC"),
            "`sha256` sum has to be set": lambda m: m["spec"]["platforms"][0].pop("sha256"),
            "`bin` has to be set": lambda m: m["spec"]["platforms"][0].update(bin=""),
            "unspecified or non-empty": lambda m: m["spec"]["platforms"][0].update(files=[]),
            "`to` field": lambda m: m["spec"]["platforms"][0]["files"][0].update(to=""),
            "key 'distro' not supported": lambda m: m["spec"]["platforms"][0]["selector"]["matchLabels"].update(distro="x"),
            "nil selector": lambda m: m["spec"]["platforms"][0].pop("selector"),
            "`matchLabels` specified but empty": lambda m: m["spec"]["platforms"][0]["selector"].update(matchLabels={}),
        }
        for says, change in cases.items():
            with self.subTest(rule=says):
                found = self.broken(change)
                self.assertTrue(any(says in e for e in found), found)
        self.assertTrue(any("not allowed" in e for e in self.broken(lambda m: m, name="COM1")))
        self.assertTrue(any("not allowed" in e for e in self.broken(lambda m: m, name="dynamo icheck")))

    def test_valid_versions(self):
        for v in ("v0.1.0", "v1.2.3-rc.1", "v10.0.0+build.5"):
            self.assertIsNone(krew_rules.semver_error(v), v)


if __name__ == "__main__":
    unittest.main()
