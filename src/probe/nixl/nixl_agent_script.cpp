#include "probe/nixl/nixl_agent_script.hpp"

#include "probe/transfer/nixl_python_script.hpp"

namespace icheck::probe {
namespace {

// Only the backends that move KV between pods and open nothing remote when created: UCX (a
// context and a worker, no endpoint) and LIBFABRIC (a local fabric domain). Mooncake's would
// reach its metadata server, so it is never created here.
constexpr std::string_view kPython = R"ICHECK_PY(
import os
import sys

say = lambda *a: print(*a, flush=True)


def described(e):
    t = type(e)
    if t.__module__ == "builtins":
        return "%s: %s" % (t.__name__, e)
    return "%s.%s: %s" % (t.__module__, t.__name__, e)


try:
    import nixl._api as api
except Exception as e:
    say("skipped: import nixl._api: " + described(e))
    sys.exit(0)
try:
    conf = api.nixl_agent_config(enable_prog_thread=False, enable_listen_thread=False, backends=[])
except (TypeError, AttributeError) as e:
    say("skipped: nixl._api differs: " + described(e))
    sys.exit(0)
try:
    agent = api.nixl_agent("icheck-probe-%d" % os.getpid(), conf)
    plugins = list(agent.get_plugin_list())
except (TypeError, AttributeError) as e:
    say("skipped: nixl._api differs: " + described(e))
    sys.exit(0)
except Exception as e:
    say("error: " + described(e))
    sys.exit(0)
say("plugins " + " ".join(str(p) for p in plugins))
for name in ("UCX", "LIBFABRIC"):
    if name not in plugins:
        say("backend %s not listed" % name)
        continue
    try:
        agent.create_backend(name)
        say("backend %s created" % name)
    except Exception as e:
        say("backend %s error %s" % (name, " ".join(described(e).split())))
say("end")
sys.stdout.flush()
os._exit(0)
)ICHECK_PY";

// os._exit: the agent's destructors (UCX's worker and context) are not waited for once every
// answer is out.
constexpr std::string_view kFragmentHead = R"ICHECK_SH(
nx_begin nixl_agent
if nx_which python3; then
  nx_bounded 20 "$nx_found" -c ')ICHECK_SH";

constexpr std::string_view kFragmentTail = R"ICHECK_SH(' </dev/null 2>&1
  nx_end nixl_agent $?
else
  nx_end nixl_agent absent
fi
)ICHECK_SH";

}  // namespace

const std::string& nixl_agent_python() {
  static const std::string script = compact_python(kPython);
  return script;
}

std::string_view nixl_agent_fragment() {
  static const std::string fragment =
      std::string(kFragmentHead) + nixl_agent_python() + std::string(kFragmentTail);
  return fragment;
}

}  // namespace icheck::probe
