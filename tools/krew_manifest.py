"""krew_manifest.py TEMPLATE VERSION BASE_URL ARCHIVE...: the krew manifest on stdout.

TEMPLATE is krew-manifest/dynamo-icheck.yaml; its text after the `platforms:` line is repeated
once per ARCHIVE (named dynamo-icheck_<version>_<os>_<arch>.tar.gz) with {{os}}, {{arch}},
{{uri}} and {{sha256}} filled; {{version}} is filled everywhere. Values are quoted in the
template, so YAML never reads a sha256 such as 0000... or 1e10... as a number.
"""
import hashlib
import os
import re
import sys

ARCHIVE = re.compile(r"^dynamo-icheck_(?P<version>[0-9.]+)_(?P<os>[a-z]+)_(?P<arch>[a-z0-9]+)\.tar\.gz$")


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def platform_text(block, path, base_url):
    m = ARCHIVE.match(os.path.basename(path))
    if not m:
        sys.exit("krew_manifest: %s is not named dynamo-icheck_<version>_<os>_<arch>.tar.gz" % path)
    values = {"os": m["os"], "arch": m["arch"], "sha256": sha256_of(path),
              "uri": base_url.rstrip("/") + "/" + os.path.basename(path)}
    for key, value in values.items():
        block = block.replace("{{%s}}" % key, value)
    return block


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    template_path, version, base_url, archives = argv[1], argv[2], argv[3], argv[4:]
    with open(template_path) as f:
        text = f.read()
    head, sep, block = text.partition("\n  platforms:\n")
    if not sep:
        sys.exit("krew_manifest: %s has no '  platforms:' line" % template_path)
    head = "\n".join(l for l in head.splitlines() if not l.startswith("# ")) + "\n"
    head = head.replace("{{version}}", version)
    out = head + "  platforms:\n" + "".join(platform_text(block, a, base_url) for a in archives)
    if "{{" in out:
        sys.exit("krew_manifest: unfilled placeholder left: %s" % re.findall(r"{{\w+}}", out))
    sys.stdout.write(out)


if __name__ == "__main__":
    main(sys.argv)
