"""Scenario folders: tests/e2e/scenarios/<name>/scenario.json.

scenario.json:
  {
    "description": "...",
    "defaults": { <pod fields applied to every pod, deep-merged> },
    "pods": [ { <pod fields> }, ... ],
    "replicate": [ {"count": 32, "name": "worker-{i}", "pod": { <pod fields> }} ],
    "nodes": {"<node name>": {"provider_id": "aws:///us-west-2a/i-0abc", "internal_ips": ["10.0.1.5"],
              "labels": {}}}  -- node objects GET /api/v1/nodes/<name> serves (others: 404)
  }

Pod fields:
  name, namespace (default "default"), labels {}, node (null = unscheduled),
  ip, phase ("Running"), ready (true), uid (derived when absent),
  containers: [ {"name": "main", "image": "...", "env": {K: V}, "running": true,
                 "reason": "ContainerCreating", "command": [...], "args": [...]} ]
               (first is the default; command/args appear in the pod spec only)
  host_ipc, host_pid, host_network (false) -- spec.hostIPC / spec.hostPID / spec.hostNetwork
  log: "text" or ["line", ...] -- the first container's log (GET pods/log), each line written
                            one second after the one before, from 2026-12-03T10:00:00Z
  log_fixture: "logs/x.log" -- the same from a file under tests/fixtures (its # source: line dropped)
  previous_log, previous_log_fixture -- its previous instance's log (pods/log?previous=true)
  log_hang: false        -- GET pods/log of this pod answers nothing for 10 minutes (a kubelet
                            that never answers; the client's deadline must end the read)
  restart_count: 0       -- the first container's restartCount
  events: [ {"type": "Warning", "reason": "...", "message": "...", "count": 1,
             "time": "2026-12-03T10:04:31Z"} ] -- the pod's events (GET events, fieldSelector
                            involvedObject.name)
  root: [layer, ...]     -- folders under tests/e2e/roots/, copied in order
  files: {"rel/path": "content"}  -- inline files written after the layers
  fixtures: {"rel/path": "transfer/x.txt"} -- files copied from tests/fixtures after the layers
  remove: ["rel/path"]   -- paths removed after the layers (e.g. "bin/sh")
  fifos: ["rel/path"]    -- named pipes no one writes to: a read of one never returns (a hung
                            driver's file)
  busybox: true          -- install /bin/busybox and its applets (false: no shell)
  python: false          -- this machine's Python 3.11 (stdlib, no site packages) as
                            /usr/bin/python3, hard-linked with the libraries it loads
  stand_in_libraries: [] -- files replaced by a real shared library of this machine (zlib), e.g.
                            NIXL plugins that the pod's real dynamic loader must be able to map
  host_tools: []         -- real tools of this machine put into the root with what they load
                            (["ucx_info", "ucx_perftest", "ibv_devinfo"]: Debian's UCX and verbs)
  ucx_wheel: "rel/dir"   -- this machine's Debian UCX as a NIXL wheel's .libs directory holds it
                            (renamed core libraries, modules in ucx/; fakeapi/sandbox.py)
  exec: {
    "latency_ms": 0,      -- delay before the command starts
    "hang": false,        -- the command is replaced by an endless sleep
    "forbidden": false,   -- RBAC 403 on pods/exec
    "huge_output_mib": 0, -- that many MiB of stdout before the command's own output
    "memlock_bytes": null, -- RLIMIT_MEMLOCK (soft=hard) for the exec, <= 8 MiB here
    "lose_output": 0,     -- that many first execs relay only 64 bytes of stdout, yet end with
                             exit 0, as kubectl's client does now and then (kubernetes#124571)
    "keep_on_disconnect": false -- when the client goes, the command is not killed (a real
                             runtime keeps it); only its stdin (kubectl exec -i) reaches EOF
    "ending": null,       -- how the stream ends after the status (server.ENDINGS): "polite"
                             (close handshake), "close-drop" (close frame, connection closed at
                             once), "fin" (no close frame), "rst" (reset), or "rotate" (each in
                             turn); null: $FAKEAPI_EXEC_ENDING, else "rotate"
    "protocols": ["v5.channel.k8s.io"] -- the channel protocols the server speaks for this pod,
                             the first the client offers is chosen (["v4.channel.k8s.io"]: a
                             server before v5, without the stdin close signal)
  }
Values in "name" and string fields of replicated pods may use {i} (0-based index).
"""
import copy
import hashlib
import json
import os
import re

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIOS_DIR = os.path.join(E2E_DIR, "scenarios")
ROOTS_DIR = os.path.join(E2E_DIR, "roots")
FIXTURES_DIR = os.path.join(os.path.dirname(E2E_DIR), "fixtures")

POD_DEFAULTS = {
    "namespace": "default",
    "labels": {},
    "node": "node-0",
    "ip": "10.0.0.1",
    "phase": "Running",
    "ready": True,
    "containers": [{"name": "main"}],
    "root": ["base"],
    "files": {},
    "remove": [],
    "busybox": True,
    "python": False,
    "host_tools": [],
    "stand_in_libraries": [],
    "exec": {},
}
EXEC_DEFAULTS = {"latency_ms": 0, "hang": False, "forbidden": False,
                 "huge_output_mib": 0, "memlock_bytes": None, "lose_output": 0,
                 "keep_on_disconnect": False, "ending": None, "protocols": ["v5.channel.k8s.io"]}


def deep_merge(base, over):
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def _subst(value, i):
    if isinstance(value, str):
        return value.replace("{i}", str(i))
    if isinstance(value, list):
        return [_subst(v, i) for v in value]
    if isinstance(value, dict):
        return {_subst(k, i): _subst(v, i) for k, v in value.items()}
    return value


class Pod:
    def __init__(self, spec):
        spec["labels"] = {k: v for k, v in spec["labels"].items() if v is not None}
        self.spec = spec
        self.name = spec["name"]
        self.namespace = spec["namespace"]
        self.exec = deep_merge(EXEC_DEFAULTS, spec.get("exec", {}))
        self.uid = spec.get("uid") or str(_uuid_from(self.namespace + "/" + self.name))

    def log_lines(self, cname, previous):
        """[(time, text)] of a container's current or previous log; None where the kubelet
        has none (never started; never restarted)."""
        first = self.spec["containers"][0]["name"] == cname
        c = self.container(cname)
        if previous:
            if not first or not self.spec.get("restart_count"):
                return None
            text = _log_text(self.spec, "previous_log")
            start = 0
        else:
            ran = c.get("running", self.spec["phase"] == "Running") or (first and self.spec.get("restart_count"))
            if not ran or not self.spec["node"]:
                return None
            text = _log_text(self.spec, "log") if first else ""
            start = 3600
        lines = text.splitlines()
        return [("2026-12-03T%02d:%02d:%02d.%09dZ" % (10 + (start + i) // 3600, (start + i) // 60 % 60,
                                                     (start + i) % 60, 1000 * i), line)
                for i, line in enumerate(lines)]

    def events_k8s(self):
        out = []
        for i, e in enumerate(self.spec.get("events", [])):
            t = e.get("time", "2026-12-03T10:04:31Z")
            out.append({"metadata": {"name": "%s.%016x" % (self.name, i + 1), "namespace": self.namespace,
                                     "resourceVersion": str(100 + i)},
                        "involvedObject": {"kind": "Pod", "namespace": self.namespace, "name": self.name,
                                           "uid": self.uid, "apiVersion": "v1"},
                        "reason": e["reason"], "message": e["message"],
                        "source": {"component": e.get("component", "kubelet"), "host": self.spec["node"] or ""},
                        "firstTimestamp": t, "lastTimestamp": t, "count": e.get("count", 1),
                        "type": e.get("type", "Warning"), "reportingComponent": e.get("component", "kubelet")})
        return out

    def container(self, name):
        for c in self.spec["containers"]:
            if c["name"] == name:
                return c
        return None

    def to_k8s(self):
        s = self.spec
        created = "2026-11-30T08:00:00Z"
        containers, statuses = [], []
        for c in s["containers"]:
            env = [{"name": k, "value": v} for k, v in c.get("env", {}).items()]
            container = {"name": c["name"],
                         "image": c.get("image", "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.1"),
                         "env": env}
            for key in ("command", "args"):
                if key in c:
                    container[key] = list(c[key])
            containers.append(container)
            running = c.get("running", s["phase"] == "Running")
            st = {"name": c["name"], "image": containers[-1]["image"],
                  "ready": bool(running and s["ready"]), "started": bool(running),
                  "restartCount": s.get("restart_count", 0) if c is s["containers"][0] else 0}
            if running:
                st["state"] = {"running": {"startedAt": created}}
                st["containerID"] = "containerd://" + hashlib.sha256(
                    (self.uid + c["name"]).encode()).hexdigest()
            else:
                st["state"] = {"waiting": {"reason": c.get("reason", "ContainerCreating")}}
            statuses.append(st)
        ready = s["phase"] == "Running" and s["ready"] and all(x["ready"] for x in statuses)
        status = {"phase": s["phase"], "qosClass": "Burstable",
                  "conditions": [{"type": "PodScheduled",
                                  "status": "True" if s["node"] else "False",
                                  "lastTransitionTime": created}]}
        if s["node"]:
            status["conditions"] += [
                {"type": "Ready", "status": "True" if ready else "False", "lastTransitionTime": created},
                {"type": "ContainersReady", "status": "True" if ready else "False",
                 "lastTransitionTime": created}]
            status["hostIP"] = s.get("host_ip", "192.168.0.1")
            if s.get("ip"):
                status["podIP"] = s["ip"]
                status["podIPs"] = [{"ip": s["ip"]}]
            status["startTime"] = created
            status["containerStatuses"] = statuses
        else:
            status["conditions"][0].update(reason="Unschedulable",
                                           message="0/4 nodes are available: 4 Insufficient nvidia.com/gpu.")
        spec = {"containers": containers, "restartPolicy": "Always",
                "serviceAccountName": "default"}
        if s["node"]:
            spec["nodeName"] = s["node"]
        for field, key in (("host_ipc", "hostIPC"), ("host_pid", "hostPID"),
                           ("host_network", "hostNetwork")):
            if s.get(field):
                spec[key] = True
        return {"kind": "Pod", "apiVersion": "v1",
                "metadata": {"name": self.name, "namespace": self.namespace, "uid": self.uid,
                             "resourceVersion": "1", "creationTimestamp": created,
                             "labels": dict(s["labels"])},
                "spec": spec, "status": status}


def _log_text(spec, field):
    """A log field: inline text or lines, else the file named by FIELD_fixture (tests/fixtures,
    first line '# source: ...' or '# synthetic: ...' dropped)."""
    if field + "_fixture" in spec:
        with open(os.path.join(FIXTURES_DIR, spec[field + "_fixture"]), errors="replace") as f:
            text = f.read()
        return text.split("\n", 1)[1] if text.startswith("# ") else text
    value = spec.get(field, "")
    return "\n".join(value) if isinstance(value, list) else value


def _uuid_from(text):
    import uuid
    return uuid.UUID(hashlib.md5(text.encode()).hexdigest())


class Scenario:
    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.name = os.path.basename(self.path)
        with open(os.path.join(self.path, "scenario.json")) as f:
            doc = json.load(f)
        self.description = doc.get("description", "")
        defaults = deep_merge(POD_DEFAULTS, doc.get("defaults", {}))
        specs = [deep_merge(defaults, p) for p in doc.get("pods", [])]
        for rep in doc.get("replicate", []):
            for i in range(rep["count"]):
                p = _subst(deep_merge(rep.get("pod", {}), {"name": rep["name"]}), i)
                specs.append(deep_merge(defaults, p))
        self.pods = [Pod(s) for s in specs]
        self.nodes = doc.get("nodes", {})
        seen = set()
        for p in self.pods:
            key = (p.namespace, p.name)
            if key in seen:
                raise ValueError("duplicate pod %s/%s in %s" % (p.namespace, p.name, self.path))
            seen.add(key)

    def namespaces(self):
        return sorted({"default", "kube-system"} | {p.namespace for p in self.pods})

    def node(self, name):
        """The Node object GET /api/v1/nodes/<name> answers, or None (404)."""
        spec = self.nodes.get(name)
        if spec is None:
            return None
        addresses = [{"type": "InternalIP", "address": a} for a in spec.get("internal_ips", [])]
        addresses += [{"type": "Hostname", "address": name}]
        labels = dict({"kubernetes.io/hostname": name}, **spec.get("labels", {}))
        node = {"kind": "Node", "apiVersion": "v1",
                "metadata": {"name": name, "uid": "00000000-0000-0000-0001-%012x" % (hash(name) & 0xFFFFFFFFFFFF),
                             "resourceVersion": "1", "creationTimestamp": "2026-11-30T08:00:00Z",
                             "labels": labels},
                "spec": {}, "status": {"addresses": addresses}}
        if "provider_id" in spec:
            node["spec"]["providerID"] = spec["provider_id"]
        return node

    def find(self, namespace, name):
        for p in self.pods:
            if p.namespace == namespace and p.name == name:
                return p
        return None

    def select(self, namespace, selector):
        match = parse_selector(selector or "")
        return [p for p in self.pods
                if (namespace is None or p.namespace == namespace) and match(p.spec["labels"])]


def load(name_or_path):
    path = name_or_path if os.path.isdir(name_or_path) else os.path.join(SCENARIOS_DIR, name_or_path)
    return Scenario(path)


# --- label selectors (the set-based grammar of k8s.io/apimachinery/pkg/labels) ---

_TOKEN = re.compile(r"\s*(\(|\)|,|!=|==|=|!|[^\s(),!=]+)")


def parse_selector(text):
    """Return a predicate labels->bool. Raises ValueError on a malformed selector."""
    tokens, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError("unable to parse requirement: %r" % text)
        tokens.append(m.group(1))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    reqs, i = [], 0

    def take():
        nonlocal i
        if i >= len(tokens):
            raise ValueError("unexpected end of selector %r" % text)
        i += 1
        return tokens[i - 1]

    def ident(t):
        if t in ("(", ")", ",", "!", "=", "==", "!="):
            raise ValueError("found %r, expected: identifier in %r" % (t, text))
        return t

    while i < len(tokens):
        t = take()
        if t == "!":
            key = ident(take())
            reqs.append(lambda l, k=key: k not in l)
        else:
            key = ident(t)
            op = tokens[i] if i < len(tokens) else ","
            if op == ",":
                reqs.append(lambda l, k=key: k in l)
            elif op in ("=", "==", "!="):
                i += 1
                val = tokens[i] if i < len(tokens) and tokens[i] not in (",",) else ""
                if val:
                    i += 1
                if op == "!=":
                    reqs.append(lambda l, k=key, v=val: l.get(k) != v)
                else:
                    reqs.append(lambda l, k=key, v=val: l.get(k) == v)
            elif op in ("in", "notin"):
                i += 1
                if take() != "(":
                    raise ValueError("expected ( in %r" % text)
                vals = set()
                while True:
                    v = take()
                    if v == ")":
                        break
                    if v != ",":
                        vals.add(v)
                if op == "in":
                    reqs.append(lambda l, k=key, vs=vals: l.get(k) in vs)
                else:
                    reqs.append(lambda l, k=key, vs=vals: l.get(k) not in vs)
            else:
                raise ValueError("unable to parse requirement %r in %r" % (op, text))
        if i < len(tokens):
            if take() != ",":
                raise ValueError("expected , in %r" % text)
    return lambda labels: all(r(labels) for r in reqs)
