"""Fact writers: the inverse of the plugin's readers (issue 37).

A knowledge row (src/knowledge/data/*.yaml) names facts (docs/knowledge.md "Fact names"); each
writer here puts one fact where a real worker image, pod object or node has it, so that the
plugin's own probe reads it back through kubectl exec, pods/log and events:

  env.NAME                  the container's env (the process's environ in the sandbox)
  engine.*                  the worker's command line: `python3 -m dynamo.<framework>` and its
                            flags, vLLM's --kv-transfer-config JSON, TRT-LLM's engine config file
                            (named by --extra-engine-args in the running process's argv, /proc/1)
  version.<lib>             where the image records it: a wheel's `*.dist-info/METADATA` folder
                            name (PEP 427), a library file name (libnccl.so.2.X.Y), CUDA's
                            version.json, the kernel's osrelease, the driver's
                            /proc/driver/nvidia/version, `ucx_info -v`, `fi_info --version`
  pod.*                     the pod object (spec.hostNetwork, ...)
  gpu.model, gpu.count      `nvidia-smi -L` (the h100-ib-tools fake prints the capture's lines)
  peermem.module            /proc/modules and /sys/module (a peer-memory module, or none)
  log.line, log.container   the first container's log (pods/log), or its previous instance's
  event.*                   the pod's events (GET events)
  platform.cloud            the node object's spec.providerID

Layouts, each as seen in a real image: dist-info folder names as pip writes them (PEP 427,
e.g. `nixl_cu12-0.10.0.dist-info` in tests/e2e/roots/nixl-wheel-0.10.0, seen in Dynamo's vLLM
runtime image); `libnccl.so.2.21.5` as the nvidia-nccl-cu12 wheel and Debian's libnccl2 name it;
/usr/local/cuda/version.json as the CUDA toolkit writes it ({"cuda": {"name": ..., "version":
...}}); /proc/driver/nvidia/version and `ucx_info -v` as the captures under tests/e2e/roots/
h100-ib-tools show them.

A fact with no writer raises Unwritable: a row naming it cannot be proven on a pod
(test_plugin_rows lists those rows and fails on one that is not in its reasoned list).
"""
import copy
import json
import os

PYLIB = "usr/local/lib/python3.12/dist-packages"

# version.<lib> -> the wheel's dist-info project name (PEP 427: '-' as '_').
WHEELS = {
    "nixl": "nixl",
    "nixl-cu12": "nixl_cu12",
    "nixl-cu13": "nixl_cu13",
    "nixl-cu11": "nixl_cu11",
    "vllm": "vllm",
    "sglang": "sglang",
    "tensorrt_llm": "tensorrt_llm",
    "dynamo": "ai_dynamo",
    "torch": "torch",
    "mooncake": "mooncake_transfer_engine",
}

# A healthy H100 InfiniBand worker: 8 ConnectX-7 ports Active, nvidia_peermem, the tools.
BASE_ROOT = ["base", "h100-ib", "h100-ib-tools"]

FRAMEWORK_MODULE = {"vllm": "dynamo.vllm", "sglang": "dynamo.sglang", "trtllm": "dynamo.trtllm"}
# engine.entrypoint -> (framework, the command that starts the engine without Dynamo's wrapper)
ENTRYPOINTS = {"vllm-serve": ("vllm", ["vllm", "serve"]),
               "sglang-server": ("sglang", ["python3", "-m", "sglang.launch_server"]),
               "trtllm-serve": ("trtllm", ["trtllm-serve"])}
COMPONENT = {"vllm": "Vllm", "sglang": "Sglang", "trtllm": "Trtllm"}
CONNECTOR_OF_BACKEND = {"nixl": "NixlConnector", "mooncake": "MooncakeConnector",
                        "nccl": "P2pNcclConnector"}


class Unwritable(Exception):
    """A fact no writer puts where a reader reads it."""


def _roots_dir():
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "roots")


def _root_file(layer, rel):
    with open(os.path.join(_roots_dir(), layer, rel)) as f:
        return f.read()


def new_pod(name, dgd, role="worker"):
    """A Running worker pod of DGD `dgd` with the healthy base root; role: worker|prefill|decode."""
    sub = {"worker": None, "prefill": "prefill", "decode": "decode"}[role]
    labels = {"nvidia.com/dynamo-graph-deployment-name": dgd,
              "nvidia.com/dynamo-component-type": "worker"}
    if sub:
        labels["nvidia.com/dynamo-sub-component-type"] = sub
    # One node for every worker (the plugin reads at most 64 node objects per run); a pair's
    # pods and a pod whose node object matters (platform.cloud) get nodes of their own.
    node = "node-" + name if role != "worker" else "node-common"
    return {"name": name, "node": node, "ip": "10.70.0.1", "root": list(BASE_ROOT),
            "labels": labels, "files": {}, "remove": [],
            "containers": [{"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0",
                            "env": {}}]}


def _engine(pod, facts, role):
    """engine.* facts -> the command line (and engine config file) of the worker."""
    eng = {k[len("engine."):]: v for k, v in facts.items() if k.startswith("engine.")}
    framework = eng.pop("framework", None)
    entrypoint = eng.pop("entrypoint", "dynamo")
    backend = eng.pop("kv_backend", None)
    connector = eng.pop("kv_connector", None)
    nixl_backends = eng.pop("nixl_backends", None)
    if framework is None and entrypoint in ENTRYPOINTS:
        framework = ENTRYPOINTS[entrypoint][0]
    if framework is None:
        if facts.get("env.TRTLLM_USE_UCX_KVCACHE") or any(k.startswith("cache_transceiver.") for k in eng):
            framework = "trtllm"
        elif backend == "mooncake" and not connector:
            framework = "sglang"
        else:
            framework = "vllm"
    if framework not in FRAMEWORK_MODULE:
        raise Unwritable("engine.framework=" + framework)
    if entrypoint != "dynamo" and ENTRYPOINTS.get(entrypoint, (None,))[0] != framework:
        raise Unwritable("engine.entrypoint=%s with %s" % (entrypoint, framework))
    c = pod["containers"][0]
    c["image"] = "nvcr.io/nvidia/ai-dynamo/%s-runtime:1.4.0" % framework
    c["command"] = (["python3", "-m", FRAMEWORK_MODULE[framework]] if entrypoint == "dynamo"
                    else list(ENTRYPOINTS[entrypoint][1]))
    comp = COMPONENT[framework] + {"worker": "Worker", "prefill": "PrefillWorker",
                                   "decode": "DecodeWorker"}[role]
    pod["labels"]["nvidia.com/dynamo-component"] = comp
    args = ["--model", "Qwen/Qwen3-0.6B"]
    flags = {k[len("flag."):]: v for k, v in eng.items() if k.startswith("flag.")}
    transfer = {k[len("kv_transfer."):]: v for k, v in eng.items() if k.startswith("kv_transfer.")}
    transceiver = {k[len("cache_transceiver."):]: v for k, v in eng.items()
                   if k.startswith("cache_transceiver.")}
    rest = [k for k in eng if not k.startswith(("flag.", "kv_transfer.", "cache_transceiver."))]
    if rest:
        raise Unwritable("engine." + rest[0])
    if framework == "vllm":
        if connector is None and backend is not None:
            if backend not in CONNECTOR_OF_BACKEND:
                raise Unwritable("engine.kv_backend=%s on vllm" % backend)
            connector = CONNECTOR_OF_BACKEND[backend]
        if connector is not None or transfer or nixl_backends:
            config = {"kv_connector": connector or "NixlConnector", "kv_role": "kv_both"}
            for key, value in transfer.items():
                if "." in key:
                    outer, inner = key.split(".", 1)
                    config.setdefault(outer, {})[inner] = _json_value(value)
                else:
                    config[key] = _json_value(value)
            if nixl_backends:
                config.setdefault("kv_connector_extra_config", {})["backends"] = nixl_backends.split(",")
            flags.setdefault("--kv-transfer-config", json.dumps(config))
    elif framework == "sglang":
        if transfer or connector:
            raise Unwritable("engine.kv_transfer on sglang")
        if backend is not None:
            if backend not in ("nixl", "mooncake"):
                raise Unwritable("engine.kv_backend=%s on sglang" % backend)
            flags.setdefault("--disaggregation-transfer-backend", backend)
        if nixl_backends:
            flags.setdefault("--disaggregation-transfer-backend", "nixl")
            c["env"].setdefault("SGLANG_DISAGGREGATION_NIXL_BACKEND", nixl_backends)
    else:  # trtllm
        if transfer or connector:
            raise Unwritable("engine.kv_transfer on trtllm")
        if backend is not None:
            # The library that moves KV is cache_transceiver_config.backend in the engine config
            # (TRT-LLM's CacheTransceiverConfig: DEFAULT, UCX, NIXL, MPI, MOONCAKE).
            names = {"nixl": "NIXL", "ucx": "UCX", "mpi": "MPI", "mooncake": "MOONCAKE"}
            if backend not in names:
                raise Unwritable("engine.kv_backend=%s on trtllm" % backend)
            transceiver.setdefault("backend", names[backend])
        if nixl_backends:
            c["env"].setdefault("TRTLLM_NIXL_KVCACHE_BACKEND", nixl_backends)
        if transceiver:
            # The engine config file named by --extra-engine-args, read from the running
            # process's own argv (/proc/PID/cmdline, NUL-separated) as the probe reads it.
            path = "/config/engine.yaml"
            lines = ["cache_transceiver_config:"] + ["  %s: %s" % (k, v) for k, v in transceiver.items()]
            pod["files"]["config/engine.yaml"] = "\n".join(lines) + "\n"
            flags["--extra-engine-args"] = path
            argv = c["command"] + args + ["--extra-engine-args", path]
            pod["files"]["proc/1/cmdline"] = "\0".join(argv) + "\0"
            pod["files"]["proc/1/comm"] = "python3\n"
    if role != "worker" and "--disaggregation-mode" not in flags:
        flags["--disaggregation-mode"] = role
    for flag, value in flags.items():
        if flag == "--extra-engine-args" and framework == "trtllm":
            args += [flag, value]
        elif value == "true":
            args.append(flag)
        else:
            args += [flag, value]
    c["args"] = args


def _json_value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def _version(pod, lib, value):
    files = pod["files"]
    if lib in WHEELS:
        dist = "%s/%s-%s.dist-info" % (PYLIB, WHEELS[lib], value)
        files[dist + "/METADATA"] = ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
                                     % (WHEELS[lib].replace("_", "-"), value))
    elif lib == "nccl":
        files["usr/lib/x86_64-linux-gnu/libnccl.so." + value] = ""
    elif lib == "cuda":
        files["usr/local/cuda/version.json"] = (
            '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   }\n}\n' % value)
    elif lib == "kernel":
        files["proc/sys/kernel/osrelease"] = value + "\n"
    elif lib == "driver":
        text = _root_file("h100-ib-tools", "proc/driver/nvidia/version")
        files["proc/driver/nvidia/version"] = text.replace("550.54.14", value)
    elif lib == "ucx":
        text = _root_file("h100-ib-tools", "usr/share/fixtures/ucx_info-v.txt")
        files["usr/share/fixtures/ucx_info-v.txt"] = text.replace("1.19.0", value)
    elif lib == "ucx.system":
        # the pkg-config file UCX installs (Debian's libucx-dev, HPC-X): "Version: X"
        files["usr/lib/x86_64-linux-gnu/pkgconfig/ucx.pc"] = (
            "prefix=/usr\nName: ucx\nDescription: Unified Communication X Library\nVersion: %s\n" % value)
    elif lib == "libfabric":
        if "libfabric-2.4" not in pod["root"]:
            pod["root"].append("libfabric-2.4")
        text = _root_file("libfabric-2.4", "usr/share/fixtures/fi_info-version.txt")
        files["usr/share/fixtures/fi_info-version.txt"] = text.replace("2.4.0amzn1.0", value)
    else:
        raise Unwritable("version." + lib)


def _gpus(pod, model=None, count=None):
    text = _root_file("h100-ib-tools", "usr/share/fixtures/nvidia-smi-L-topo.txt")
    lines = text.split("\n")
    # lines 3..10 (1-based) are `nvidia-smi -L`'s eight GPU lines (the fake prints them).
    gpu = lines[2:10]
    if model is not None:
        gpu = [l.replace("NVIDIA H100 80GB HBM3", model) for l in gpu]
    if count is not None:
        n = int(count)
        if not 1 <= n <= 8:
            raise Unwritable("gpu.count=%s" % count)
        gpu = gpu[:n] + [""] * (8 - n)  # the fake prints lines 3-10: blanks are no GPUs
    lines[2:10] = gpu
    pod["files"]["usr/share/fixtures/nvidia-smi-L-topo.txt"] = "\n".join(lines)


def _efa(pod, count=1):
    """EFA devices instead of the ConnectX ports (roots/efa: efa_0 as the EFA driver shows it;
    efa_1.. are copies of its sysfs files, as a p5 node lists 32 alike)."""
    pod["root"] = ["base", "h100-ib-tools", "efa"]
    pod["remove"] += ["usr/bin/ibstat", "usr/bin/ibv_devices", "usr/bin/ucx_info",
                      "sys/module/nvidia_peermem"]
    top = os.path.join(_roots_dir(), "efa")
    for n in range(1, count):
        for sub in ("sys/class/infiniband/efa_0", ):
            for dirpath, _, files in os.walk(os.path.join(top, sub)):
                for f in files:
                    rel = os.path.relpath(os.path.join(dirpath, f), top)
                    with open(os.path.join(dirpath, f)) as fh:
                        pod["files"][rel.replace("efa_0", "efa_%d" % n)] = fh.read()
        # allocated to the pod by the EFA device plugin: its uverbs node
        pod["files"]["dev/infiniband/uverbs%d" % n] = ""
        pod["files"]["sys/class/infiniband_verbs/uverbs%d/ibdev" % n] = "efa_%d\n" % n


# Where images hold libnixl (scenario corpus-stack, ai-dynamo/dynamo #6671): Dynamo's own build,
# TRT-LLM's bundled copy beside its wrapper, the nixl_cu12 wheel's auditwheel-renamed copy, a
# source install under /usr/local/nixl.
NIXL_COPIES = {
    "dynamo": "opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/libnixl.so",
    "trtllm": PYLIB + "/tensorrt_llm/libs/nixl/libnixl.so",
    "wheel": PYLIB + "/nixl_cu12.libs/libnixl-5b4e2a1c.so",
    "source": "usr/local/nixl/lib/x86_64-linux-gnu/libnixl.so",
}


def _nixl_copies(pod, facts):
    n = int(facts["nixl.lib_copies"])
    bundled = facts.get("nixl.trtllm_bundled") == "true"
    order = (["trtllm"] if bundled else []) + [k for k in ("dynamo", "wheel", "source")]
    if not 1 <= n <= len(order):
        raise Unwritable("nixl.lib_copies=%d" % n)
    for key in order[:n]:
        pod["files"][NIXL_COPIES[key]] = ""
    if bundled:
        pod["files"][PYLIB + "/tensorrt_llm/libs/libtensorrt_llm_nixl_wrapper.so"] = ""
    first = facts.get("nixl.ld_library_path_first")
    if first is not None:
        rel = first.lstrip("/")
        if rel not in pod["files"]:
            raise Unwritable("nixl.ld_library_path_first=" + first)
        pod["containers"][0]["env"]["LD_LIBRARY_PATH"] = "/" + rel.rsplit("/", 1)[0] + ":/usr/local/lib"


def _unusable_devices(pod, n):
    """n devices Mooncake cannot use beside the 8 ConnectX ports: node_type 7 with link layer
    Unknown (roots/ib-unspecified-device's mlx5_8, copied as mlx5_9..)."""
    if not 0 <= n <= 4:
        raise Unwritable("rdma.unusable_devices=%d" % n)
    pod["root"].append("pkeys-full")
    top = os.path.join(_roots_dir(), "ib-unspecified-device")
    for k in range(n):
        for dirpath, _, files in os.walk(top):
            for f in files:
                rel = os.path.relpath(os.path.join(dirpath, f), top)
                if rel == "README.md":
                    continue
                with open(os.path.join(dirpath, f)) as fh:
                    pod["files"][rel.replace("mlx5_8", "mlx5_%d" % (8 + k)).replace(
                        "uverbs8", "uverbs%d" % (8 + k))] = fh.read()


def _ports_active(pod, n):
    """The first n of h100-ib's eight ports Active, the rest Down (sysfs state and phys_state)."""
    if not 0 <= n <= 8:
        raise Unwritable("nic.count=%d" % n)
    for i in range(n, 8):
        pod["files"]["sys/class/infiniband/mlx5_%d/ports/1/state" % i] = "1: DOWN\n"
        pod["files"]["sys/class/infiniband/mlx5_%d/ports/1/phys_state" % i] = "3: Disabled\n"


def _peermem(pod, value):
    modules = _root_file("h100-ib", "proc/modules").split("\n")
    if value == "nvidia_peermem":
        return
    if value in ("none", "dmabuf"):
        pod["files"]["proc/modules"] = "\n".join(l for l in modules if not l.startswith("nvidia_peermem "))
        pod["remove"].append("sys/module/nvidia_peermem")
        if value == "none":
            pod["root"].append("proprietary-driver")  # no DMA-BUF export either (roots/README.md)
        return
    raise Unwritable("peermem.module=" + value)


def render(pod, facts, role="worker"):
    """Writes one pod's facts (names without a prefill./decode. prefix) into `pod`."""
    facts = dict(facts)
    for name, value in list(facts.items()):
        if name.startswith("env."):
            pod["containers"][0]["env"][name[4:]] = value
    if any(k.startswith("engine.") for k in facts) or role != "worker":
        _engine(pod, facts, role)
    gpu_model, gpu_count = facts.get("gpu.model"), facts.get("gpu.count")
    if gpu_model is not None or gpu_count is not None:
        _gpus(pod, gpu_model, gpu_count)
    for name, value in facts.items():
        if name.startswith(("env.", "engine.")) or name in ("gpu.model", "gpu.count"):
            continue
        if name.startswith("version."):
            _version(pod, name[len("version."):], value)
        elif name in ("pod.hostNetwork", "pod.hostIPC", "pod.hostPID"):
            key = {"pod.hostNetwork": "host_network", "pod.hostIPC": "host_ipc",
                   "pod.hostPID": "host_pid"}[name]
            pod[key] = value == "true"
        elif name == "pod.podIP":
            pod["ip"] = value
        elif name == "fabric.link_layer":
            if value == "Ethernet":
                pod["root"].append("roce")
            elif value != "InfiniBand":
                raise Unwritable("%s=%s" % (name, value))
        elif name == "platform.efa":
            if value == "true":
                _efa(pod, int(facts.get("nic.count", "1")))
            elif value != "false":
                raise Unwritable("%s=%s" % (name, value))
        elif name == "nvlink.multinode":
            if value == "true":
                pod["root"] += ["gb200", "gb200-imex", "gb200-mnnvl"]
            else:
                raise Unwritable("%s=%s" % (name, value))
        elif name == "kernel.config.CONFIG_PCI_P2PDMA":
            # /proc/config.gz: a real one without the option, and its twin with it =y
            layer = {"unset": "kconfig-p2pdma-unset", "y": "kconfig-p2pdma-y"}.get(value)
            if layer is None:
                raise Unwritable("%s=%s" % (name, value))
            pod["root"].append(layer)
        elif name == "rdma.non_efa_beside_efa":
            if facts.get("platform.efa") != "true":
                _efa(pod)
            if value == "true":
                pod["root"].append("efa-hostpath-mlx5")  # a hostPath /dev/infiniband's mlx5 HCA
            elif value != "false":
                raise Unwritable("%s=%s" % (name, value))
        elif name == "rdma.unusable_devices":
            _unusable_devices(pod, int(value))
        elif name == "rdma.limited_pkey_devices":
            pod["root"].append("pkeys-full")  # every port's pkeys/0 0xffff (full membership)
            n = int(value)
            if not 0 <= n <= 8:
                raise Unwritable("%s=%s" % (name, value))
            for i in range(n):
                pod["files"]["sys/class/infiniband/mlx5_%d/ports/1/pkeys/0" % i] = "0x7fff\n"
        elif name == "ucx.enable_mt":
            text = _root_file("h100-ib-tools", "usr/share/fixtures/ucx_info-v.txt")
            if value == "false":  # the same build configured without --enable-mt (nixl #96)
                pod["files"]["usr/share/fixtures/ucx_info-v.txt"] = text.replace(" --enable-mt", "")
            elif value != "true":
                raise Unwritable("%s=%s" % (name, value))
        elif name == "ucx.transports":
            listed = set(value.split(","))
            base = {"self", "tcp", "rc_verbs", "rc_mlx5", "dc_mlx5", "ud_verbs", "ud_mlx5", "cuda_copy", "cuda_ipc"}
            if listed - base == {"gga_mlx5"}:
                pod.setdefault("fixtures", {})["usr/share/fixtures/ucx_info-d.txt"] = \
                    "ucx_info/synthetic-1.19-d-gga-mlx5.txt"
            elif listed - base:
                raise Unwritable("%s=%s" % (name, value))
        elif name in ("nixl.lib_copies", "nixl.trtllm_bundled", "nixl.ld_library_path_first"):
            if name == "nixl.lib_copies":
                _nixl_copies(pod, facts)
        elif name == "nvlink.local":
            if value == "false":
                pod["root"].append("pcie-gpus")  # 2x A100 PCIe: GPU-GPU SYS, no NVLink
            elif value != "true":
                raise Unwritable("%s=%s" % (name, value))
        elif name == "nic.count":
            if facts.get("platform.efa") != "true":  # EFA: that many devices, written above
                _ports_active(pod, int(value))
        elif name == "nic.shared_by_gpus":
            _ports_active(pod, 4 if value == "true" else 8)
        elif name == "peermem.module":
            _peermem(pod, value)
        elif name == "platform.cloud":
            pod["node"] = "node-" + pod["name"]
            pod.setdefault("_node", {})["provider_id"] = {
                "aws": "aws:///us-west-2a/i-0abc", "gcp": "gce://proj/us-central1-a/vm-1",
                "azure": "azure:///subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/virtualMachines/vm-1",
                "oci": "oci://ocid1.instance.oc1.iad.abc"}.get(value) or _unwritable(name, value)
        elif name == "log.line":
            key = "previous_log" if facts.get("log.container") == "previous" else "log"
            pod.setdefault(key, []).append(value)
            if key == "previous_log":
                pod["restart_count"] = 1
        elif name == "log.container":
            continue
        elif name.startswith("event."):
            continue  # written whole below
        else:
            raise Unwritable(name)
    if any(k.startswith("event.") for k in facts):
        pod.setdefault("events", []).append({
            "type": facts.get("event.type", "Warning"), "reason": facts.get("event.reason", "Failed"),
            "message": facts.get("event.message", ""), "count": 1, "time": "2026-12-03T10:04:31Z"})
    return pod


def _unwritable(name, value):
    raise Unwritable("%s=%s" % (name, value))


def render_pair(prefix, dgd, facts):
    """A prefill and a decode pod of one DGD from a pair's facts (prefill.X, decode.X, pair.X)."""
    sides = {"prefill": {}, "decode": {}}
    same_node = None
    gid_differs = None
    for name, value in facts.items():
        side, _, rest = name.partition(".")
        if side in sides:
            sides[side][rest] = value
        elif name == "pair.same_node":
            same_node = value == "true"
        elif name == "pair.roce_v2_gid_index_differs":
            gid_differs = value == "true"
        else:
            raise Unwritable(name)
    pods = []
    for role in ("prefill", "decode"):
        pod = new_pod("%s-%s" % (prefix, role), dgd, role)
        render(pod, sides[role], role)
        pods.append(pod)
    if same_node:
        pods[1]["node"] = pods[0]["node"]
    if gid_differs is not None:
        # RoCE GID tables on both sides (roots/roce-gids: IPv4 RoCE v2 at index 3); where they
        # differ, the decode node's mlx5_0 has entries 2 and 3 empty and its IPv4 v2 GID at 5
        # (scenario known-trouble-more's decode-roce-sparse, NVIDIA/nccl #1573).
        for p in pods:
            p["root"] += ["roce", "roce-gids"]
        if gid_differs:
            pods[1]["files"].update(_sparse_gid_files())
    pods[0]["ip"], pods[1]["ip"] = "10.70.0.1", "10.70.0.2"
    return pods


def _sparse_gid_files():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios", "known-trouble-more",
                        "scenario.json")
    with open(path) as f:
        doc = json.load(f)
    pod = next(p for p in doc["pods"] if p["name"] == "known-trouble-more-0-decode-roce-sparse")
    return dict(pod["files"])


def scenario(pods, description):
    """A scenario.json document of these pods (node objects from their `_node` entries)."""
    nodes = {}
    out = []
    for p in pods:
        p = copy.deepcopy(p)
        node = p.pop("_node", None)
        if node:
            nodes[p["node"]] = dict({"internal_ips": ["10.80.0.1"], "labels": {}}, **node)
        out.append(p)
    doc = {"description": description, "defaults": {"namespace": "dynamo"}, "pods": out}
    if nodes:
        doc["nodes"] = nodes
    return doc
