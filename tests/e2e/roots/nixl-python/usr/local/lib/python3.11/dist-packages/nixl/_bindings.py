# synthetic: stands in for NIXL's pybind11 module `nixl._bindings` (ai-dynamo/nixl
# src/bindings/python/nixl_bindings.cpp): the same class, method, constant and exception names,
# an exception's text the status name ("NIXL_ERR_BACKEND"), as throw_nixl_exception raises them.
# Memory is host memory; a transfer moves the bytes for real over a TCP connection to the peer
# agent's data thread. What it does wrong, for the e2e tests, is read from the file `fake_mode`
# next to this one: backend-error (createBackend raises NIXL_ERR_BACKEND), fail-register
# (registerMem raises it), hang (a posted transfer never completes), corrupt (this agent's data
# thread flips one byte of every write it receives), deaf (SIGTERM is ignored and a posted
# transfer blocks in the call for good: only SIGKILL ends the process), chatty (creating an
# agent prints one 10 MiB line, as a library's runaway warning would).
import ctypes
import json
import os
import socket
import struct
import signal
import sys
import threading
import time

DEFAULT_COMM_PORT = 8888
DRAM_SEG, VRAM_SEG, BLK_SEG, OBJ_SEG, FILE_SEG = 0, 1, 2, 3, 4
NIXL_READ, NIXL_WRITE = 0, 1
NIXL_IN_PROG, NIXL_SUCCESS = 1, 0
NIXL_THREAD_SYNC_NONE, NIXL_THREAD_SYNC_STRICT, NIXL_THREAD_SYNC_RW, NIXL_THREAD_SYNC_DEFAULT = 0, 1, 2, 3


class nixlNotPostedError(Exception): pass
class nixlInvalidParamError(Exception): pass
class nixlBackendError(Exception): pass
class nixlNotFoundError(Exception): pass
class nixlMismatchError(Exception): pass
class nixlNotAllowedError(Exception): pass
class nixlRepostActiveError(Exception): pass
class nixlUnknownError(Exception): pass
class nixlNotSupportedError(Exception): pass
class nixlRemoteDisconnectError(Exception): pass
class nixlCancelledError(Exception): pass


def _mode():
    try:
        with open(os.path.join(os.path.dirname(__file__), "fake_mode")) as f:
            return f.read().strip()
    except OSError:
        return ""


def _ints(t, n, what):
    if not isinstance(t, tuple) or len(t) != n:
        raise TypeError("%s: incompatible function arguments: a %d-tuple is expected, got %r" % (what, n, t))
    if not all(isinstance(v, int) and v >= 0 for v in t[:3]):
        raise TypeError("%s: incompatible function arguments: (addr, len, devID) must be ints" % what)
    return t


class nixlXferDList:
    def __init__(self, mem_type, descs):
        if mem_type not in (DRAM_SEG, VRAM_SEG, BLK_SEG, OBJ_SEG, FILE_SEG):
            raise TypeError("nixlXferDList: incompatible function arguments: mem_type %r" % (mem_type,))
        self.mem_type = mem_type
        self.descs = [_ints(d, 3, "nixlXferDList") for d in descs]

    def __len__(self):
        return len(self.descs)


class nixlRegDList(nixlXferDList):
    def __init__(self, mem_type, descs):
        nixlXferDList.__init__(self, mem_type, [])
        self.descs = [_ints(d, 4, "nixlRegDList") for d in descs]


class nixlAgentConfig:
    def __init__(self):
        self.useProgThread = False
        self.useListenThread = False
        self.listenPort = 0
        self.syncMode = NIXL_THREAD_SYNC_DEFAULT
        self.pthrDelay = 0
        self.lthrDelay = 0
        self.captureTelemetry = False


def _memory(addr, n):
    return memoryview((ctypes.c_char * n).from_address(addr)).cast("B")


def _recv_into(sock, view):
    got = 0
    while got < len(view):
        k = sock.recv_into(view[got:])
        if not k:
            raise nixlRemoteDisconnectError("NIXL_ERR_REMOTE_DISCONNECT")
        got += k


def _recv_exact(sock, n):
    buf = bytearray(n)
    _recv_into(sock, memoryview(buf))
    return bytes(buf)


class _DataServer(threading.Thread):
    """The agent's data path: 'W' addr len + bytes writes this process's memory, 'R' addr len
    sends it back. Only registered memory is reachable, as with a real memory key."""

    def __init__(self, agent):
        threading.Thread.__init__(self, daemon=True)
        self.agent = agent
        self.sock = socket.create_server(("0.0.0.0", 0))
        self.port = self.sock.getsockname()[1]

    def run(self):
        while True:
            conn, _ = self.sock.accept()
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def serve(self, conn):
        try:
            while True:
                head = conn.recv(17, socket.MSG_WAITALL)
                if len(head) < 17:
                    return
                op, addr, n = struct.unpack("!cQQ", head)
                if not self.agent.registered(addr, n):
                    conn.sendall(b"N")
                    return
                if op == b"W":
                    view = _memory(addr, n)
                    _recv_into(conn, view)
                    if _mode() == "corrupt" and n > 0:
                        view[n // 2] ^= 0x5A  # every write: the last one stays corrupted
                    conn.sendall(b"K")
                else:
                    conn.sendall(b"K")
                    conn.sendall(_memory(addr, n))
        finally:
            conn.close()


class nixlAgent:
    def __init__(self, name, config):
        if not isinstance(name, str) or not isinstance(config, nixlAgentConfig):
            raise TypeError("nixlAgent(): incompatible constructor arguments")
        if _mode() == "chatty":
            sys.stdout.write("W" * (10 << 20) + "\n")
            sys.stdout.flush()
        self.name = name
        self.backends = {}
        self.regions = []
        self.remotes = {}
        self.reqs = {}
        self.server = _DataServer(self)
        self.server.start()

    def getAvailPlugins(self):
        d = os.environ.get("NIXL_PLUGIN_DIR", "")
        names = sorted(f[len("libplugin_"):-3] for f in os.listdir(d)
                       if f.startswith("libplugin_") and f.endswith(".so")) if os.path.isdir(d) else []
        return names or ["UCX"]

    def getPluginParams(self, backend):
        return ({}, ["DRAM", "VRAM"])

    def createBackend(self, backend, params):
        if not isinstance(params, dict):
            raise TypeError("createBackend(): incompatible function arguments")
        if backend not in self.getAvailPlugins():
            raise nixlNotFoundError("NIXL_ERR_NOT_FOUND")
        if _mode() == "backend-error":
            raise nixlBackendError("NIXL_ERR_BACKEND")
        handle = len(self.backends) + 1
        self.backends[handle] = backend
        return handle

    def getBackendParams(self, handle):
        return ({}, ["DRAM", "VRAM"])

    def registerMem(self, descs, handles):
        if not isinstance(descs, nixlRegDList) or not isinstance(handles, list):
            raise TypeError("registerMem(): incompatible function arguments")
        if not self.backends:
            raise nixlNotFoundError("NIXL_ERR_NOT_FOUND")
        if _mode() == "fail-register":
            raise nixlBackendError("NIXL_ERR_BACKEND")
        self.regions += [(d[0], d[1]) for d in descs.descs]
        return NIXL_SUCCESS

    def deregisterMem(self, descs, handles):
        if not isinstance(descs, nixlRegDList):
            raise TypeError("deregisterMem(): incompatible function arguments")
        for d in descs.descs:
            if (d[0], d[1]) not in self.regions:
                raise nixlNotFoundError("NIXL_ERR_NOT_FOUND")
            self.regions.remove((d[0], d[1]))
        return NIXL_SUCCESS

    def registered(self, addr, n):
        return any(a <= addr and addr + n <= a + size for a, size in self.regions)

    def getLocalMD(self):
        host = os.environ.get("POD_IP", "127.0.0.1")
        return json.dumps({"name": self.name, "host": host, "port": self.server.port,
                           "regions": self.regions}).encode()

    def loadRemoteMD(self, md):
        if not isinstance(md, bytes):
            raise TypeError("loadRemoteMD(): incompatible function arguments")
        try:
            info = json.loads(md)
        except ValueError:
            raise nixlInvalidParamError("NIXL_ERR_INVALID_PARAM")
        self.remotes[info["name"]] = info
        return info["name"]

    def invalidateRemoteMD(self, name):
        if self.remotes.pop(name, None) is None:
            raise nixlNotFoundError("NIXL_ERR_NOT_FOUND")
        return NIXL_SUCCESS

    def createXferReq(self, op, local, remote, remote_agent, notif, handles):
        if op not in (NIXL_READ, NIXL_WRITE) or not isinstance(local, nixlXferDList) \
                or not isinstance(remote, nixlXferDList) or isinstance(local, nixlRegDList):
            raise TypeError("createXferReq(): incompatible function arguments")
        if remote_agent not in self.remotes:
            raise nixlNotFoundError("NIXL_ERR_NOT_FOUND")
        if len(local) != len(remote) or any(l[1] != r[1] for l, r in zip(local.descs, remote.descs)):
            raise nixlInvalidParamError("NIXL_ERR_INVALID_PARAM")
        if not all(self.registered(d[0], d[1]) for d in local.descs):
            raise nixlNotFoundError("NIXL_ERR_NOT_FOUND")
        handle = 0x1000 + len(self.reqs)
        self.reqs[handle] = {"op": op, "local": local.descs, "remote": remote.descs,
                             "peer": self.remotes[remote_agent], "state": None}
        return handle

    def postXferReq(self, handle, notif_msg=""):
        req = self._req(handle)
        if req["state"] == NIXL_IN_PROG:
            raise nixlRepostActiveError("NIXL_ERR_REPOST_ACTIVE")
        req["state"] = NIXL_IN_PROG
        if _mode() == "deaf":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            while True:
                time.sleep(3600)
        if _mode() != "hang":
            threading.Thread(target=self._move, args=(req,), daemon=True).start()
        return NIXL_IN_PROG

    def _move(self, req):
        try:
            with socket.create_connection((req["peer"]["host"], req["peer"]["port"])) as s:
                for (laddr, n, _), (raddr, _, _) in zip(req["local"], req["remote"]):
                    s.sendall(struct.pack("!cQQ", b"W" if req["op"] == NIXL_WRITE else b"R", raddr, n))
                    if req["op"] == NIXL_WRITE:
                        s.sendall(_memory(laddr, n))
                    if _recv_exact(s, 1) != b"K":
                        raise nixlNotFoundError("NIXL_ERR_NOT_FOUND")
                    if req["op"] == NIXL_READ:
                        _recv_into(s, _memory(laddr, n))
            req["state"] = NIXL_SUCCESS
        except Exception as e:
            req["state"] = e if isinstance(e, Exception) and type(e).__module__ == __name__ \
                else nixlRemoteDisconnectError("NIXL_ERR_REMOTE_DISCONNECT")

    def _req(self, handle):
        if handle not in self.reqs:
            raise nixlNotFoundError("NIXL_ERR_NOT_FOUND")
        return self.reqs[handle]

    def getXferStatus(self, handle):
        state = self._req(handle)["state"]
        if isinstance(state, Exception):
            raise state
        if state is None:
            raise nixlNotPostedError("NIXL_ERR_NOT_POSTED")
        return state

    def releaseXferReq(self, handle):
        if self._req(handle)["state"] == NIXL_IN_PROG:
            raise nixlRepostActiveError("NIXL_ERR_REPOST_ACTIVE")
        del self.reqs[handle]
        return NIXL_SUCCESS

    def getNotifs(self, notifs, handles):
        return dict(notifs)

    def genNotif(self, remote_agent, msg, handle=None):
        if remote_agent not in self.remotes:
            raise nixlNotFoundError("NIXL_ERR_NOT_FOUND")
        return NIXL_SUCCESS
