"""HTTP side of the fake API server: discovery, pods, exec (WebSocket v5.channel.k8s.io)."""
import json
import os
import socket
import struct
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import rbac
from . import sandbox as sbx
from . import scenario as scn
from . import websocket as ws

SERVER_MINOR = "31"
V5 = "v5.channel.k8s.io"

API_VERSIONS = {"kind": "APIVersions", "versions": ["v1"],
                "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0",
                                                "serverAddress": "127.0.0.1"}]}
DGD_GROUP = "nvidia.com"
DGD_VERSION = "v1alpha1"
DGD_LABEL = "nvidia.com/dynamo-graph-deployment-name"
API_GROUPS = {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
    {"name": DGD_GROUP, "versions": [{"groupVersion": DGD_GROUP + "/" + DGD_VERSION, "version": DGD_VERSION}],
     "preferredVersion": {"groupVersion": DGD_GROUP + "/" + DGD_VERSION, "version": DGD_VERSION}}]}
API_DGD = {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": DGD_GROUP + "/" + DGD_VERSION,
           "resources": [{"name": "dynamographdeployments", "singularName": "dynamographdeployment",
                          "namespaced": True, "kind": "DynamoGraphDeployment", "verbs": ["get", "list"],
                          "shortNames": ["dgd"]}]}
API_V1 = {"kind": "APIResourceList", "groupVersion": "v1", "resources": [
    {"name": "pods", "singularName": "pod", "namespaced": True, "kind": "Pod",
     "verbs": ["get", "list"], "shortNames": ["po"], "categories": ["all"]},
    {"name": "namespaces", "singularName": "namespace", "namespaced": False, "kind": "Namespace",
     "verbs": ["get", "list"], "shortNames": ["ns"]},
    {"name": "pods/exec", "singularName": "", "namespaced": True, "kind": "PodExecOptions",
     "verbs": ["create", "get"]},
    {"name": "pods/log", "singularName": "", "namespaced": True, "kind": "Pod", "verbs": ["get"]},
    {"name": "events", "singularName": "event", "namespaced": True, "kind": "Event",
     "verbs": ["get", "list"], "shortNames": ["ev"]},
    {"name": "nodes", "singularName": "node", "namespaced": False, "kind": "Node",
     "verbs": ["get", "list"], "shortNames": ["no"]},
]}


def status(code, reason, message, details=None):
    st = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
          "message": message, "reason": reason, "code": code}
    if details:
        st["details"] = details
    return st


def namespace(name):
    return {"kind": "Namespace", "apiVersion": "v1",
            "metadata": {"name": name, "uid": "00000000-0000-0000-0000-%012x" % (hash(name) & 0xFFFFFFFFFFFF),
                         "resourceVersion": "1", "creationTimestamp": "2026-11-30T08:00:00Z",
                         "labels": {"kubernetes.io/metadata.name": name}},
            "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}


def exit_status(rc, argv):
    if rc == 0:
        return {"metadata": {}, "status": "Success"}
    return {"metadata": {}, "status": "Failure",
            "message": "command terminated with non-zero exit code: error executing command "
                       "%s, exit code %d" % (argv, rc),
            "reason": "NonZeroExitCode",
            "details": {"causes": [{"reason": "ExitCode", "message": str(rc)}]}}


class FakeAPI(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's default backlog is 5: a burst of exec connections (one proxy opens them all
    # at once) overflowed it and was reset. An apiserver's Go listener takes somaxconn.
    request_queue_size = 1024

    def __init__(self, scenario, workdir, request_log, port=0, rules=None):
        super().__init__(("127.0.0.1", port), Handler)
        self.rules = rules  # rbac.Rules, or None: everything allowed
        self.scenario = scenario
        self.workdir = workdir
        self.sandboxes = {(p.namespace, p.name): sbx.sandbox_for(p, workdir) for p in scenario.pods}
        self.execs_seen = {}  # (namespace, pod) -> execs started, for exec.lose_output
        self.execs_lock = threading.Lock()
        self.request_log = request_log
        self.log_lock = threading.Lock()
        self.exec_id = 0
        self.endings_seen = 0  # execs ended so far, for the "rotate" ending
        self.reset_fds = set()  # sockets to close with a reset (SO_LINGER 0), not SHUT_WR first

    def exec_ending(self, pod, user_agent):
        """How this exec's stream ends: the pod's exec.ending, else $FAKEAPI_EXEC_ENDING, else
        "rotate": each of ENDINGS in turn, so every module meets every one. kubectl's own exec
        (client-go) drops a status that no close frame follows and exits 1, so "rotate" gives
        kubectl only the endings with a close frame; test_plugin_endings shows the rest."""
        ending = pod.exec.get("ending") or os.environ.get("FAKEAPI_EXEC_ENDING") or "rotate"
        if ending != "rotate":
            return ending
        endings = ENDINGS if user_agent.startswith("kubectl-dynamo_icheck") else CLOSING
        with self.execs_lock:
            self.endings_seen += 1
            return endings[self.endings_seen % len(endings)]

    def shutdown_request(self, request):
        fd = request.fileno()
        if fd in self.reset_fds:  # no FIN first: the close itself sends the RST
            self.reset_fds.discard(fd)
            self.close_request(request)
            return
        super().shutdown_request(request)

    def log_request_line(self, entry):
        with self.log_lock:
            with open(self.request_log, "a") as f:
                f.write(json.dumps(entry) + "\n")


# How a real server ends an exec stream after the status frame (issue 27): the close handshake,
# waiting for the client's reply ("polite", what kubelet behind a Go apiserver does); the close
# frame and the connection closed at once ("close-drop", Go's x/net/websocket: the client's reply
# meets a closed socket); FIN without a close frame ("fin"); a reset ("rst", SO_LINGER 0).
ENDINGS = ("polite", "close-drop", "fin", "rst")
CLOSING = ("polite", "close-drop")  # the endings with a close frame


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fakeapi/1"

    def log_message(self, fmt, *args):  # the JSON request log replaces stderr chatter
        pass

    # -- plumbing --
    def _record(self):
        u = urllib.parse.urlsplit(self.path)
        self.url_path = u.path
        self.query = urllib.parse.parse_qs(u.query, keep_blank_values=True)
        self.server.log_request_line({
            "time": time.time(), "method": self.command, "path": u.path, "query": self.query,
            "ua": self.headers.get("User-Agent", ""),
            "kubectl_command": self.headers.get("Kubectl-Command", ""),
            "upgrade": self.headers.get("Upgrade", ""),
            "protocol": self.headers.get("Sec-WebSocket-Protocol", "")})

    def _drain_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)

    def send_json(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def not_found(self):
        self.send_json(404, status(404, "NotFound", "the server could not find the requested resource"))

    def denied(self):
        """Sends the 403 when --rbac rules do not allow this request; True if it did."""
        if self.server.rules is None:
            return False
        attrs = rbac.attributes(self.command, self.url_path.strip("/").split("/"))
        if attrs is None or self.server.rules.allows(*attrs[:4]):
            return False
        self.send_json(403, rbac.forbidden(*attrs))
        return True

    # -- methods --
    def do_GET(self):
        self._record()
        if self.denied():
            return
        p = self.url_path.rstrip("/") or "/"
        parts = p.strip("/").split("/")
        if p == "/version":
            return self.send_json(200, {"major": "1", "minor": SERVER_MINOR,
                                        "gitVersion": "v1.%s.0" % SERVER_MINOR,
                                        "platform": "linux/amd64"})
        if p == "/api":
            return self.send_json(200, API_VERSIONS)
        if p == "/apis":
            return self.send_json(200, API_GROUPS)
        if p == "/api/v1":
            return self.send_json(200, API_V1)
        if p == "/apis/%s/%s" % (DGD_GROUP, DGD_VERSION):
            return self.send_json(200, API_DGD)
        if len(parts) == 6 and parts[:3] == ["apis", DGD_GROUP, DGD_VERSION] and parts[5] == "dynamographdeployments":
            return self.list_dgds(parts[4])
        if p == "/api/v1/pods":
            return self.list_pods(None)
        if len(parts) == 4 and parts[:3] == ["api", "v1", "nodes"]:
            node = self.server.scenario.node(parts[3])
            if node is None:
                return self.send_json(404, status(404, "NotFound", 'nodes "%s" not found' % parts[3],
                                                  {"name": parts[3], "kind": "nodes"}))
            return self.send_json(200, node)
        if p == "/api/v1/namespaces":
            return self.send_json(200, {"kind": "NamespaceList", "apiVersion": "v1",
                                        "metadata": {"resourceVersion": "1"},
                                        "items": [namespace(n) for n in self.server.scenario.namespaces()]})
        if len(parts) == 4 and parts[:3] == ["api", "v1", "namespaces"]:
            if parts[3] in self.server.scenario.namespaces():
                return self.send_json(200, namespace(parts[3]))
            return self.send_json(404, status(404, "NotFound", 'namespaces "%s" not found' % parts[3],
                                              {"name": parts[3], "kind": "namespaces"}))
        if len(parts) >= 5 and parts[:3] == ["api", "v1", "namespaces"] and parts[4] == "pods":
            ns = parts[3]
            if len(parts) == 5:
                return self.list_pods(ns)
            if len(parts) == 6:
                return self.get_pod(ns, parts[5])
            if len(parts) == 7 and parts[6] == "exec":
                return self.exec_ws(ns, parts[5])
            if len(parts) == 7 and parts[6] == "log":
                return self.pod_log(ns, parts[5])
        if len(parts) == 5 and parts[:3] == ["api", "v1", "namespaces"] and parts[4] == "events":
            return self.list_events(parts[3])
        return self.not_found()

    def do_POST(self):
        self._record()
        self._drain_body()
        if self.denied():
            return
        parts = self.url_path.strip("/").split("/")
        if len(parts) == 7 and parts[:3] == ["api", "v1", "namespaces"] and parts[6] == "exec":
            # SPDY (kubectl's fallback): same admission answers as the WebSocket path, else 400.
            err = self.exec_precheck(parts[3], parts[5])
            if err:
                return self.send_json(err["code"], err)
            return self.send_json(400, status(400, "BadRequest",
                                              "fakeapi: SPDY exec is not supported, use WebSocket "
                                              "v5.channel.k8s.io"))
        self.method_not_allowed()

    def method_not_allowed(self):
        if not hasattr(self, "url_path"):
            self._record()
        self._drain_body()
        self.send_json(405, status(405, "MethodNotAllowed",
                                   "fakeapi is read-only: %s %s is not allowed"
                                   % (self.command, self.url_path)))

    do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_TRACE = do_CONNECT = method_not_allowed

    # -- pods --
    def list_pods(self, ns):
        try:
            pods = self.server.scenario.select(ns, self.query.get("labelSelector", [""])[0])
        except ValueError as e:
            return self.send_json(400, status(400, "BadRequest", "unable to parse requirement: %s" % e))
        self.send_json(200, {"kind": "PodList", "apiVersion": "v1",
                             "metadata": {"resourceVersion": "1"},
                             "items": [p.to_k8s() for p in pods]})

    def list_dgds(self, ns):
        """The DynamoGraphDeployments the scenario's pods belong to (by their operator label)."""
        names = sorted({p.spec["labels"][DGD_LABEL] for p in self.server.scenario.select(ns, "")
                        if DGD_LABEL in p.spec["labels"]})
        items = [{"apiVersion": DGD_GROUP + "/" + DGD_VERSION, "kind": "DynamoGraphDeployment",
                  "metadata": {"name": n, "namespace": ns, "resourceVersion": "1"}} for n in names]
        self.send_json(200, {"apiVersion": DGD_GROUP + "/" + DGD_VERSION, "kind": "DynamoGraphDeploymentList",
                             "metadata": {"resourceVersion": "1"}, "items": items})

    def get_pod(self, ns, name):
        pod = self.server.scenario.find(ns, name)
        if not pod:
            return self.send_json(404, status(404, "NotFound", 'pods "%s" not found' % name,
                                              {"name": name, "kind": "pods"}))
        self.send_json(200, pod.to_k8s())

    # -- logs and events --
    def send_text(self, code, text):
        body = text.encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def pod_log(self, ns, name):
        """GET pods/log as the kubelet answers it: tailLines, then limitBytes from the start of
        what is left, timestamps=true prefixes each line with its RFC 3339 time; previous=true
        reads the container's last instance (400 when it never restarted); follow is refused
        (the plugin must never ask for it)."""
        pod = self.server.scenario.find(ns, name)
        if not pod:
            return self.send_json(404, status(404, "NotFound", 'pods "%s" not found' % name,
                                              {"name": name, "kind": "pods"}))
        q = lambda k, d="": self.query.get(k, [d])[0]
        if q("follow") in ("true", "1"):
            return self.send_json(400, status(400, "BadRequest", "fakeapi: follow is not served"))
        if pod.spec.get("log_hang"):
            time.sleep(600)  # the plugin's deadline ends the read long before
            return
        names = [c["name"] for c in pod.spec["containers"]]
        cname = q("container") or (names[0] if len(names) == 1 else "")
        if not cname:
            return self.send_json(400, status(400, "BadRequest", "a container name must be specified for pod %s, "
                                              "choose one of: [%s]" % (name, " ".join(names))))
        if cname not in names:
            return self.send_json(400, status(400, "BadRequest", "container %s is not valid for pod %s"
                                              % (cname, name)))
        lines = pod.log_lines(cname, q("previous") in ("true", "1"))
        if lines is None:
            c = pod.container(cname)
            if q("previous") in ("true", "1"):
                msg = 'previous terminated container "%s" in pod "%s" not found' % (cname, name)
            else:
                msg = 'container "%s" in pod "%s" is waiting to start: %s' % (
                    cname, name, c.get("reason", "ContainerCreating"))
            return self.send_json(400, status(400, "BadRequest", msg))
        if q("tailLines"):
            n = int(q("tailLines"))
            lines = lines[-n:] if n > 0 else []
        if q("timestamps") in ("true", "1"):
            lines = ["%s %s" % (t, text) for t, text in lines]
        else:
            lines = [text for _t, text in lines]
        text = "".join(line + "\n" for line in lines)
        if q("limitBytes"):
            text = text.encode()[:int(q("limitBytes"))].decode("utf-8", "replace")
        self.send_text(200, text)

    def list_events(self, ns):
        """core/v1 EventList of the namespace, filtered by fieldSelector involvedObject.name=X
        (the only field selector served) and bounded by limit."""
        selector = self.query.get("fieldSelector", [""])[0]
        wanted = None
        if selector:
            key, _, value = selector.partition("=")
            if key != "involvedObject.name":
                return self.send_json(400, status(400, "BadRequest",
                                                  'fakeapi: field label not supported: %s' % key))
            wanted = value
        items = [e for p in self.server.scenario.select(ns, "") if wanted in (None, p.name)
                 for e in p.events_k8s()]
        limit = int(self.query.get("limit", ["0"])[0] or 0)
        if limit > 0:
            items = items[:limit]
        self.send_json(200, {"kind": "EventList", "apiVersion": "v1",
                             "metadata": {"resourceVersion": "1"}, "items": items})

    # -- exec --
    def exec_precheck(self, ns, name):
        """The apiserver's answers before any stream exists; None when the exec may proceed."""
        pod = self.server.scenario.find(ns, name)
        if not pod:
            return status(404, "NotFound", 'pods "%s" not found' % name, {"name": name, "kind": "pods"})
        if pod.exec["forbidden"]:
            user = pod.exec.get("user", "system:serviceaccount:%s:icheck-viewer" % ns)
            return status(403, "Forbidden",
                          'pods "%s" is forbidden: User "%s" cannot create resource "pods/exec" in '
                          'API group "" in the namespace "%s"' % (name, user, ns),
                          {"name": name, "kind": "pods"})
        cname = self.query.get("container", [""])[0]
        names = [c["name"] for c in pod.spec["containers"]]
        if not cname:
            if len(names) != 1:
                return status(400, "BadRequest", "a container name must be specified for pod %s, "
                              "choose one of: [%s]" % (name, " ".join(names)))
            cname = names[0]
        if cname not in names:
            return status(400, "BadRequest", "container %s is not valid for pod %s" % (cname, name))
        if not pod.spec["node"]:
            return status(400, "BadRequest", "pod %s does not have a host assigned" % name)
        c = pod.container(cname)
        if not c.get("running", pod.spec["phase"] == "Running"):
            return status(500, "InternalError", 'container not found ("%s")' % cname)
        if not self.query.get("command"):
            return status(400, "BadRequest", "you must specify at least 1 command")
        self.exec_pod, self.exec_container = pod, c
        return None

    def exec_ws(self, ns, name):
        err = self.exec_precheck(ns, name)
        if err:
            return self.send_json(err["code"], err)
        offered = [p.strip() for p in self.headers.get("Sec-WebSocket-Protocol", "").split(",")]
        spoken = self.exec_pod.exec["protocols"]
        chosen = next((p for p in offered if p in spoken), None)
        if self.headers.get("Upgrade", "").lower() != "websocket" or not chosen:
            return self.send_json(400, status(400, "BadRequest",
                                              "fakeapi: exec needs a WebSocket upgrade offering %s"
                                              % " or ".join(spoken)))
        self.send_response(101, "Switching Protocols")
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", ws.accept_key(self.headers["Sec-WebSocket-Key"]))
        self.send_header("Sec-WebSocket-Protocol", chosen)
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True
        stdin = self.query.get("stdin", ["false"])[0] in ("true", "1")
        ExecStream(self, self.exec_pod, self.exec_container, self.query["command"], stdin,
                   close_signal=chosen == V5).run()


class ExecStream:
    """One exec: pumps the sandbox's stdout/stderr out as channel 1/2 frames, the exit status as
    channel 3, then close 1000; meanwhile reads client frames (pings, close, EOF) and, with
    stdin=true, relays channel 0 to the command's stdin, closing it on the v5 close signal
    ([255, 0]) or when the client goes, as a container runtime does. When the client goes the
    command is killed, unless exec.keep_on_disconnect: then, like a real runtime, it keeps
    running with its stdin at EOF."""

    def __init__(self, handler, pod, container, argv, stdin=False, close_signal=True):
        self.h, self.pod, self.container, self.argv = handler, pod, container, argv
        self.close_signal = close_signal  # v5: [255, 0] closes stdin; v4 has no such frame
        self.stdin = stdin
        self.stdin_open = stdin
        self.sock = handler.connection
        self.wlock = threading.Lock()
        self.proc = None
        self.plock = threading.Lock()
        self.client_gone = threading.Event()
        self.closed_sent = False
        self.stdout_budget = None  # bytes of stdout still relayed (exec.lose_output); None: all
        self.ending = handler.server.exec_ending(pod, handler.headers.get("User-Agent", ""))

    def send(self, opcode, payload):
        with self.wlock:
            if self.closed_sent:
                return
            self.sock.sendall(ws.encode(opcode, payload))
            if opcode == ws.OP_CLOSE:
                self.closed_sent = True

    def data(self, channel, payload):
        self.send(ws.OP_BINARY, bytes([channel]) + payload)

    def kill(self):
        with self.plock:
            if self.proc and self.proc.poll() is None:
                sbx.kill(self.proc)

    def close_stdin(self):
        with self.plock:
            self.stdin_open = False
            if self.proc and self.proc.stdin:
                try:
                    self.proc.stdin.close()
                except OSError:
                    pass

    def write_stdin(self, data):
        with self.plock:
            if self.proc and self.proc.stdin and self.stdin_open:
                try:
                    self.proc.stdin.write(data)
                except OSError:
                    pass

    def run(self):
        t = threading.Thread(target=self.produce, daemon=True)
        t.start()
        self.read_client()
        self.client_gone.set()
        self.close_stdin()
        if not self.pod.exec.get("keep_on_disconnect"):
            self.kill()
        t.join(10)

    def read_client(self):
        rfile = self.h.rfile
        while True:
            try:
                fr = ws.read_frame(rfile)
            except OSError:
                return
            if fr is None:
                return
            _fin, op, payload = fr
            try:
                if op == ws.OP_PING:
                    self.send(ws.OP_PONG, payload)
                elif op == ws.OP_CLOSE:
                    self.send(ws.OP_CLOSE, ws.close_payload(1000))
                    return
            except OSError:
                return
            if op == ws.OP_BINARY and payload[:1] == b"\x00":
                self.write_stdin(payload[1:])
            elif op == ws.OP_BINARY and payload[:2] == b"\xff\x00" and self.close_signal:
                self.close_stdin()
            # other frames (resize, other streams' close) are read and ignored

    def produce(self):
        try:
            self._produce()
        except OSError:
            pass  # client went away; read_client sees EOF and kills the process
        finally:
            # Close has been sent (or the socket is dead); give the client a moment to answer
            # with its close (polite) or to go (fin), then drop the connection so read_client
            # returns.
            if self.ending in ("polite", "fin"):
                self.client_gone.wait(5)
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _produce(self):
        ex = self.pod.exec
        if ex["latency_ms"]:
            if self.client_gone.wait(ex["latency_ms"] / 1000.0):
                return
        mib = ex["huge_output_mib"]
        if mib:
            line = b"x" * 1023 + b"\n"
            chunk = line * 32
            for _ in range(mib * 32):
                self.data(1, chunk)
                if self.client_gone.is_set():
                    return
        box = self.h.server.sandboxes[(self.pod.namespace, self.pod.name)]
        box.build()
        error = None if ex["hang"] else box.resolve(self.argv[0], box.env(self.container))
        if error:
            cid = os.urandom(32).hex()
            msg = ('error executing command in container: failed to exec in container: failed to '
                   'start exec "%s": OCI runtime exec failed: exec failed: unable to start container '
                   'process: %s: unknown' % (cid, error))
            self.data(3, json.dumps(status(500, "InternalError", "Internal error occurred: " + msg,
                                           {"causes": [{"message": msg}]})).encode())
            self.end()
            return
        with self.plock:
            if self.client_gone.is_set():
                return
            self.proc = box.spawn(self.argv, self.container, stdin=self.stdin)
            if self.stdin and not self.stdin_open:
                self.proc.stdin.close()
        server = self.h.server
        with server.execs_lock:
            key = (self.pod.namespace, self.pod.name)
            server.execs_seen[key] = server.execs_seen.get(key, 0) + 1
            self.stdout_budget = 64 if server.execs_seen[key] <= ex["lose_output"] else None
        pumps = [threading.Thread(target=self.pump, args=(self.proc.stdout, 1), daemon=True),
                 threading.Thread(target=self.pump, args=(self.proc.stderr, 2), daemon=True)]
        for p in pumps:
            p.start()
        for p in pumps:
            p.join()
        rc = self.proc.wait()
        if rc < 0:
            rc = 128 - rc  # killed by a signal: the runtime reports 128+signal
        self.data(3, json.dumps(exit_status(rc, self.argv)).encode())
        self.end()

    def end(self):
        """After the status: end the stream as self.ending says."""
        if self.ending in ("polite", "close-drop"):
            self.send(ws.OP_CLOSE, ws.close_payload(1000))
        if self.ending == "polite":
            return  # produce() waits for the client's close reply
        with self.wlock:
            self.closed_sent = True  # nothing more goes out, not even a pong
            try:
                if self.ending == "rst":
                    self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                         struct.pack("ii", 1, 0))
                    self.h.server.reset_fds.add(self.sock.fileno())
                    self.sock.shutdown(socket.SHUT_RD)  # read_client returns; the close resets
                elif self.ending == "fin":
                    self.sock.shutdown(socket.SHUT_WR)  # FIN; read_client waits for the client
                else:
                    self.sock.shutdown(socket.SHUT_RDWR)  # close-drop: gone without waiting
            except OSError:
                pass

    def pump(self, pipe, channel):
        fd = pipe.fileno()
        try:
            while True:
                b = os.read(fd, 32768)
                if not b:
                    break
                if channel == 1 and self.stdout_budget is not None:  # exec.lose_output
                    b, self.stdout_budget = b[:self.stdout_budget], max(0, self.stdout_budget - len(b))
                    if not b:
                        continue
                self.data(channel, b)
        except OSError:
            self.kill()
        finally:
            pipe.close()
