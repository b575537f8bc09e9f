"""The release as krew users get it: the manifest in dist/ against krew's rules, then the archive
installed the way krew installs it (extract, apply `files`, link `bin`) and run through the real
kubectl's plugin dispatch.

Run after tools/release.sh:  python3 tests/release/test_release.py   (CTest label `release`).
Without dist/ (no release built) it exits 77, which CTest reports as skipped, with the reason.
"""
import fnmatch
import glob
import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import unittest

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIST = os.environ.get("ICHECK_DIST", os.path.join(ROOT, "dist"))
MANIFEST = os.path.join(DIST, "dynamo-icheck.yaml")
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import kubectl_finder  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import krew_rules  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safe_tar  # noqa: E402

SKIP = 77


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"^project\(dynamo_icheck VERSION ([0-9.]+)", f.read(), re.M).group(1)


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def load_manifest():
    with open(MANIFEST) as f:
        return yaml.safe_load(f)


def this_platform():
    machine = os.uname().machine
    return {"os": "linux", "arch": {"x86_64": "amd64", "aarch64": "arm64"}.get(machine, machine)}


def krew_install(platform, archive, krew_root):
    """What `kubectl krew install --manifest=M --archive=A` does on disk: unpack into a staging
    dir, move each `files` match (from: glob, to: dir) into the store, link bin into bin/."""
    name, version = "dynamo-icheck", load_manifest()["spec"]["version"]
    staging = tempfile.mkdtemp(dir=krew_root)
    safe_tar.extract_all(archive, staging)
    store = os.path.join(krew_root, "store", name, version)
    os.makedirs(store)
    for rule in platform["files"]:
        matches = [p for p in os.listdir(staging) if fnmatch.fnmatch(p, rule["from"])]
        if not matches:
            raise AssertionError("files: %r matches nothing in the archive" % rule["from"])
        for m in matches:
            dest = os.path.normpath(os.path.join(store, rule["to"]))
            os.makedirs(dest, exist_ok=True)
            shutil.move(os.path.join(staging, m), os.path.join(dest, m))
    shutil.rmtree(staging)
    bin_dir = os.path.join(krew_root, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    link = os.path.join(bin_dir, "kubectl-" + name.replace("-", "_"))
    os.symlink(os.path.join(store, platform["bin"]), link)
    # The one step krew leaves to the user, as the manifest's caveats say it: a copy of the
    # completion helper beside krew's link (it finds the plugin through that link).
    helper = "kubectl_complete-dynamo_icheck"
    shutil.copy2(os.path.join(store, helper), os.path.join(bin_dir, helper))
    return store, bin_dir


class Manifest(unittest.TestCase):
    def setUp(self):
        self.m = load_manifest()
        self.spec = self.m["spec"]

    def test_krews_own_rules(self):
        self.assertEqual(krew_rules.errors(self.m["metadata"]["name"], self.m), [])

    def test_header_and_name(self):
        self.assertEqual(self.m["apiVersion"], "krew.googlecontainertools.github.com/v1alpha2")
        self.assertEqual(self.m["kind"], "Plugin")
        name = self.m["metadata"]["name"]
        self.assertRegex(name, r"^[\w-]+$")
        self.assertEqual(name + ".yaml", os.path.basename(MANIFEST))  # krew: name = file name

    def test_version_is_v_prefixed_semver_from_cmake(self):
        self.assertRegex(self.spec["version"], r"^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$")
        self.assertEqual(self.spec["version"], "v" + project_version())

    def test_descriptions(self):
        short = self.spec["shortDescription"]
        self.assertTrue(short.strip())
        self.assertNotIn("\n", short)
        self.assertIn("read-only", self.spec["description"])
        for rbac in ("pods/exec", "list on pods", "dynamographdeployments"):
            self.assertIn(rbac, self.spec["caveats"].replace("\n", " ").replace("  ", " "))

    def test_platforms(self):
        platforms = self.spec["platforms"]
        self.assertIn({"os": "linux", "arch": "amd64"}, [p["selector"]["matchLabels"] for p in platforms])
        for p in platforms:
            labels = p["selector"]["matchLabels"]
            self.assertTrue(labels)
            self.assertLessEqual(set(labels), {"os", "arch"})
            self.assertTrue(p["uri"].endswith(".tar.gz"))
            self.assertIsInstance(p["sha256"], str)  # quoted: never read as a number
            self.assertRegex(p["sha256"], r"^[a-f0-9]{64}$")
            archive = os.path.join(DIST, os.path.basename(p["uri"]))
            self.assertEqual(p["sha256"], sha256_of(archive), archive)
            self.assertEqual(os.path.basename(p["uri"]), "dynamo-icheck_%s_%s_%s.tar.gz"
                             % (project_version(), labels["os"], labels["arch"]))
            self.assertEqual(p["bin"], "kubectl-dynamo_icheck")
            for rule in p["files"]:
                self.assertTrue(rule["from"] and rule["to"])

    def test_every_binary_is_static_for_its_arch(self):
        want = {"amd64": "x86-64", "arm64": "ARM aarch64"}
        for p in self.spec["platforms"]:
            arch = p["selector"]["matchLabels"]["arch"]
            with tempfile.TemporaryDirectory() as d, \
                    tarfile.open(os.path.join(DIST, os.path.basename(p["uri"]))) as t:
                safe_tar.extract_all(t, d)
                info = subprocess.run(["file", "-b", os.path.join(d, p["bin"])],
                                      capture_output=True, text=True).stdout
                self.assertIn("statically linked", info, arch)
                self.assertIn(want[arch], info, arch)


QEMU = {"arm64": ("qemu-aarch64-static", "qemu-aarch64"), "amd64": ("qemu-x86_64-static", "qemu-x86_64")}


class ForeignArch(unittest.TestCase):
    """Each archive built for another architecture runs, under Debian's qemu-user (tools/deps.sh
    --release installs qemu-user-static): its version, and a real recipe judged."""

    def foreign(self):
        return [p for p in load_manifest()["spec"]["platforms"]
                if p["selector"]["matchLabels"] != this_platform()]

    def test_each_foreign_binary_runs_under_qemu(self):
        platforms = self.foreign()
        if not platforms:
            self.skipTest("no archive for another architecture in the release")
        for p in platforms:
            arch = p["selector"]["matchLabels"]["arch"]
            with self.subTest(arch=arch):
                qemu = next(filter(None, (shutil.which(q) for q in QEMU.get(arch, ()))), None)
                if qemu is None:
                    self.skipTest("no %s on PATH to run the %s binary (apt-get install qemu-user-static)"
                                  % (" or ".join(QEMU.get(arch, ("qemu",))), arch))
                with tempfile.TemporaryDirectory() as d, \
                        tarfile.open(os.path.join(DIST, os.path.basename(p["uri"]))) as t:
                    safe_tar.extract_all(t, d)
                    exe = os.path.join(d, p["bin"])
                    r = subprocess.run([qemu, exe, "version"], capture_output=True, text=True, timeout=60)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertIn("dynamo-icheck %s (commit " % load_manifest()["spec"]["version"], r.stdout)
                    self.assertIn("linux/%s" % arch, r.stdout)
                    self.assertIn("linked static", r.stdout)
                    recipe = os.path.join(ROOT, "tests", "recipes", "llama-3-70b", "vllm", "disagg-multi-node")
                    r = subprocess.run([qemu, exe, "env", recipe, "-o", "json"], capture_output=True,
                                       text=True, timeout=60)
                    self.assertEqual(r.returncode, 1, r.stderr)  # unconfirmed, as on amd64
                    doc = yaml.safe_load(r.stdout)
                    self.assertEqual(doc["verdict"]["status"], "unconfirmed")
                    self.assertEqual(doc["verdict"]["layer"], "env")


class KrewInstall(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.kubectl = kubectl_finder.first()
        if cls.kubectl is None:
            raise unittest.SkipTest(kubectl_finder.none_reason())
        spec = load_manifest()["spec"]
        plat = [p for p in spec["platforms"] if p["selector"]["matchLabels"] == this_platform()]
        if not plat:
            raise unittest.SkipTest("no archive for %s in the release" % this_platform())
        cls.root = tempfile.mkdtemp(prefix="icheck-krew-")
        cls.store, cls.bin = krew_install(plat[0], os.path.join(DIST, os.path.basename(plat[0]["uri"])), cls.root)
        kdir = os.path.join(cls.root, "kubectl")
        os.makedirs(kdir)
        os.symlink(cls.kubectl.path, os.path.join(kdir, "kubectl"))
        cls.env = {"PATH": "%s:%s:/usr/bin:/bin" % (cls.bin, kdir), "HOME": cls.root,
                   "KUBECONFIG": os.path.join(cls.root, "no-kubeconfig")}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root, ignore_errors=True)

    def kubectl_run(self, *args):
        return subprocess.run(["kubectl", *args], env=self.env, capture_output=True, text=True, timeout=60)

    def test_bin_is_executable_and_files_applied(self):
        exe = os.path.join(self.store, "kubectl-dynamo_icheck")
        self.assertTrue(os.stat(exe).st_mode & stat.S_IXUSR)
        for f in ("kubectl_complete-dynamo_icheck", "LICENSE", "README.md"):
            self.assertTrue(os.path.isfile(os.path.join(self.store, f)), f)

    def test_plugin_list_finds_it_without_warning(self):
        r = self.kubectl_run("plugin", "list")
        self.assertEqual(r.returncode, 0, "%s: %s%s" % (self.kubectl.label, r.stdout, r.stderr))
        self.assertIn(os.path.join(self.bin, "kubectl-dynamo_icheck"), r.stdout)
        self.assertNotIn("warning", (r.stdout + r.stderr).lower())

    def test_version_through_dispatch(self):
        r = self.kubectl_run("dynamo-icheck", "version")
        self.assertEqual(r.returncode, 0, r.stderr)
        version = load_manifest()["spec"]["version"]
        self.assertIn("dynamo-icheck %s (commit " % version, r.stdout)
        self.assertRegex(r.stdout, r"commit [0-9a-f]{7,}")
        self.assertRegex(r.stdout, r"Boost \d+\.\d+\.\d+, yaml-cpp \d+\.\d+\.\d+, CLI11 \d")
        self.assertIn("linked static", r.stdout)
        self.assertEqual(self.kubectl_run("dynamo-icheck", "--version").stdout, r.stdout)

    def test_completion_through_kubectl(self):
        # kubectl >= 1.26 hands `kubectl dynamo-icheck <TAB>` to kubectl_complete-dynamo_icheck.
        r = self.kubectl_run("__complete", "dynamo-icheck", "")
        self.assertEqual(r.returncode, 0, r.stderr)
        for sub in ("env", "node", "nixl", "all", "version"):
            self.assertIn(sub + "\n", r.stdout)
        r = self.kubectl_run("__complete", "dynamo-icheck", "node", "-o", "")
        self.assertEqual(r.stdout.splitlines()[:4], ["table", "wide", "json", "yaml"])
        r = self.kubectl_run("__complete", "dynamo-icheck", "node", "--al")
        self.assertIn("--all-namespaces", r.stdout.splitlines())
        self.assertIn("--all-components", r.stdout.splitlines())


if __name__ == "__main__":
    if not os.path.isfile(MANIFEST):
        print("skipped: no release in %s; run tools/release.sh first" % DIST)
        sys.exit(SKIP)
    print("release in %s; kubectl: %s" % (DIST, kubectl_finder.describe()))
    unittest.main(verbosity=2)
