#include "probe/transfer/nixl_python_script.hpp"

#include "util/text.hpp"

namespace icheck::probe {
namespace {

// Why stdlib only: numpy comes with every NIXL, but the pattern (SHAKE-256 of the seed and the
// block) and its check need nothing from it, and the script then runs wherever nixl._api does.
constexpr std::string_view kScript =
    R"ICHECK_PY(# The pairwise KV transfer through the worker image's own NIXL Python API (nixl._api), run by
# `kubectl dynamo-icheck nixl --transfer` inside the worker container: decode is the target,
# prefill the initiator. A TCP socket between the two pods carries the agents' metadata and the
# test's steps (no etcd, no NIXL listener); NIXL moves the data. Stdlib only (numpy is not
# needed). Every line meant for the plugin starts with "icheck-nixl: ".
import ctypes
import glob
import hashlib
import json
import os
import socket
import sys
import time

TAG = "icheck-nixl:"
MIB = 1 << 20


def say(*words):
    print(TAG, *words, flush=True)


def leave(kind, text, rc):
    refused_note()
    say(kind + ":", text)
    sys.exit(rc)


def skip(text):
    leave("skipped", text, 0)


def args_of(argv):
    a = {"role": argv[0], "ip": "", "port": 13340, "backend": "UCX", "seed": "0", "timeout": 60,
         "gpu": 0, "max_mib": 256}
    for i in range(1, len(argv) - 1, 2):
        key = argv[i].lstrip("-").replace("-", "_")
        if key in a:
            a[key] = type(a[key])(argv[i + 1])
    return a


A = args_of(sys.argv[1:])
SIDE = "decode" if A["role"] == "target" else "prefill"
START = time.monotonic()
DEADLINE = START + A["timeout"] - min(3.0, A["timeout"] * 0.25)


def left():
    return DEADLINE - time.monotonic()


def stalled(what):
    leave("stalled", "%s did not finish within %d s" % (what, A["timeout"]), 3)


def described(e):
    t = type(e)
    return "%s.%s: %s" % (t.__module__, t.__name__, e) if t.__module__ != "builtins" else \
        "%s: %s" % (t.__name__, e)


def call(step, fn, *args, **kw):
    # A call this NIXL does not take is an API difference (skipped); anything it raises itself
    # is the stack failing (its exception line names the NIXL error).
    try:
        return fn(*args, **kw)
    except (TypeError, AttributeError) as e:
        skip("nixl._api differs from what this test calls: %s: %s" % (step, described(e)))
    except Exception as e:
        leave("error", "%s: %s" % (step, described(e)), 1)


# --- the API --------------------------------------------------------------------------------

NEEDED = ("register_memory", "deregister_memory", "get_xfer_descs", "initialize_xfer", "transfer",
          "check_xfer_state", "release_xfer_handle", "get_agent_metadata", "add_remote_agent",
          "remove_remote_agent")


def load_api():
    try:
        import nixl._api as api
    except ModuleNotFoundError as e:
        skip("nixl._api not in this NIXL (%s)" % e)
    except Exception as e:
        leave("error", "import nixl._api: " + described(e), 1)
    missing = [n for n in ("nixl_agent", "nixl_agent_config") if not hasattr(api, n)]
    missing += ["nixl_agent." + n for n in NEEDED if not hasattr(getattr(api, "nixl_agent", None), n)]
    if missing:
        skip("nixl._api differs: no " + ", ".join(missing))
    try:
        import inspect
        params = inspect.signature(api.nixl_agent_config).parameters
    except (TypeError, ValueError):
        params = {}
    want = ("enable_prog_thread", "enable_listen_thread", "listen_port", "backends")
    if any(p not in params for p in want):
        skip("nixl._api differs: nixl_agent_config takes " + ", ".join(params))
    return api


def nixl_version():
    try:
        from importlib import metadata
    except ImportError:
        return "?"
    for name in ("nixl", "nixl-cu12", "nixl-cu13"):
        try:
            return metadata.version(name)
        except Exception:
            pass
    return "?"


# --- memory ---------------------------------------------------------------------------------

class Host:
    kind, via, dev = "DRAM", "host", 0

    def __init__(self, size):
        self.buf = (ctypes.c_char * size)()
        self.addr, self.size = ctypes.addressof(self.buf), size

    def write(self, off, data):
        ctypes.memmove(self.addr + off, data, len(data))

    def read(self, off, n):
        return ctypes.string_at(self.addr + off, n)

    def zero(self):
        ctypes.memset(self.addr, 0, self.size)

    def free(self):
        self.buf = None


def cudart_lib():
    names = ["libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"]
    for p in sys.path:
        names += sorted(glob.glob(os.path.join(p, "nvidia", "cu*", "lib", "libcudart.so*")))
        names += sorted(glob.glob(os.path.join(p, "nvidia", "cuda_runtime", "lib", "libcudart.so*")))
    for n in names:
        try:
            return ctypes.CDLL(n)
        except OSError:
            pass
    return None


class Cudart:
    # The CUDA runtime through ctypes: no import cost beyond the library itself.
    kind, via = "VRAM", "CUDA runtime (ctypes)"

    def __init__(self, lib, gpu):
        self.lib, self.dev = lib, gpu
        self.ok(lib.cudaSetDevice(ctypes.c_int(gpu)), "cudaSetDevice")
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        self.ok(lib.cudaMemGetInfo(ctypes.byref(free), ctypes.byref(total)), "cudaMemGetInfo")
        self.free_bytes = free.value

    def ok(self, rc, what):
        if rc != 0:
            raise RuntimeError("%s returned CUDA error %d" % (what, rc))

    def alloc(self, size):
        p = ctypes.c_void_p()
        self.ok(self.lib.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(size)), "cudaMalloc")
        self.addr, self.size = p.value, size

    def write(self, off, data):
        self.ok(self.lib.cudaMemcpy(ctypes.c_void_p(self.addr + off), data,
                                    ctypes.c_size_t(len(data)), ctypes.c_int(1)), "cudaMemcpy")

    def read(self, off, n):
        b = ctypes.create_string_buffer(n)
        self.ok(self.lib.cudaMemcpy(b, ctypes.c_void_p(self.addr + off), ctypes.c_size_t(n),
                                    ctypes.c_int(2)), "cudaMemcpy")
        return b.raw

    def zero(self):
        self.ok(self.lib.cudaMemset(ctypes.c_void_p(self.addr), 0, ctypes.c_size_t(self.size)),
                "cudaMemset")
        self.ok(self.lib.cudaDeviceSynchronize(), "cudaDeviceSynchronize")

    def free(self):
        self.lib.cudaFree(ctypes.c_void_p(self.addr))


class Cupy:
    kind, via = "VRAM", "cupy"

    def __init__(self, gpu):
        import cupy
        self.cp, self.dev = cupy, gpu
        cupy.cuda.Device(gpu).use()
        self.free_bytes = cupy.cuda.runtime.memGetInfo()[0]

    def alloc(self, size):
        self.arr = self.cp.empty(size, dtype=self.cp.uint8)
        self.addr, self.size = self.arr.data.ptr, size

    def write(self, off, data):
        b = ctypes.create_string_buffer(data, len(data))
        self.cp.cuda.runtime.memcpy(self.addr + off, ctypes.addressof(b), len(data), 1)

    def read(self, off, n):
        b = ctypes.create_string_buffer(n)
        self.cp.cuda.runtime.memcpy(ctypes.addressof(b), self.addr + off, n, 2)
        return b.raw

    def zero(self):
        self.arr.fill(0)
        self.cp.cuda.runtime.deviceSynchronize()

    def free(self):
        self.arr = None


class Torch:
    kind, via = "VRAM", "torch"

    def __init__(self, gpu):
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("torch sees no CUDA device")
        self.t, self.dev = torch, gpu
        torch.cuda.set_device(gpu)
        self.free_bytes = torch.cuda.mem_get_info(gpu)[0]

    def alloc(self, size):
        self.arr = self.t.empty(size, dtype=self.t.uint8, device="cuda:%d" % self.dev)
        self.addr, self.size = self.arr.data_ptr(), size

    def write(self, off, data):
        src = self.t.frombuffer(bytearray(data), dtype=self.t.uint8)
        self.arr[off:off + len(data)].copy_(src)
        self.t.cuda.synchronize()

    def read(self, off, n):
        host = self.arr[off:off + n].cpu()
        return ctypes.string_at(host.data_ptr(), n)

    def zero(self):
        self.arr.zero_()
        self.t.cuda.synchronize()

    def free(self):
        self.arr = None


def gpu_memory(gpu, why):
    # Fastest to start first: the CUDA runtime via ctypes, then cupy, then torch.
    lib = cudart_lib()
    makers = ([("CUDA runtime", lambda: Cudart(lib, gpu))] if lib else []) + \
        [("cupy", lambda: Cupy(gpu)), ("torch", lambda: Torch(gpu))]
    if not lib:
        why.append("no libcudart")
    for name, make in makers:
        try:
            return make()
        except ImportError:
            why.append("no " + name)
        except Exception as e:
            why.append("%s: %s" % (name, described(e)))
    return None


def memory():
    os.environ.setdefault("CUDA_DEVICE_ORDER", "PCI_BUS_ID")  # GPU indices as nvidia-smi's
    cap = A["max_mib"] * MIB
    why = []
    mem = gpu_memory(A["gpu"], why)
    if mem is None:
        size = min(cap, 64 * MIB)
        say("memory kind=DRAM via=host gpu=none bytes=%d why=%s" % (size, "; ".join(why)[:300]))
        return Host(size)
    # A bounded share of what is free: the serving engine keeps its KV cache.
    size = min(cap, mem.free_bytes // 8) // MIB * MIB
    if size < 16 * MIB:
        skip("GPU %d has %d MiB free: no room for the test's buffer (1/8 of free, 16 MiB at least)"
             % (A["gpu"], mem.free_bytes // MIB))
    try:
        mem.alloc(size)
    except Exception as e:
        skip("GPU %d: could not allocate %d MiB: %s" % (A["gpu"], size // MIB, described(e)))
    say("memory kind=VRAM via=%s gpu=%d bytes=%d free=%d" % (mem.via.split()[0], A["gpu"], size,
                                                             mem.free_bytes))
    return mem


# --- the data -------------------------------------------------------------------------------

def layout(total):
    block = min(16 * MIB, max(MIB, total // 4) // MIB * MIB)
    return block, total // block


def pattern(block, n):
    # Unique per run (the plugin's seed) and per block, and different at every offset.
    return hashlib.shake_256(("icheck-nixl %s %d" % (A["seed"], block)).encode()).digest(n)


def fill(mem, blocks, bs):
    for b in range(blocks):
        mem.write(b * bs, pattern(b, bs))


def first_difference(got, want):
    step = 65536
    for s in range(0, len(want), step):
        if got[s:s + step] != want[s:s + step]:
            for i in range(s, min(s + step, len(want))):
                if got[i] != want[i]:
                    return i
    return -1


def verify(mem, blocks, bs, op):
    for b in range(blocks):
        want = pattern(b, bs)
        got = mem.read(b * bs, bs)
        if got != want:
            i = first_difference(got, want)
            say("corrupted side=%s op=%s block=%d offset=%d expected=0x%02x got=0x%02x"
                % (SIDE, op, b, b * bs + i, want[i], got[i]))
            return False
    say("verified side=%s op=%s blocks=%d block_bytes=%d" % (SIDE, op, blocks, bs))
    return True


# --- the control channel --------------------------------------------------------------------
# Each side proves it belongs to this run: its first line is HELLO, the side's name and the run's
# seed, at most HELLO_MAX bytes. The decode side reads every connection's first line without
# waiting on any one of them; one that does not carry the seed (a scanner's connect-and-close, a
# stranger streaming bytes, an old run's prefill) is closed and waited past. Every later line is
# bounded too.

HELLO = "icheck-nixl-hello"
HELLO_MAX = 256
LINE_MAX = 8 * MIB
refused = []
noted = []


def hello(side):
    return ("%s %s %s\n" % (HELLO, side, A["seed"])).encode()


def refuse(sock, peer, why):
    refused.append((peer, why))
    try:
        sock.close()
    except OSError:
        pass


def refused_note():
    if refused and not noted:
        noted.append(True)
        say("strangers side=%s refused=%d first=%s why=%s" % (SIDE, len(refused), refused[0][0],
                                                             refused[0][1]))


class Channel:
    def __init__(self, sock, buf=b""):
        self.sock, self.buf = sock, buf

    def send(self, **msg):
        self.sock.sendall(json.dumps(msg).encode() + b"\n")

    def line(self, what, most):
        while b"\n" not in self.buf:
            if len(self.buf) > most:
                leave("error", "the %s side sent a line over %d bytes during %s"
                      % (other_side(), most, what), 1)
            if left() <= 0:
                stalled(what)
            self.sock.settimeout(max(0.1, min(left(), 1.0)))
            try:
                chunk = self.sock.recv(min(65536, most + 1 - len(self.buf)))
            except socket.timeout:
                continue
            if not chunk:
                leave("error", "the %s side closed the test's connection during %s"
                      % (other_side(), what), 1)
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def recv(self, what):
        return json.loads(self.line(what, LINE_MAX))


def other_side():
    return "prefill" if SIDE == "decode" else "decode"


# (line, rest) once buf holds a whole first line; (None, why it is refused) or (None, None).
def first_line(buf):
    if b"\n" in buf:
        line, rest = buf.split(b"\n", 1)
        return line, rest
    if len(buf) > HELLO_MAX:
        return None, "more than %d bytes without a line end" % HELLO_MAX
    return None, None


def accept_prefill(srv):
    import selectors
    sel = selectors.DefaultSelector()
    srv.setblocking(False)
    sel.register(srv, selectors.EVENT_READ)
    pending = {}
    try:
        while True:
            if left() <= 0:
                stalled("waiting for the prefill side's connection")
            for key, _ in sel.select(timeout=max(0.05, min(left(), 1.0))):
                sock = key.fileobj
                if sock is srv:
                    try:
                        conn, peer = srv.accept()
                    except (BlockingIOError, InterruptedError):
                        continue
                    if len(pending) >= 64:
                        refuse(conn, peer[0], "too many connections at once")
                        continue
                    conn.setblocking(False)
                    pending[conn] = [peer[0], b""]
                    sel.register(conn, selectors.EVENT_READ)
                    continue
                peer, buf = pending[sock]
                try:
                    chunk = sock.recv(HELLO_MAX + 1 - len(buf))
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    chunk = b""
                buf += chunk
                pending[sock][1] = buf
                line, rest = first_line(buf)
                why = rest if line is None else None
                if line is None and not chunk:
                    why = "closed before a first line" if not buf else "closed within its first line"
                if line is not None:
                    if line + b"\n" == hello("prefill"):
                        sel.unregister(sock)
                        del pending[sock]
                        sock.setblocking(True)
                        return sock, peer, rest
                    why = "a first line without this run's seed"
                if why:
                    sel.unregister(sock)
                    del pending[sock]
                    refuse(sock, peer, why)
    finally:
        for sock, (peer, _) in pending.items():
            refuse(sock, peer, "no first line yet when the prefill side came")
        sel.close()


def b64(data):
    import base64
    return base64.b64encode(bytes(data)).decode()


def unb64(text):
    import base64
    return base64.b64decode(text)


# --- the agents -----------------------------------------------------------------------------

def agent(api, name, mem, total):
    conf = call("nixl_agent_config", api.nixl_agent_config, enable_prog_thread=True,
                enable_listen_thread=False, listen_port=0, backends=[A["backend"]])
    ag = call("create agent with backend " + A["backend"], api.nixl_agent, name, conf)
    if A["backend"] not in getattr(ag, "backends", {}):
        plugins = call("get_plugin_list", ag.get_plugin_list)
        leave("error", "no backend %s in NIXL: its plugins are %s" % (A["backend"], ", ".join(plugins)), 1)
    reg = call("register %s memory" % mem.kind, ag.register_memory,
               [(mem.addr, total, mem.dev, "")], mem.kind)
    say("agent name=%s backend=%s nixl=%s" % (name, A["backend"], nixl_version()))
    return ag, reg


def descs(addr, dev, blocks, bs):
    return [(addr + b * bs, bs, dev) for b in range(blocks)]


def wait(ag, handle, what):
    while True:
        state = call("check_xfer_state", ag.check_xfer_state, handle)
        if state == "DONE":
            return
        if state == "ERR":
            leave("error", "%s ended in state ERR (NIXL reported the transfer failed)" % what, 1)
        if left() <= 0:
            stalled(what)


def run_xfer(ag, op, local, remote, peer, what):
    handle = call("initialize_xfer " + op, ag.initialize_xfer, op, local, remote, peer)
    state = call("transfer " + op, ag.transfer, handle)
    if state == "ERR":
        leave("error", "posting %s failed (state ERR)" % what, 1)
    wait(ag, handle, what)
    return handle


def timed_writes(ag, handle, total):
    # Re-post the same request until about a second has passed: its bytes over its time.
    n, t0 = 0, time.monotonic()
    while n < 200 and (n < 3 or time.monotonic() - t0 < 1.0) and left() > 1:
        if call("transfer WRITE", ag.transfer, handle) == "ERR":
            leave("error", "posting WRITE failed (state ERR)", 1)
        wait(ag, handle, "WRITE")
        n += 1
    secs = time.monotonic() - t0
    say("result op=WRITE bytes=%d iterations=%d seconds=%.6f gbps=%.3f"
        % (n * total, n, secs, n * total / secs / 1e9 if secs > 0 else 0))


def target(api):
    mem = memory()
    ag, reg = agent(api, "icheck-decode-" + A["seed"][:8], mem, mem.size)
    try:
        family = socket.AF_INET6 if ":" in A["ip"] else socket.AF_INET
        srv = socket.create_server((A["ip"], A["port"]), family=family)
    except OSError as e:
        skip("cannot listen on %s:%d in the decode pod: %s" % (A["ip"], A["port"], e))
    say("listening on %s:%d" % (A["ip"], A["port"]))
    conn, peer, rest = accept_prefill(srv)
    srv.close()
    conn.sendall(hello("decode"))
    ch = Channel(conn, rest)
    hello_msg = ch.recv("the prefill side's metadata")
    say("connected peer=%s" % peer)
    refused_note()
    total = min(mem.size, hello_msg["bytes"])
    bs, blocks = layout(total)
    peer_name = call("add_remote_agent", ag.add_remote_agent, unb64(hello_msg["md"]))
    ch.send(md=b64(call("get_agent_metadata", ag.get_agent_metadata)), mem=mem.kind, bytes=total,
            descs=descs(mem.addr, mem.dev, blocks, bs))
    while True:
        msg = ch.recv("the prefill side's transfers")
        if msg["step"] == "verify":
            ch.send(ok=verify(mem, blocks, bs, "WRITE"))
        elif msg["step"] == "done":
            break
    call("remove_remote_agent", ag.remove_remote_agent, peer_name)
    call("deregister_memory", ag.deregister_memory, reg)
    mem.free()


def connect():
    # A port that answers without this run's seed is not this run's decode side: refused, and
    # tried again until the decode side answers or the time is up.
    last = None
    while left() > 0:
        try:
            sock = socket.create_connection((A["ip"], A["port"]), timeout=max(0.1, min(left(), 5)))
        except OSError as e:
            last = e
            time.sleep(0.2)
            continue
        try:
            sock.sendall(hello("prefill"))
            ch = Channel(sock)
            sock.settimeout(max(0.1, min(left(), 5)))
            buf = b""
            while True:
                line, why = first_line(buf)
                if line is not None or why:
                    break
                chunk = sock.recv(HELLO_MAX + 1 - len(buf))
                if not chunk:
                    why = "closed before its first line"
                    break
                buf += chunk
        except OSError as e:
            line, why = None, "%s before its first line" % described(e)
        if line is not None and line + b"\n" == hello("decode"):
            ch.buf = buf[len(line) + 1:]
            return ch
        refuse(sock, A["ip"], why or "a first line without this run's seed")
        time.sleep(0.2)
    if refused:
        leave("error", "the test port %s:%d answered, but never as this run's decode side (%s)"
              % (A["ip"], A["port"], "refused %d connections" % len(refused)), 1)
    skip("could not reach the decode side's test port %s:%d (errno %s)"
         % (A["ip"], A["port"], getattr(last, "errno", "?")))


def initiator(api):
    mem = memory()
    ag, reg = agent(api, "icheck-prefill-" + A["seed"][:8], mem, mem.size)
    ch = connect()
    ch.send(md=b64(call("get_agent_metadata", ag.get_agent_metadata)), bytes=mem.size)
    reply = ch.recv("the decode side's metadata")
    say("connected peer=%s mem=%s" % (A["ip"], reply["mem"]))
    total = reply["bytes"]
    bs, blocks = layout(total)
    fill(mem, blocks, bs)
    peer = call("add_remote_agent", ag.add_remote_agent, unb64(reply["md"]))
    local = call("get_xfer_descs", ag.get_xfer_descs, descs(mem.addr, mem.dev, blocks, bs), mem.kind)
    remote = call("get_xfer_descs", ag.get_xfer_descs, [tuple(d) for d in reply["descs"]],
                  reply["mem"])
    handle = run_xfer(ag, "WRITE", local, remote, peer, "the first WRITE")
    timed_writes(ag, handle, blocks * bs)
    call("release_xfer_handle", ag.release_xfer_handle, handle)
    ch.send(step="verify")
    written = ch.recv("the decode side's check")["ok"]
    mem.zero()
    handle = run_xfer(ag, "READ", local, remote, peer, "the READ back")
    read_back = verify(mem, blocks, bs, "READ")
    call("release_xfer_handle", ag.release_xfer_handle, handle)
    ch.send(step="done")
    call("remove_remote_agent", ag.remove_remote_agent, peer)
    call("deregister_memory", ag.deregister_memory, reg)
    mem.free()
    if not (written and read_back):
        sys.exit(4)


def main():
    api = load_api()
    (target if A["role"] == "target" else initiator)(api)
    say("finished side=%s" % SIDE)


main()
)ICHECK_PY";

}  // namespace

std::string compact_python(std::string_view source) {
  std::string out;
  for (auto line : text::lines(source)) {
    auto t = text::trim(line);
    if (t.empty() || t.front() == '#')
      continue;
    out.append(line);
    out += '\n';
  }
  return out;
}

const std::string& nixl_python_script() {
  static const std::string script = compact_python(kScript);
  return script;
}

}  // namespace icheck::probe
