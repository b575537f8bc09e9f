// The NIXL probe fragment: it runs under dash and busybox ash, and its sections parse into
// NixlFacts. Probe outputs below are synthetic: the fragment's own section grammar filled
// with the layouts of dynamo-nixl.md §4.5.
#include "probe/nixl/nixl_facts.hpp"
#include "probe/nixl/nixl_script.hpp"
#include "probe/node_script.hpp"
#include "probe/sections.hpp"
#include "run_shell.hpp"

#include <cstdlib>
#include <doctest/doctest.h>
#include <string>
#include <unistd.h>

using namespace icheck::probe;

namespace {

// synthetic: vLLM runtime since May 2026 (NIXL from the nixl-cu13 wheel, /opt/dynamo/nixl a
// symlink to .nixl_cu13.mesonpy.libs, UCX private to the wheel, no ucx_info).
const char* kVllm = R"(
@@icheck:begin nixl_env@@
NIXL_PLUGIN_DIR=/opt/dynamo/nixl/plugins
LD_PRELOAD=
@@icheck:end nixl_env rc=0@@
@@icheck:begin nixl_dirs@@
@ env /opt/dynamo/nixl/plugins
real /opt/dynamo/venv/lib/python3.12/site-packages/.nixl_cu13.mesonpy.libs/plugins
libplugin_UCX.so
libplugin_POSIX.so
@ opt-dynamo /opt/dynamo/nixl/plugins
real /opt/dynamo/venv/lib/python3.12/site-packages/.nixl_cu13.mesonpy.libs/plugins
libplugin_UCX.so
libplugin_POSIX.so
@ wheel /opt/dynamo/venv/lib/python3.12/site-packages/.nixl_cu13.mesonpy.libs/plugins
real /opt/dynamo/venv/lib/python3.12/site-packages/.nixl_cu13.mesonpy.libs/plugins
libplugin_UCX.so
libplugin_POSIX.so
@@icheck:end nixl_dirs rc=0@@
@@icheck:begin nixl_python@@
file /opt/dynamo/venv/lib/python3.12/site-packages/nixl/__init__.py
@@icheck:end nixl_python rc=0@@
@@icheck:begin nixl_versions@@
==> /opt/dynamo/venv/lib/python3.12/site-packages/nixl-1.3.2.dist-info/METADATA <==
Name: nixl
Version: 1.3.2
==> /opt/dynamo/venv/lib/python3.12/site-packages/nixl_cu13-1.3.2.dist-info/METADATA <==
Name: nixl-cu13
Version: 1.3.2
@@icheck:end nixl_versions rc=0@@
@@icheck:begin nixl_tools@@
@@icheck:end nixl_tools rc=0@@
@@icheck:begin nixl_bench_help@@
@@icheck:end nixl_bench_help rc=absent@@
@@icheck:begin nixl_efa@@
@@icheck:end nixl_efa rc=0@@
@@icheck:begin nixl_ucx_maps@@
pid 42 python3
7f1a2c000000-7f1a2c02a000 r--p 00000000 00:2f 1234 /opt/dynamo/venv/lib/python3.12/site-packages/nixl_cu13.libs/libucs-2be8eb38.so.0.0.0
7f1a2c02a000-7f1a2c08a000 r-xp 0002a000 00:2f 1234 /opt/dynamo/venv/lib/python3.12/site-packages/nixl_cu13.libs/libucs-2be8eb38.so.0.0.0
7f1a2d000000-7f1a2d0a0000 r-xp 00000000 00:2f 1240 /opt/dynamo/venv/lib/python3.12/site-packages/nixl_cu13.libs/libucp-7c1d0e51.so.0.0.0
@@icheck:end nixl_ucx_maps rc=0@@
)";

// synthetic: TRT-LLM runtime (bundled tensorrt_llm/libs/nixl, LD_PRELOAD workaround for
// nixl#1668, nixl-versions.txt), with nixlbench built from a 2026 release and a second UCX
// mapped from /usr/local/ucx.
const char* kTrtllm = R"(
@@icheck:begin nixl_env@@
NIXL_PLUGIN_DIR=/usr/local/lib/python3.12/dist-packages/tensorrt_llm/libs/nixl/plugins
LD_PRELOAD=/usr/local/lib/python3.12/dist-packages/tensorrt_llm/libs/nixl/libnixl.so
@@icheck:end nixl_env rc=0@@
@@icheck:begin nixl_dirs@@
@ env /usr/local/lib/python3.12/dist-packages/tensorrt_llm/libs/nixl/plugins
real /usr/local/lib/python3.12/dist-packages/tensorrt_llm/libs/nixl/plugins
libplugin_UCX.so
libplugin_LIBFABRIC.so
@ tensorrt-llm /usr/local/lib/python3.12/dist-packages/tensorrt_llm/libs/nixl/plugins
real /usr/local/lib/python3.12/dist-packages/tensorrt_llm/libs/nixl/plugins
libplugin_UCX.so
libplugin_LIBFABRIC.so
@@icheck:end nixl_dirs rc=0@@
@@icheck:begin nixl_python@@
Traceback (most recent call last):
  File "<string>", line 1, in <module>
ModuleNotFoundError: No module named 'nixl'
@@icheck:end nixl_python rc=1@@
@@icheck:begin nixl_versions@@
==> /opt/dynamo/nixl-versions.txt <==
pip nixl: 0.10.1
loaded nixl (tensorrt_llm): 0.9.0
ucx: 1.20.0
@@icheck:end nixl_versions rc=0@@
@@icheck:begin nixl_tools@@
nixlbench /usr/local/nixlbench/bin/nixlbench
ucx_perftest /usr/local/ucx/bin/ucx_perftest
ucx_info /usr/local/ucx/bin/ucx_info
@@icheck:end nixl_tools rc=0@@
@@icheck:begin nixl_bench_help@@
    -asio_address (ASIO runtime listen/connect address) type: string default: "127.0.0.1"
    -runtime_type (Type of runtime to use [ETCD, ASIO]) type: string default: "ETCD"
@@icheck:end nixl_bench_help rc=0@@
@@icheck:begin nixl_efa@@
rdmap16s27
@@icheck:end nixl_efa rc=0@@
@@icheck:begin nixl_ucx_maps@@
pid 7 trtllm-serve
7f00 r-xp 0 00:1 1 /usr/local/ucx/lib/libucp.so.0.0.0
7f01 r-xp 0 00:1 2 /usr/local/ucx/lib/libucs.so.0.0.0
7f02 r-xp 0 00:1 3 /usr/local/lib/python3.12/dist-packages/nixl_cu13.libs/libucs-2be8eb38.so.0.0.0
7f03 r-xp 0 00:1 3 /usr/local/lib/python3.12/dist-packages/nixl_cu13.libs/libucs-2be8eb38.so.0.0.0
@@icheck:end nixl_ucx_maps rc=0@@
)";

}  // namespace

TEST_CASE("nixl probe: vLLM wheel layout, symlinked dirs counted once") {
  auto f = parse_nixl_probe(kVllm);
  CHECK(f.probed);
  CHECK(f.plugin_dir_env == "/opt/dynamo/nixl/plugins");
  REQUIRE(f.plugin_dirs.size() == 1);
  CHECK(f.plugin_dirs[0].source == "env");
  CHECK(f.plugin_dirs[0].plugins == std::vector<std::string>{"UCX", "POSIX"});
  CHECK(f.active_plugin_dir()->has("UCX"));
  CHECK(f.python_import.attempted);
  CHECK(f.python_import.ok);
  CHECK(f.python_import.path == "/opt/dynamo/venv/lib/python3.12/site-packages/nixl/__init__.py");
  CHECK(f.versions.nixl == "1.3.2");
  CHECK(f.versions.nixl_source.ends_with("nixl_cu13-1.3.2.dist-info/METADATA"));
  CHECK_FALSE(f.tools.any_transfer_tool());
  CHECK(f.efa_devices.empty());
  REQUIRE(f.ucx_in_process);
  CHECK(f.ucx_in_process->pid == "42");
  CHECK(f.ucx_in_process->libs.size() == 2);
  CHECK(f.ucx_copies().size() == 1);
  CHECK(f.nixl_found());
}

TEST_CASE("nixl probe: TRT-LLM layout, versions file, nixlbench with ASIO, two UCX copies") {
  auto f = parse_nixl_probe(kTrtllm);
  REQUIRE(f.plugin_dirs.size() == 1);
  CHECK(f.plugin_dirs[0].has("LIBFABRIC"));
  CHECK(f.ld_preload.ends_with("tensorrt_llm/libs/nixl/libnixl.so"));
  CHECK(f.python_import.attempted);
  CHECK_FALSE(f.python_import.ok);
  CHECK(f.python_import.error == "ModuleNotFoundError: No module named 'nixl'");
  CHECK(f.versions.nixl == "0.10.1");
  CHECK(f.versions.ucx == "1.20.0");
  CHECK(f.versions.lines.size() == 3);
  REQUIRE(f.tools.nixlbench);
  CHECK(f.tools.nixlbench->path == "/usr/local/nixlbench/bin/nixlbench");
  CHECK(f.tools.nixlbench->asio == true);
  CHECK(f.tools.ucx_perftest == "/usr/local/ucx/bin/ucx_perftest");
  CHECK(f.tools.nixl_test.empty());
  CHECK(f.efa_devices == std::vector<std::string>{"rdmap16s27"});
  CHECK(f.ucx_in_process->libs.size() == 3);
  CHECK(f.ucx_copies() ==
        std::vector<std::string>{"/usr/local/ucx/lib",
                                 "/usr/local/lib/python3.12/dist-packages/nixl_cu13.libs"});
}

TEST_CASE("nixl probe: nixl-versions.txt as the Dynamo images write it (uv pip show | grep)") {
  // synthetic: the lines container/templates/trtllm_runtime.Dockerfile tees into the file:
  // `uv pip show nixl nixl-cu13 | grep -E '^(Name|Version)'` and `loaded_libnixl:
  // ${LD_PRELOAD##*:}`.
  auto f = parse_nixl_probe(
      "@@icheck:begin nixl_versions@@\n==> /opt/dynamo/nixl-versions.txt <==\n"
      "Name: nixl\nVersion: 1.0.1\nName: nixl-cu13\nVersion: 1.0.1\n"
      "loaded_libnixl: /usr/local/lib/python3.12/dist-packages/tensorrt_llm/libs/nixl/libnixl.so\n"
      "@@icheck:end nixl_versions rc=0@@\n");
  CHECK(f.versions.nixl == "1.0.1");
  CHECK(f.versions.nixl_source == "/opt/dynamo/nixl-versions.txt");
  CHECK_FALSE(f.versions.ucx);
  CHECK(f.versions.lines.size() == 5);
}

TEST_CASE("nixl probe: nixlbench --help without asio flags means an etcd-only build") {
  auto f = parse_nixl_probe("@@icheck:begin nixl_tools@@\nnixlbench "
                            "/usr/local/bin/nixlbench\n@@icheck:end nixl_tools rc=0@@\n"
                            "@@icheck:begin nixl_bench_help@@\n    -runtime_type (Type of runtime "
                            "to use [ETCD]) type: string\n"
                            "@@icheck:end nixl_bench_help rc=0@@\n");
  REQUIRE(f.tools.nixlbench);
  CHECK(f.tools.nixlbench->asio == false);
  auto unknown = parse_nixl_probe(
      "@@icheck:begin nixl_tools@@\nnixlbench /x/nixlbench\n@@icheck:end nixl_tools rc=0@@\n"
      "@@icheck:begin nixl_bench_help@@\n@@icheck:end nixl_bench_help rc=124@@\n");
  CHECK_FALSE(unknown.tools.nixlbench->asio.has_value());
}

TEST_CASE("nixl probe: NIXL_PLUGIN_DIR names a missing directory, python timed out") {
  auto f = parse_nixl_probe(
      "@@icheck:begin nixl_dirs@@\n! env /opt/nixl/plugins\n@@icheck:end nixl_dirs rc=0@@\n"
      "@@icheck:begin nixl_python@@\n@@icheck:end nixl_python rc=124@@\n");
  CHECK(f.plugin_dir_env_missing);
  CHECK(f.plugin_dirs.empty());
  CHECK(f.python_import.error == "timed out");
  CHECK_FALSE(f.nixl_found());
}

TEST_CASE("nixl probe: no sections at all is not probed") {
  CHECK_FALSE(parse_nixl_probe("").probed);
  CHECK_FALSE(parse_nixl_probe("error: unable to upgrade connection").probed);
}

TEST_CASE("nixl probe fragment, alone and after the node script, gives every section under dash "
          "and busybox ash") {
  const std::string alone(nixl_probe_script());
  const std::string combined =
      insert_before_done(node_probe_script(), nixl_probe_script());  // as pods run it
  for (const std::string& shell : icheck::test::installed_shells()) {
    for (const auto* script : {&alone, &combined}) {
      CAPTURE(shell);
      CAPTURE(script == &alone);
      auto out = split_sections(icheck::test::run_shell(shell, *script));
      for (auto name :
           {"nixl_env", "nixl_dirs", "nixl_python", "nixl_versions", "nixl_tools",
            "nixl_bench_help", "nixl_efa", "nixl_ucx_maps", "nixl_engine_config", "nixl_libs"}) {
        CAPTURE(name);
        const auto* s = out.find(name);
        REQUIRE(s != nullptr);
        CHECK(s->complete);
      }
    }
  }
  CHECK_FALSE(icheck::test::installed_shells()
                  .empty());  // dash is Debian's /bin/sh; busybox comes with tools/deps.sh
}

TEST_CASE("after the node script, the fragment's tools are bounded with the node script's killer") {
  // A tool whose child keeps the output pipe: killing only the tool's pid would leave the probe
  // waiting the child's full 60 s; the node script's bounded() ends the whole tree at 1 s. It took
  // the full wait 1 run in 3 under busybox: the tool died first, bounded() woke and killed the
  // killer before it reached the child (kill_tree now stops the tool first and kills it last).
  // Only the bounded call is timed, in the script (the node script before it takes its own time
  // under load), against half the child's sleep: a kill that works ends it within seconds.
  const std::string script = insert_before_done(
      node_probe_script(), std::string(nixl_probe_script()) +
                               "\nt0=$(date +%s)\nnx_bounded 1 sh -c 'sleep 60; :'\n"
                               "echo bounded_rc=$? bounded_secs=$(( $(date +%s) - t0 ))\n");
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    const auto out = icheck::test::run_shell(shell, script);
    const auto at = out.find("bounded_secs=");
    REQUIRE(at != std::string::npos);
    const int secs = std::stoi(out.substr(at + 13));
    CAPTURE(secs);
    CHECK(secs < 30);
    // Killed (137): the tool stopped before its child was killed, so it never saw the child end
    // and exited 0 (a timed-out tool read as a success).
    CHECK(out.find("bounded_rc=137") != std::string::npos);
  }
}

TEST_CASE("nixl probe fragment reads the backend variables from the environment") {
  // The vLLM arg of qwen3-32b/vllm/cloud-providers/deploy-aws-p5.48xlarge.yaml as a variable.
  const std::string env =
      "export TRTLLM_NIXL_KVCACHE_BACKEND=LIBFABRIC DYN_KVBM_NIXL_BACKEND_UCX=false "
      "KV_TRANSFER_CONFIG='{\"kv_connector\":\"NixlConnector\",\"kv_connector_extra_config\":"
      "{\"backends\":[\"LIBFABRIC\"]}}' UCX_TLS=rc_x; ";
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    auto f =
        parse_nixl_probe(icheck::test::run_shell(shell, env + std::string(nixl_probe_script())));
    CHECK(f.backend_env.at("TRTLLM_NIXL_KVCACHE_BACKEND") == "LIBFABRIC");
    CHECK(f.backend_env.at("DYN_KVBM_NIXL_BACKEND_UCX") == "false");
    CHECK(
        f.backend_env.at("KV_TRANSFER_CONFIG") ==
        R"({"kv_connector":"NixlConnector","kv_connector_extra_config":{"backends":["LIBFABRIC"]}})");
    CHECK_FALSE(f.backend_env.contains("UCX_TLS"));  // the node probe's transport_env has those
  }
}

TEST_CASE("the fragment goes before the node script's done marker") {
  auto combined = insert_before_done(node_probe_script(), nixl_probe_script());
  auto done = combined.rfind("done@@");
  REQUIRE(done != std::string::npos);
  CHECK(combined.find("nixl_ucx_maps") < done);
  CHECK(insert_before_done("echo hi\n", "echo nx\n") == "echo hi\necho nx\n");
}

TEST_CASE(
    "nixl probe fragment reads the engine config a running process was given, not its own grep's") {
  // A real process on this machine whose argv holds --extra-engine-args with a relative path:
  // the fragment must find it in /proc, resolve the path in that process's cwd, and print the file.
  const std::string dir = "/tmp/icheck_engine_" + std::to_string(::getpid());
  const std::string setup =
      "mkdir -p " + dir +
      " && printf 'backend: pytorch\\ncache_transceiver_config:\\n"
      "  backend: UCX\\n' > " +
      dir + "/engine.yaml && cd " + dir +
      " && (sh -c 'sleep 20; :' icheck-worker --extra-engine-args engine.yaml & echo $! > pid)";
  REQUIRE(std::system(setup.c_str()) == 0);
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    const auto f =
        parse_nixl_probe(icheck::test::run_shell(shell, std::string(nixl_probe_script())));
    REQUIRE(f.engine_config.has_value());
    CHECK(f.engine_config->path == "engine.yaml");
    CHECK(f.engine_config->comm == "sh");
    REQUIRE(f.engine_config->text.has_value());
    CHECK(*f.engine_config->text ==
          "backend: pytorch\ncache_transceiver_config:\n  backend: UCX\n");
  }
  std::system(("kill $(cat " + dir + "/pid) 2>/dev/null; rm -rf " + dir).c_str());
  CHECK_FALSE(icheck::test::installed_shells().empty());
}

TEST_CASE("nixl probe: an engine config named but unreadable is kept without text") {
  // synthetic: the fragment's nixl_engine_config grammar.
  const auto f = parse_nixl_probe(
      "@@icheck:begin nixl_engine_config@@\npid 57 python3\npath /config/prefill.yaml\nunreadable\n"
      "@@icheck:end nixl_engine_config rc=0@@\n");
  REQUIRE(f.engine_config.has_value());
  CHECK(f.engine_config->pid == "57");
  CHECK_FALSE(f.engine_config->text.has_value());
  CHECK_FALSE(parse_nixl_probe(
                  "@@icheck:begin nixl_engine_config@@\n@@icheck:end nixl_engine_config rc=0@@\n")
                  .engine_config.has_value());
}
