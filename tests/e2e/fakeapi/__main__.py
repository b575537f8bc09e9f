"""python3 -m fakeapi --scenario NAME|DIR [--port 0] [--port-file F] [--request-log F] [--workdir D]
                     [--rbac ROLE_YAML]"""
import argparse
import os
import shutil
import signal
import sys
import tempfile
import time

from . import rbac
from . import sandbox as sbx
from . import scenario as scn
from .server import FakeAPI


def main(argv=None):
    ap = argparse.ArgumentParser(prog="fakeapi")
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--request-log")
    ap.add_argument("--workdir", help="where pod roots are built (default: a temp dir, removed at exit)")
    ap.add_argument("--rbac", help="Role/ClusterRole YAML: only what its rules allow (403 otherwise)")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    sbx.check_host()
    sc = scn.load(a.scenario)
    own = a.workdir is None
    workdir = a.workdir or tempfile.mkdtemp(prefix="fakeapi-")
    os.makedirs(workdir, exist_ok=True)
    log = a.request_log or os.path.join(workdir, "requests.jsonl")
    srv = FakeAPI(sc, workdir, log, a.port, rbac.Rules(a.rbac) if a.rbac else None)
    for box in srv.sandboxes.values():
        box.build()
    port = srv.server_address[1]
    if a.port_file:
        tmp = a.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % port)
        os.replace(tmp, a.port_file)
    print("fakeapi: scenario %s, %d pods, http://127.0.0.1:%d, ready in %.2fs"
          % (sc.name, len(sc.pods), port, time.monotonic() - t0), flush=True)

    def stop(*_):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    try:
        srv.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
        for pid in sbx.processes_in(workdir):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if own:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
