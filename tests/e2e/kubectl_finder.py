"""Which kubectl the tests drive, found the way a contributor has it.

1. The versioned binaries ICHECK_KUBECTL_DIR/kubectl.<v> for each v in ICHECK_KUBECTL_VERSIONS
   (defaults: /usr/lib/google-cloud-sdk/bin and "1.30 1.31 1.32", the Google Cloud SDK layout),
   each that exists;
2. else `kubectl` on PATH, its client version read and the run labelled with it.
None found: tests that need kubectl are skipped, saying so (none_reason()).
"""
import json
import os
import shutil
import subprocess
from dataclasses import dataclass

KUBECTL_DIR = os.environ.get("ICHECK_KUBECTL_DIR", "/usr/lib/google-cloud-sdk/bin")
KUBECTL_VERSIONS = os.environ.get("ICHECK_KUBECTL_VERSIONS", "1.30 1.31 1.32").split()


@dataclass(frozen=True)
class Kubectl:
    label: str    # "1.31", or the client version of the kubectl on PATH, e.g. "1.29.4"
    path: str
    versioned: bool


def client_version(path):
    try:
        r = subprocess.run([path, "version", "--client", "-o", "json"], capture_output=True,
                           text=True, timeout=30)
        return json.loads(r.stdout)["clientVersion"]["gitVersion"].lstrip("v")
    except (OSError, ValueError, KeyError, subprocess.TimeoutExpired):
        return None


def _found():
    versioned = [Kubectl(v, os.path.join(KUBECTL_DIR, "kubectl." + v), True) for v in KUBECTL_VERSIONS]
    versioned = [k for k in versioned if os.access(k.path, os.X_OK)]
    if versioned:
        return versioned
    on_path = shutil.which("kubectl")
    if on_path:
        version = client_version(on_path)
        if version:
            return [Kubectl(version, os.path.realpath(on_path), False)]
    return []


_cache = None


def available():
    global _cache
    if _cache is None:
        _cache = _found()
    return _cache


def first():
    return available()[0] if available() else None


def path_for(label):
    """The binary for a label; a label the machine lacks (a test written for "1.31") runs on the
    kubectl that was found, so a contributor with one kubectl still runs every test."""
    for k in available():
        if k.label == label:
            return k.path
    return first().path


def none_reason():
    return ("no kubectl: none of %s in ICHECK_KUBECTL_DIR=%s and no `kubectl` on PATH "
            "(set ICHECK_KUBECTL_DIR / ICHECK_KUBECTL_VERSIONS, or install kubectl)"
            % (" ".join("kubectl." + v for v in KUBECTL_VERSIONS), KUBECTL_DIR))


def describe():
    found = available()
    if not found:
        return none_reason()
    return ", ".join("%s (%s)" % (k.label, k.path) for k in found)
