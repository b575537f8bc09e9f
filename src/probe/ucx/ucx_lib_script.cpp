#include "probe/ucx/ucx_lib_script.hpp"

#include "probe/transfer/nixl_python_script.hpp"

namespace icheck::probe {
namespace {

// Why this path: uct_query_components, uct_component_query, uct_md_open,
// uct_md_query_tl_resources and the first seven fields of uct_md_attr_t.cap are the same from
// UCX 1.13 (Debian 12) to 1.20 (NIXL's wheels); uct_md_query_v2 and the v2 attributes are not
// in 1.13. Names come from the library itself (ucs_memory_type_names, uct_device_type_names),
// so no enum is copied. No interface, worker, connection manager or endpoint is opened, so
// connection managers are not listed and ucx_info's capability lines have no counterpart.
constexpr std::string_view kPython = R"ICHECK_PY(
import glob
import os
import sys

say = lambda *a: print(*a, flush=True)
try:
    import ctypes as C
except ImportError as e:
    say("skipped: python3 has no ctypes (%s)" % e)
    sys.exit(0)


def mapped():
    best, me = None, str(os.getpid())
    for m in glob.glob("/proc/[0-9]*/maps"):
        pid = m.split("/")[2]
        if pid in (me, str(os.getppid())):
            continue
        try:
            with open(m) as f:
                libs = [l.split(None, 5)[5].strip() for l in f if "libucp" in l and len(l.split(None, 5)) == 6]
        except OSError:
            continue
        if libs and (best is None or len(libs) > len(best[1])):
            best = (pid, libs)
    if best is None:
        return None
    comm = ""
    try:
        with open("/proc/%s/comm" % best[0]) as f:
            comm = f.read().strip()
    except OSError:
        pass
    first = []
    for l in best[1]:
        if l not in first:
            first.append(l)
    # Two copies in one process (ai-dynamo/nixl #1668): the one NIXL carries is the one asked.
    first.sort(key=lambda l: "nixl" not in l)
    return "maps %s %s" % (best[0], comm), first


def sites():
    out = [p for p in sys.path if p.endswith("-packages")]
    for pat in ("/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
                "/usr/lib/python3/dist-packages", "/opt/dynamo/venv/lib/python3*/site-packages",
                "/opt/venv/lib/python3*/site-packages", "/opt/conda/lib/python3*/site-packages"):
        out += glob.glob(pat)
    return [s for i, s in enumerate(out) if s not in out[:i]]


def candidates():
    m = mapped()
    if m:
        yield m
    for s in sites():
        for d in sorted(glob.glob(s + "/nixl*.libs") + glob.glob(s + "/.nixl*.libs")):
            libs = sorted(glob.glob(d + "/libucp[-.]*so*"))
            if libs:
                yield "wheel " + d, libs[:1]
    for d in ("/usr/local/ucx/lib", "/opt/hpcx/ucx/lib", "/usr/lib64", "/usr/lib/x86_64-linux-gnu",
              "/usr/lib/aarch64-linux-gnu", "/usr/lib", "/lib64", "/lib/x86_64-linux-gnu",
              "/lib/aarch64-linux-gnu"):
        libs = sorted(glob.glob(d + "/libucp.so*"))
        if libs:
            yield "system " + d, libs[:1]


class Phdr(C.Structure):
    _fields_ = [("addr", C.c_void_p), ("name", C.c_char_p)]


def loaded():
    names = []
    cb_t = C.CFUNCTYPE(C.c_int, C.POINTER(Phdr), C.c_size_t, C.c_void_p)

    def cb(info, size, data):
        n = info.contents.name
        if n:
            names.append(os.fsdecode(n))
        return 0
    C.CDLL(None).dl_iterate_phdr(cb_t(cb), None)
    return names


def own(d, lib):
    # libucs.so.0 (a distribution), libucs-2be8eb38.so.0.0.0 (auditwheel): never libucs_signal
    return sorted(glob.glob("%s/lib%s.so*" % (d, lib)) + glob.glob("%s/lib%s-*.so*" % (d, lib)))


def load(path):
    # The libraries beside it first, global and lazy (libucm calls into libucs): copies renamed
    # in a wheel then satisfy each other whatever their run paths say.
    dl = C.CDLL(None)
    dl.dlopen.restype, dl.dlopen.argtypes = C.c_void_p, [C.c_char_p, C.c_int]
    dl.dlerror.restype = C.c_char_p
    d = os.path.dirname(path)
    for lib in ("ucm", "ucs", "uct"):
        for p in own(d, lib)[:1]:
            if not dl.dlopen(os.fsencode(p), 1 | C.RTLD_GLOBAL):  # RTLD_LAZY
                raise OSError((dl.dlerror() or b"dlopen failed").decode(errors="replace"))
    return C.CDLL(path, mode=C.RTLD_GLOBAL)


class MdRes(C.Structure):
    _fields_ = [("name", C.c_char * 16)]


class CompAttr(C.Structure):
    _fields_ = [("field_mask", C.c_uint64), ("name", C.c_char * 16), ("count", C.c_uint),
                ("resources", C.POINTER(MdRes)), ("flags", C.c_uint64)]


class TlRes(C.Structure):
    _fields_ = [("tl", C.c_char * 10), ("dev", C.c_char * 32), ("type", C.c_int), ("sys", C.c_uint8)]


def names_of(lib, symbol, n):
    try:
        arr = (C.c_char_p * n).in_dll(lib, symbol)
    except ValueError:
        return []
    out = []
    for v in arr:
        if v is None:
            break
        out.append(v.decode())
    return out


def memory_types(cap, mt):
    # cap: max_alloc, max_reg, flags, reg, detect, alloc, access (uct_md_attr_t.cap, UCX >= 1.10)
    parts = []
    for i, name in enumerate(mt):
        bit = 1 << i
        if not (cap[3] | cap[5]) & bit:
            continue
        kinds = [k for k, m in (("access", cap[6]), ("alloc", cap[5]), ("reg", cap[3]), ("detect", cap[4])) if m & bit]
        parts.append("%s (%s)" % (name, ",".join(kinds)))
    return ", ".join(parts)


def devices(uct, ucs, version):
    st = C.c_int
    for f in ("uct_query_components", "uct_component_query", "uct_md_config_read", "uct_md_open",
              "uct_md_query", "uct_md_query_tl_resources", "uct_md_close"):
        getattr(uct, f).restype = st
    mt = names_of(ucs, "ucs_memory_type_names", 16)
    dt = names_of(uct, "uct_device_type_names", 4)
    dmabuf = tuple(int(x) for x in version.split(".")[:2] if x.isdigit()) >= (1, 14)
    comps, n = C.POINTER(C.c_void_p)(), C.c_uint()
    if uct.uct_query_components(C.byref(comps), C.byref(n)) != 0:
        say("error: uct_query_components failed")
        return
    for c in range(n.value):
        comp = C.c_void_p(comps[c])
        a = CompAttr()
        a.field_mask = 1 | 2 | 8
        if uct.uct_component_query(comp, C.byref(a)) != 0:
            continue
        res = (MdRes * max(1, a.count))()
        a.resources = C.cast(res, C.POINTER(MdRes))
        a.field_mask = 4
        if uct.uct_component_query(comp, C.byref(a)) != 0:
            continue
        for r in range(a.count):
            md_name = res[r].name
            cfg, md = C.c_void_p(), C.c_void_p()
            if uct.uct_md_config_read(comp, None, None, C.byref(cfg)) != 0:
                continue
            rc = uct.uct_md_open(comp, md_name, cfg, C.byref(md))
            uct.uct_config_release(cfg)
            if rc != 0:
                say("# < failed to open memory domain %s >" % md_name.decode())
                continue
            tls, ntl = C.POINTER(TlRes)(), C.c_uint()
            if uct.uct_md_query_tl_resources(md, C.byref(tls), C.byref(ntl)) != 0:
                say("#   < failed to query memory domain resources >")
                uct.uct_md_close(md)
                continue
            cap = (C.c_uint64 * 1024)()
            if uct.uct_md_query(md, cap) == 0:
                say("#\n# Memory domain: %s\n#     Component: %s" % (md_name.decode(), a.name.decode()))
                if cap[2] & 2:
                    say("#             register: supported" + (", dmabuf" if dmabuf and cap[2] & (1 << 10) else ""))
                say("#         memory types: " + memory_types(cap, mt))
                if ntl.value == 0:
                    say("#   < no supported devices found >")
                seen = []
                for t in range(ntl.value):
                    if tls[t].tl not in seen:
                        seen.append(tls[t].tl)
                for tl in seen:
                    say("#\n#      Transport: " + tl.decode())
                    for t in range(ntl.value):
                        if tls[t].tl == tl:
                            kind = dt[tls[t].type] if 0 <= tls[t].type < len(dt) else "?"
                            say("#         Device: %s\n#           Type: %s" % (tls[t].dev.decode(), kind))
            uct.uct_release_tl_resource_list(tls)
            uct.uct_md_close(md)
    uct.uct_release_component_list(comps)


def modules(before):
    libs = [p for p in loaded() if "/libuc" in p]
    ucs = [p for p in libs if os.path.basename(p).startswith(("libucs.", "libucs-"))]
    for p in libs:
        say("lib " + p)
    if not ucs:
        return
    d = os.path.join(os.path.dirname(ucs[0]), "ucx")
    say("dir " + d)
    real = set(os.path.realpath(p) for p in libs)
    seen = set()
    for p in sorted(glob.glob(d + "/lib*.so*")):
        r = os.path.realpath(p)
        if r in seen:
            continue
        seen.add(r)
        alias = [q for q in libs if os.path.realpath(q) == r]
        say(("loaded " if alias else "present ") + os.path.basename(alias[0] if alias else p))


def main():
    tried = []
    for source, libs in candidates():
        if len(libs) > 1:
            say("copies " + " ".join(libs))
        try:
            ucp = load(libs[0])
        except OSError as e:
            tried.append("%s: %s" % (libs[0], e))
            continue
        say("source " + source)
        say("libucp " + libs[0])
        for t in tried:
            say("unloadable " + t)
        ucp.ucp_get_version_string.restype = C.c_char_p
        version = ucp.ucp_get_version_string().decode()
        d = os.path.dirname(libs[0])
        uct = C.CDLL((own(d, "uct") or ["libuct.so.0"])[0], mode=C.RTLD_GLOBAL)
        ucs = C.CDLL((own(d, "ucs") or ["libucs.so.0"])[0], mode=C.RTLD_GLOBAL)
        say("==> version <==\n# Library version: %s\n# Library path: %s" % (version, libs[0]))
        say("==> devices <==")
        devices(uct, ucs, version)
        say("==> modules <==")
        modules(libs)
        say("==> end <==")
        return 0
    if tried:
        say("error: no UCX copy loads: " + "; ".join(tried))
        return 1
    say("skipped: no UCX library found (no process maps libucp, no NIXL wheel copy, none in the system)")
    return 0


sys.exit(main())
)ICHECK_PY";

// 20 s: opening the cuda memory domains initialises the CUDA driver, which can take seconds on a
// node with many GPUs.
constexpr std::string_view kFragmentHead = R"ICHECK_SH(
begin ucx_lib
if command -v ucx_info >/dev/null 2>&1; then
  printf 'not run: ucx_info is in the image\n'
  end ucx_lib 0
elif command -v python3 >/dev/null 2>&1; then
  ucxl_t=$T
  T=20
  bounded python3 -c ')ICHECK_SH";

constexpr std::string_view kFragmentTail = R"ICHECK_SH(' </dev/null 2>&1
  ucxl_rc=$?
  T=$ucxl_t
  end ucx_lib $ucxl_rc
else
  end ucx_lib absent
fi
)ICHECK_SH";

}  // namespace

const std::string& ucx_lib_python() {
  static const std::string script = compact_python(kPython);
  return script;
}

std::string_view ucx_lib_fragment() {
  static const std::string fragment =
      std::string(kFragmentHead) + ucx_lib_python() + std::string(kFragmentTail);
  return fragment;
}

}  // namespace icheck::probe
