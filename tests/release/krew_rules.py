"""krew's own checks of a plugin manifest, written from its source (kubernetes-sigs/krew:
internal/index/validation/validate.go ValidatePlugin, validatePlatform, validateFiles,
validateSelector; internal/installation/semver Parse over k8s.io/apimachinery's ParseSemantic;
pkg/constants), plus the krew-index review limits krew's code leaves to people (a short
description of at most 50 characters). Read for the rules only: no code of theirs is here.

    errors(name, manifest_dict) -> ["spec.version: ...", ...]   (empty: krew would accept it)
"""
import re

API_VERSION = "krew.googlecontainertools.github.com/v1alpha2"  # constants.CurrentAPIVersion
KIND = "Plugin"                                                  # constants.PluginKind
SAFE_NAME = re.compile(r"^[\w-]+$")
SHA256 = re.compile(r"^[a-f0-9]{64}$")
WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL"} | {"COM%d" % i for i in range(1, 10)} \
    | {"LPT%d" % i for i in range(1, 10)}
# apimachinery's version split: numbers, then pre-release and build metadata.
VERSION = re.compile(r"^\s*v?([0-9]+(?:\.[0-9]+)*)(.*)$")
EXTRA = re.compile(r"^(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?\s*$")
SHORT_DESCRIPTION_MAX = 50  # krew-index's review guideline


def semver_error(version):
    """Why krew's semver.Parse refuses `version`, or None."""
    if not isinstance(version, str) or not version.startswith("v"):
        return "version %r does not start with 'v'" % (version,)
    m = VERSION.match(version)
    if not m:
        return "could not parse %r as version" % version
    parts = m.group(1).split(".")
    if len(parts) != 3:
        return "%r is not major.minor.patch" % version
    if any(len(p) > 1 and p.startswith("0") for p in parts):
        return "%r has a zero-prefixed component" % version
    if not EXTRA.match(m.group(2)):
        return "%r has an invalid pre-release or build part" % version
    return None


def selector_errors(selector):
    if not isinstance(selector, dict):
        return ["nil selector is not supported"]
    labels, exprs = selector.get("matchLabels"), selector.get("matchExpressions")
    if labels is None and not exprs:
        return ["empty selector is not supported"]
    keys = list((labels or {}).keys()) + [e.get("key") for e in exprs or []]
    out = ["key %r not supported" % k for k in keys if k not in ("os", "arch")]
    if labels is not None and len(labels) == 0:
        out.append("`matchLabels` specified but empty")
    if exprs is not None and len(exprs) == 0:
        out.append("`matchExpressions` specified but empty")
    return out


def files_errors(files):
    if files is None:
        return []
    if len(files) == 0:
        return ["`files` has to be unspecified or non-empty"]
    out = []
    for op in files:
        if not op.get("from"):
            out.append("`from` field has to be set")
        elif not op.get("to"):
            out.append("`to` field has to be set")
    return out


def platform_errors(p):
    out = []
    if not p.get("uri"):
        out.append("`uri` has to be set")
    sha = p.get("sha256")
    if not sha:
        out.append("`sha256` sum has to be set")
    elif not isinstance(sha, str) or not SHA256.match(sha):
        out.append("`sha256` value %r is not valid, must match %s" % (sha, SHA256.pattern))
    if not p.get("bin"):
        out.append("`bin` has to be set")
    out += ["`files` is invalid: " + e for e in files_errors(p.get("files"))]
    out += ["invalid platform selector: " + e for e in selector_errors(p.get("selector"))]
    return out


def errors(name, manifest):
    out = []
    if manifest.get("apiVersion") != API_VERSION:
        out.append("apiVersion %r is not %s" % (manifest.get("apiVersion"), API_VERSION))
    if manifest.get("kind") != KIND:
        out.append("kind %r is not %s" % (manifest.get("kind"), KIND))
    if not SAFE_NAME.match(name) or name.upper() in WINDOWS_RESERVED:
        out.append("the plugin name %r is not allowed" % name)
    if (manifest.get("metadata") or {}).get("name") != name:
        out.append("plugin should be named %r" % name)
    spec = manifest.get("spec") or {}
    short = spec.get("shortDescription") or ""
    if not short:
        out.append("should have a short description")
    if "\r" in short or "\n" in short:
        out.append("should not have line breaks in short description")
    if len(short) > SHORT_DESCRIPTION_MAX:
        out.append("shortDescription has %d characters, krew-index takes %d"
                   % (len(short), SHORT_DESCRIPTION_MAX))
    if not spec.get("platforms"):
        out.append("should have a platform specified")
    if not spec.get("version"):
        out.append("should have a version specified")
    elif semver_error(spec["version"]):
        out.append("failed to parse plugin version: " + semver_error(spec["version"]))
    for i, p in enumerate(spec.get("platforms") or []):
        out += ["platforms[%d]: %s" % (i, e) for e in platform_errors(p)]
    return out
