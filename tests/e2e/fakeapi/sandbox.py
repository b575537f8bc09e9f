"""Each fake pod is a sandbox: a small root filesystem and a way to run a command in it.

The root is built once per distinct root spec (identical pods share it) in the work dir: busybox-static as /bin/busybox with
relative applet symlinks (unless "busybox": false), then the scenario's layers from
tests/e2e/roots/ copied in order, inline files, removals. /sys, /proc and /dev inside the
root are plain files from the scenario; nothing of the host is bind-mounted.

A command runs as the container runtime would run it: argv[0] resolved inside the root
(missing -> the runtime's "executable file not found in $PATH" error, no process started),
then `unshare --mount --uts --pid --fork` + hostname set to the pod name + `chroot`, with a
cleared, pod-like environment, optionally under a lower RLIMIT_MEMLOCK (prlimit).
All processes of one exec share one process group (killpg on client close) and one pid
namespace (its init dying takes the rest with it).
"""
import glob
import os
import shutil
import signal
import subprocess
import threading

from . import scenario as scn

BUSYBOX = os.environ.get("FAKEAPI_BUSYBOX", "/bin/busybox")
UNSHARE = shutil.which("unshare") or "/usr/bin/unshare"
CHROOT = shutil.which("chroot") or "/usr/sbin/chroot"
HOSTNAME = shutil.which("hostname") or "/bin/hostname"
PRLIMIT = shutil.which("prlimit") or "/usr/bin/prlimit"
POD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


class SandboxError(RuntimeError):
    pass


def check_host():
    """Fail loudly when the host cannot sandbox (never run a pod's command on the host)."""
    if os.geteuid() != 0:
        raise SandboxError("fake API server needs root for chroot/unshare (euid %d)" % os.geteuid())
    for tool in (BUSYBOX, UNSHARE, CHROOT, HOSTNAME, PRLIMIT):
        if not os.access(tool, os.X_OK):
            raise SandboxError("missing %s (apt-get install -y busybox-static util-linux)" % tool)
    r = subprocess.run([UNSHARE, "--mount", "--uts", "--pid", "--fork", "--kill-child=SIGKILL",
                        "--", CHROOT, "/", "/bin/true"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SandboxError("unshare/chroot not possible here: %s" % r.stderr.strip())


_applets = None


def busybox_applets():
    global _applets
    if _applets is None:
        out = subprocess.run([BUSYBOX, "--list"], capture_output=True, text=True, check=True).stdout
        _applets = [a for a in out.split() if a and "/" not in a and a != "busybox"]
    return _applets


def _copy_layer(src, dst):
    for dirpath, dirnames, filenames in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        target = os.path.normpath(os.path.join(dst, rel))
        os.makedirs(target, exist_ok=True)
        # os.walk lists a link to a directory with the directories (and does not follow it)
        for fn in [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))] + filenames:
            s, d = os.path.join(dirpath, fn), os.path.join(target, fn)
            if os.path.lexists(d):
                os.unlink(d)
            if os.path.islink(s):
                os.symlink(os.readlink(s), d)
            else:
                shutil.copy2(s, d)


def root_key(pod):
    """Pods whose roots would be byte-identical share one built root (fan-out scenarios)."""
    import hashlib
    import json
    s = pod.spec
    key = json.dumps([s.get("root"), s.get("files"), s.get("fixtures"), s.get("remove"), s.get("fifos"),
                      s.get("busybox", True), s.get("python", False), s.get("host_tools"),
                      s.get("stand_in_libraries"), s.get("ucx_wheel"),
                      pod.exec.get("memlock_bytes")],
                     sort_keys=True)
    return hashlib.sha1(key.encode()).hexdigest()[:12]


_roots = {}
_roots_lock = threading.Lock()


def sandbox_for(pod, workdir):
    """One Sandbox per pod, sharing the built root with identical pods."""
    key = root_key(pod)
    with _roots_lock:
        shared = _roots.setdefault((workdir, key), _SharedRoot(os.path.join(workdir, "roots", key)))
    return Sandbox(pod, shared)


class _SharedRoot:
    def __init__(self, path):
        self.path = path
        self.built = False
        self.lock = threading.Lock()


class Sandbox:
    def __init__(self, pod, shared):
        self.pod = pod
        self.shared = shared
        self.root = shared.path

    def build(self):
        with self.shared.lock:
            if self.shared.built:
                return
            spec = self.pod.spec
            root = self.root
            if os.path.exists(root):
                shutil.rmtree(root)
            for d in ("bin", "tmp", "root", "etc", "proc", "sys", "dev", "usr/bin", "usr/local/bin"):
                os.makedirs(os.path.join(root, d), exist_ok=True)
            os.chmod(os.path.join(root, "tmp"), 0o1777)
            if spec.get("busybox", True):
                bb = os.path.join(root, "bin", "busybox")
                try:
                    os.link(_shared_busybox(os.path.dirname(os.path.dirname(root))), bb)
                except OSError:
                    shutil.copy2(BUSYBOX, bb)
                for a in busybox_applets():
                    p = os.path.join(root, "bin", a)
                    if not os.path.lexists(p):
                        os.symlink("busybox", p)
            if spec.get("python", False):
                install_python(root)
            if spec.get("host_tools"):
                install_host_tools(root, spec["host_tools"])
            if spec.get("ucx_wheel"):
                install_ucx_wheel(root, spec["ucx_wheel"])
            for layer in spec.get("root", []):
                src = os.path.join(scn.ROOTS_DIR, layer)
                if not os.path.isdir(src):
                    raise SandboxError("pod %s: root layer %r not found under %s"
                                       % (self.pod.name, layer, scn.ROOTS_DIR))
                _copy_layer(src, root)
            for rel, content in spec.get("files", {}).items():
                p = os.path.join(root, rel.lstrip("/"))
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "w") as f:
                    f.write(content)
                if rel.lstrip("/").startswith(("usr/bin/", "usr/local/bin/", "bin/", "sbin/")):
                    os.chmod(p, 0o755)
            for rel, fixture in spec.get("fixtures", {}).items():
                p = os.path.join(root, rel.lstrip("/"))
                os.makedirs(os.path.dirname(p), exist_ok=True)
                shutil.copy2(os.path.join(scn.FIXTURES_DIR, fixture), p)
            for rel in spec.get("stand_in_libraries", []):
                install_stand_in_library(root, rel)
            for rel in spec.get("remove", []):
                p = os.path.join(root, rel.lstrip("/"))
                if os.path.isdir(p) and not os.path.islink(p):
                    shutil.rmtree(p)
                elif os.path.lexists(p):
                    os.unlink(p)
            for rel in spec.get("fifos", []):
                p = os.path.join(root, rel.lstrip("/"))
                os.makedirs(os.path.dirname(p), exist_ok=True)
                if os.path.lexists(p):
                    os.unlink(p)
                os.mkfifo(p)
            memlock = self.pod.exec.get("memlock_bytes")
            limits = os.path.join(root, "proc", "self", "limits")
            if memlock is not None and os.path.isfile(limits):
                with open(limits) as f:
                    lines = f.read().splitlines(True)
                with open(limits, "w") as f:
                    for line in lines:
                        if line.startswith("Max locked memory"):
                            line = "%-26s%-21d%-21d%-10s\n" % ("Max locked memory", memlock, memlock, "bytes")
                        f.write(line)
            self.shared.built = True

    def env(self, container):
        env = {"PATH": POD_PATH, "HOSTNAME": self.pod.name, "HOME": "/root",
               "KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443"}
        for k, v in container.get("env", {}).items():
            env[k] = str(v)
        return env

    def resolve(self, argv0, env):
        """Return None when the runtime would find argv0, else the runtime's error text."""
        def exists(path):
            # Follow symlinks inside the root (they are relative or root-absolute).
            p = path
            for _ in range(16):
                host = os.path.join(self.root, p.lstrip("/"))
                if os.path.islink(host):
                    target = os.readlink(host)
                    p = target if target.startswith("/") else os.path.join(os.path.dirname(p), target)
                    continue
                return os.path.isfile(host) and os.access(host, os.X_OK)
            return False
        if "/" in argv0:
            return None if exists(argv0) else \
                'exec: "%s": stat %s: no such file or directory' % (argv0, argv0)
        for d in env.get("PATH", "").split(":"):
            if d and exists(os.path.join(d, argv0)):
                return None
        return 'exec: "%s": executable file not found in $PATH' % argv0

    def spawn(self, argv, container, stdin=False):
        """Start argv in the sandbox; returns a subprocess.Popen with stdout/stderr pipes (and a
        stdin pipe with stdin=True, else /dev/null)."""
        self.build()
        env = self.env(container)
        if self.pod.exec["hang"]:
            argv = ["/bin/sleep", "2147483647"]
        cmd = [UNSHARE, "--mount", "--uts", "--pid", "--fork", "--kill-child=SIGKILL", "--",
               "/bin/sh", "-c", 'h=$0; n=$1; shift; "$h" "$n" && { "$@"; exit $?; }', HOSTNAME, self.pod.name,
               CHROOT, self.root] + list(argv)
        # The setup shell above runs from the host (before chroot) only to set the hostname in
        # the new UTS namespace and give this exec its own /tmp (roots are shared between
        # identical pods); the pod's command itself only ever runs chrooted. The shell stays as
        # the namespace's PID 1 (the container's main process in a real pod), so the exec'd
        # command is an ordinary process: a SIGTERM from an in-pod `timeout` ends it, as it does
        # in a real container (PID 1 ignores signals it has no handler for).
        memlock = self.pod.exec.get("memlock_bytes")
        if memlock is not None:
            cmd = [PRLIMIT, "--memlock=%d:%d" % (memlock, memlock), "--"] + cmd
        # The host's unshare/sh/chroot are dynamically linked: the pod's LD_* variables (the
        # TRT-LLM image sets LD_PRELOAD) must reach only the chrooted command, through the
        # root's static busybox `env`.
        host_env = {k: v for k, v in env.items() if not k.startswith("LD_")}
        loader = ["%s=%s" % (k, v) for k, v in sorted(env.items()) if k.startswith("LD_")]
        if loader:
            at = cmd.index(self.root) + 1
            cmd[at:at] = ["/bin/busybox", "env"] + loader
        return subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=host_env, cwd=self.root,
                                start_new_session=True, bufsize=0)


PYTHON = "/usr/bin/python3.11"
PYTHON_LIB = "/usr/lib/python3.11"
# Not needed by anything a pod runs; the site-packages stay out so that a pod sees only its own.
PYTHON_SKIP = {"test", "tests", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3", "__pycache__",
               "site-packages", "dist-packages", "config-3.11-x86_64-linux-gnu", "pydoc_data"}
_python_files = None


def _shared_libraries(paths):
    """The libraries (and the loader) that ldd resolves for these executables."""
    libs = set()
    out = subprocess.run(["ldd"] + paths, capture_output=True, text=True).stdout
    for line in out.splitlines():
        words = line.split()
        if "=>" in words and len(words) > words.index("=>") + 1 and words[words.index("=>") + 1].startswith("/"):
            libs.add(words[words.index("=>") + 1])
        elif words and words[0].startswith("/") and "ld-linux" in words[0]:
            libs.add(words[0])
    return libs


def python_files():
    """Every file install_python puts into a root (computed once)."""
    global _python_files
    if _python_files is None:
        files = [PYTHON]
        for dirpath, dirnames, filenames in os.walk(PYTHON_LIB):
            dirnames[:] = [d for d in dirnames if d not in PYTHON_SKIP]
            files += [os.path.join(dirpath, f) for f in filenames]
        dynload = [f for f in files if f.endswith(".so")]
        _python_files = files + sorted(_shared_libraries([PYTHON] + dynload))
    return _python_files


def _link_into(root, files):
    """Each (host path, path in the root): hard links where the root shares the file system (a
    root costs no copy), else copies."""
    for src, rel in files:
        dst = os.path.join(root, rel.lstrip("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.lexists(dst):
            continue
        try:
            os.link(os.path.realpath(src), dst)
        except OSError:
            shutil.copy2(src, dst)


def install_python(root):
    """This machine's Python as the pod's python3."""
    if not os.access(PYTHON, os.X_OK):
        raise SandboxError("missing %s for a pod with \"python\": true" % PYTHON)
    _link_into(root, [(f, f) for f in python_files()])
    os.symlink("python3.11", os.path.join(root, "usr", "bin", "python3"))


UCX_MODULES = "/usr/lib/x86_64-linux-gnu/ucx"
VERBS_PROVIDERS = "/usr/lib/x86_64-linux-gnu/libibverbs"
VERBS_DRIVERS = "/etc/libibverbs.d"


def host_tool_files(tools):
    """(host path, root path) for real tools of this machine (Debian's ucx-utils, ibverbs-utils:
    tools/deps.sh installs them), their libraries, UCX's transport modules (found beside libucs)
    and the verbs providers with their driver files."""
    found = [shutil.which(t, path="/usr/bin:/usr/sbin") for t in tools]
    if None in found:
        raise SandboxError("missing %s on this machine (tools/deps.sh installs ucx-utils and ibverbs-utils)"
                           % tools[found.index(None)])
    modules = sorted(glob.glob(os.path.join(UCX_MODULES, "*.so*")))
    providers = sorted(glob.glob(os.path.join(VERBS_PROVIDERS, "*.so")))
    libs = sorted(_shared_libraries(found + modules + providers))
    libucs = [l for l in libs if os.path.basename(l).startswith("libucs.so")]
    module_dir = os.path.join(os.path.dirname(libucs[0]), "ucx") if libucs else UCX_MODULES
    files = [(f, f) for f in found + libs + providers + glob.glob(os.path.join(VERBS_DRIVERS, "*"))]
    return files + [(m, os.path.join(module_dir, os.path.basename(m))) for m in modules]


STAND_IN_LIBRARY = "/lib/x86_64-linux-gnu/libz.so.1"


def install_stand_in_library(root, rel):
    """A real shared library of this machine (zlib: it needs only libc) under a plugin's name, so
    that the dynamic loader a pod with "python" or "host_tools" has maps it as it would a NIXL
    plugin (an empty file is 'too short' to load). The library and libc come with it."""
    _link_into(root, [(f, f) for f in sorted({STAND_IN_LIBRARY} | _shared_libraries([STAND_IN_LIBRARY]))])
    dst = os.path.join(root, rel.lstrip("/"))
    if os.path.lexists(dst):
        os.unlink(dst)
    _link_into(root, [(STAND_IN_LIBRARY, rel)])


# A NIXL wheel's private UCX as its .libs directory holds it: the core libraries renamed by
# auditwheel (libucs-2be8eb38.so.0.0.0 as ai-dynamo/nixl #1668's maps show it in nixl_cu13.libs,
# libucp-e76cb9e6 from a public nixl-cu13 1.3.2 note; the libuct/libucm hashes follow their form)
# and the modules under ucx/ with their own names (nixl_cu13.libs/ucx/libuct_cuda.so.0.0.0), here
# made of this machine's Debian UCX 1.13.1 files, with what the modules load.
UCX_WHEEL_NAMES = {"libucm.so.0": "libucm-3f5a9c21.so.0.0.0", "libucs.so.0": "libucs-2be8eb38.so.0.0.0",
                   "libuct.so.0": "libuct-8d04e7b6.so.0.0.0", "libucp.so.0": "libucp-e76cb9e6.so.0.0.0"}


def install_ucx_wheel(root, rel):
    core = {}
    for lib in UCX_WHEEL_NAMES:
        found = glob.glob(os.path.join("/usr/lib/x86_64-linux-gnu", lib)) + glob.glob(os.path.join("/lib/x86_64-linux-gnu", lib))
        if not found:
            raise SandboxError("missing %s on this machine (tools/deps.sh installs ucx-utils)" % lib)
        core[lib] = os.path.realpath(found[0])
    modules = sorted(os.path.realpath(m) for m in glob.glob(os.path.join(UCX_MODULES, "*.so.0")))
    deps = [d for d in sorted(_shared_libraries(list(core.values()) + modules))
            if not os.path.basename(d).startswith(("libucm", "libucs", "libuct", "libucp"))]
    files = [(d, d) for d in deps] + [(core[l], os.path.join(rel, n)) for l, n in UCX_WHEEL_NAMES.items()]
    files += [(m, os.path.join(rel, "ucx", os.path.basename(m))) for m in modules]
    _link_into(root, files)


def install_host_tools(root, tools):
    _link_into(root, host_tool_files(tools))
    if any(t.startswith("ucx_") for t in tools):
        install_host_netdevs(root)


def install_host_netdevs(root):
    """UCX's tcp transport lists /sys/class/net and uses what it finds through the (shared) host
    network namespace; between two pods it needs an interface other than lo (UCX reaches lo only
    within one machine, and each pod is a machine of its own: hostname, boot id). So the root
    gets this machine's interface names (a link to a directory with their `type`, as sysfs has
    it) and /proc/net/route."""
    for name in os.listdir("/sys/class/net"):
        dev = os.path.join(root, "sys", "devices", "virtual", "net", name)
        os.makedirs(dev, exist_ok=True)
        try:
            shutil.copyfile(os.path.join("/sys/class/net", name, "type"), os.path.join(dev, "type"))
        except OSError:
            pass
        link = os.path.join(root, "sys", "class", "net", name)
        os.makedirs(os.path.dirname(link), exist_ok=True)
        if not os.path.lexists(link):
            os.symlink("../../devices/virtual/net/" + name, link)
    os.makedirs(os.path.join(root, "proc", "net"), exist_ok=True)
    shutil.copyfile("/proc/net/route", os.path.join(root, "proc", "net", "route"))


def kill(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


_shared_lock = threading.Lock()


def _shared_busybox(workdir):
    p = os.path.join(workdir, "busybox")
    with _shared_lock:
        if not os.path.exists(p):
            shutil.copy2(BUSYBOX, p)
    return p


def processes_in(workdir):
    """PIDs of live processes whose root or cwd lies inside workdir (the sandboxes' roots)."""
    base = os.path.realpath(workdir)
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        for link in ("root", "cwd"):
            try:
                t = os.readlink("/proc/%s/%s" % (d, link))
            except OSError:
                continue
            if t == base or t.startswith(base + "/"):
                pids.append(int(d))
                break
    return sorted(set(pids))


def describe(pid):
    """"PID: argv" of a process, for a test's failure message."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        return "%d: (gone)" % pid
    return "%d: %s" % (pid, " ".join(a.decode(errors="replace") for a in argv if a))
