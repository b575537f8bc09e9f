#!/usr/bin/env python3
"""The node probe script's runtime on a full-size RoCE node, in a chroot (run as root).

bench_probe times the script on this machine, which has no RDMA device, so the sysfs walks
cost nothing there. This builds a root that looks like an 8-HCA RoCE node seen with hostNetwork:
8 ports with the kernel's 256-entry GID table (4 populated, the rest all zeros, as sysfs shows
them), infiniband_verbs, /dev/infiniband, and 200 netdevs in /sys/class/net (a busy node's
veths), then prints the best and mean of 20 runs of the script under busybox sh, for the
script as built and, with --script FILE, for another one (e.g. an older version's).
Prints figures; asserts nothing.

    sudo python3 bench/probe_roce_root.py [--script OLD.sh]
"""
import argparse
import os
import re
import shutil
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ZERO = "0000:0000:0000:0000:0000:0000:0000:0000"


def script_from_source():
    text = open(os.path.join(HERE, "..", "src", "probe", "node_script.cpp")).read()
    return re.search(r'R"ICHECK_SH\((.*?)\)ICHECK_SH"', text, re.S).group(1)


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content)


def port_files(root, dev, i):
    p = f"{root}/sys/class/infiniband/{dev}/ports/1"
    for name, value in [("state", "4: ACTIVE"), ("phys_state", "5: LinkUp"), ("rate", "400 Gb/sec (4X NDR)"),
                        ("link_layer", "Ethernet"), ("lid", "0x0"), ("sm_lid", "0x0")]:
        write(f"{p}/{name}", value + "\n")
    ipv4 = f"0000:0000:0000:0000:0000:ffff:0a00:{i + 1:04x}"
    used = [("fe80:0000:0000:0000:0ac0:ebff:fe79:3900", "IB/RoCE v1"), ("fe80:0000:0000:0000:0ac0:ebff:fe79:3900", "RoCE v2"),
            (ipv4, "IB/RoCE v1"), (ipv4, "RoCE v2")]
    for n in range(256):
        gid, kind = used[n] if n < len(used) else (ZERO, None)
        write(f"{p}/gids/{n}", gid + "\n")
        if kind:
            write(f"{p}/gid_attrs/types/{n}", kind + "\n")
            write(f"{p}/gid_attrs/ndevs/{n}", f"ens{i}f0np0\n")


def build_root(root):
    os.makedirs(f"{root}/bin")
    shutil.copy("/bin/busybox", f"{root}/bin/busybox")
    for applet in ("sh", "timeout", "sleep", "kill", "env"):
        os.symlink("busybox", f"{root}/bin/{applet}")
    for i in range(8):
        dev = f"mlx5_{i}"
        for name, value in [("hca_type", "MT4129"), ("fw_ver", "28.41.1000"), ("board_id", "MT_0000000838"),
                            ("node_type", "1: CA")]:
            write(f"{root}/sys/class/infiniband/{dev}/{name}", value + "\n")
        port_files(root, dev, i)
        write(f"{root}/sys/class/infiniband_verbs/uverbs{i}/ibdev", dev + "\n")
        write(f"{root}/dev/infiniband/uverbs{i}", "")
    for n in range(200):
        write(f"{root}/sys/class/net/veth{n:04x}/operstate", "up\n")


def runtime(root, script, runs=20):
    path = f"{root}/probe.sh"
    write(path, script)
    times = []
    for _ in range(runs):
        start = time.monotonic()
        subprocess.run([shutil.which("chroot"), root, "/bin/sh", "/probe.sh"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env={"PATH": "/bin"}, check=False)
        times.append((time.monotonic() - start) * 1000)
    return min(times), sum(times) / len(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", help="another script to time on the same root")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "root")
        build_root(root)
        scripts = [("as built", script_from_source())]
        if args.script:
            scripts.append((args.script, open(args.script).read()))
        for label, text in scripts:
            best, mean = runtime(root, text)
            print(f"node script, 8x RoCE x 256 GIDs, 200 netdevs, busybox sh: best {best:6.1f} ms  mean {mean:6.1f} ms  ({label})")


if __name__ == "__main__":
    main()
