#include "rules/nixl/nixl_rules.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace icheck;
using report::Status;

namespace {

probe::NixlFacts wheel_install() {
  probe::NixlFacts f;
  f.probed = true;
  f.plugin_dirs.push_back({"/opt/dynamo/nixl/plugins", "", "opt-dynamo", {"UCX", "POSIX"}});
  f.versions.nixl = "1.3.2";
  return f;
}

const report::Finding* find(const std::vector<report::Finding>& v, const std::string& name) {
  auto it = std::find_if(v.begin(), v.end(), [&](const auto& f) { return f.name == name; });
  return it == v.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("nixl rules: a healthy wheel install") {
  auto out = rules::judge_nixl(wheel_install(), {});
  REQUIRE(find(out, "install"));
  CHECK(find(out, "install")->status == Status::ok);
  CHECK(find(out, "install")->detail ==
        "NIXL 1.3.2 plugins in /opt/dynamo/nixl/plugins (opt-dynamo): UCX, POSIX");
  CHECK(find(out, "install")->layer == report::Layer::nixl);
  CHECK(find(out, "UCX plugin")->status == Status::ok);
  CHECK(find(out, "efa") == nullptr);
  // no test tool: transfer is skipped with the next step, never ok, and does not block
  const auto* t = find(out, "transfer");
  REQUIRE(t);
  CHECK(t->status == Status::skipped);
  CHECK_FALSE(t->required);
  CHECK(t->next == rules::no_transfer_tool_next());
}

TEST_CASE("nixl rules: plugin file names that are not plain are said, never listed") {
  auto f = wheel_install();
  f.plugin_libs.section = true;
  f.plugin_libs.odd_names = 2;
  const auto out = rules::judge_nixl(f, {});
  const auto* install = find(out, "install");
  REQUIRE(install);
  CHECK(install->detail ==
        "NIXL 1.3.2 plugins in /opt/dynamo/nixl/plugins (opt-dynamo): UCX, POSIX; 2 "
        "files there whose name holds a control character or a blank, not read");
}

TEST_CASE("nixl rules: no NIXL at all fails") {
  probe::NixlFacts f;
  f.probed = true;
  auto out = rules::judge_nixl(f, {});
  CHECK(find(out, "install")->status == Status::fail);
  CHECK(find(out, "UCX plugin") == nullptr);
}

TEST_CASE("nixl rules: NIXL_PLUGIN_DIR pointing nowhere fails") {
  auto f = wheel_install();
  f.plugin_dir_env = "/opt/nixl/plugins";
  f.plugin_dir_env_missing = true;
  CHECK(find(rules::judge_nixl(f, {}), "install")->status == Status::fail);
}

TEST_CASE("nixl rules: UCX plugin missing while UCX is the backend fails") {
  auto f = wheel_install();
  f.plugin_dirs[0].plugins = {"POSIX", "GDS"};
  auto out = rules::judge_nixl(f, {});
  CHECK(find(out, "UCX plugin")->status == Status::fail);
  CHECK(find(out, "UCX plugin")->detail == "libplugin_UCX.so missing in " + f.plugin_dirs[0].path +
                                               ": NIXL cannot create the UCX backend");
  rules::NixlContext libfabric;
  libfabric.backends = rules::kv_backends({{"TRTLLM_NIXL_KVCACHE_BACKEND", "LIBFABRIC"}}, {});
  auto lf_out = rules::judge_nixl(f, libfabric);
  CHECK(find(lf_out, "UCX plugin") == nullptr);
  CHECK(find(lf_out, "LIBFABRIC plugin")->status == Status::fail);
  CHECK(find(lf_out, "LIBFABRIC plugin")
            ->detail.ends_with("NIXL cannot create the LIBFABRIC backend (backend set by "
                               "TRTLLM_NIXL_KVCACHE_BACKEND)"));
}

TEST_CASE("nixl rules: a backend choice that could not be read is a required warn, not ok") {
  const auto f = wheel_install();
  const auto known = rules::judge_nixl(f, {});
  REQUIRE(find(known, "kv transfer"));
  CHECK(find(known, "kv transfer")->status == Status::ok);
  CHECK_FALSE(find(known, "kv transfer")->required);  // information only
  rules::NixlContext orphan;  // a multinode worker pod whose leader was not probed
  orphan.backends.unknown =
      "its leader pod (group big-vllmdecodeworker-0-1) is not among the probed pods";
  orphan.backends.unknown_next = "run without --pod, so that the leader pod is probed with it";
  const auto out = rules::judge_nixl(f, orphan);
  const auto* kv = find(out, "kv transfer");
  REQUIRE(kv);
  CHECK(kv->status == Status::warn);
  CHECK(kv->required);
  CHECK(kv->detail.starts_with("KV backend unknown: "));
  CHECK(kv->detail.find("group big-vllmdecodeworker-0-1") != std::string::npos);
  CHECK(kv->next == orphan.backends.unknown_next);
  CHECK(
      find(out, "UCX plugin")
          ->detail.ends_with("(the framework's default, assumed: the engine's choice is unknown)"));
}

TEST_CASE("nixl rules: one plugin finding per backend the pod uses") {
  auto f = wheel_install();
  f.plugin_dirs[0].plugins = {"UCX", "POSIX"};
  rules::NixlContext both;
  both.backends = rules::kv_backends({}, {"vllm", R"({"backends":["UCX","LIBFABRIC"]})"});
  auto out = rules::judge_nixl(f, both);
  CHECK(find(out, "UCX plugin")->status == Status::ok);
  CHECK(find(out, "UCX plugin")->detail.ends_with("(backend set by --kv-transfer-config)"));
  CHECK(find(out, "LIBFABRIC plugin")->status == Status::fail);
  rules::NixlContext kvbm;
  kvbm.backends = rules::kv_backends({{"DYN_KVBM_NIXL_BACKEND_GDS", "true"}}, {});
  auto kvbm_out = rules::judge_nixl(f, kvbm);
  CHECK(find(kvbm_out, "UCX plugin")->status == Status::ok);
  CHECK(find(kvbm_out, "GDS plugin")->detail ==
        "libplugin_GDS.so missing in " + f.plugin_dirs[0].path +
            ": NIXL cannot create the GDS backend (KVBM backend, "
            "DYN_KVBM_NIXL_BACKEND_GDS)");
}

TEST_CASE("nixl rules: EFA devices with UCX warn, with LIBFABRIC they do not") {
  auto f = wheel_install();
  f.efa_devices = {"rdmap16s27"};
  auto ucx_out = rules::judge_nixl(f, {});
  auto ucx = find(ucx_out, "efa");
  REQUIRE(ucx);
  CHECK(ucx->status == Status::warn);
  CHECK(ucx->next == "use the LIBFABRIC backend (the image lacks libplugin_LIBFABRIC.so)");
  f.plugin_dirs[0].plugins.push_back("LIBFABRIC");
  rules::NixlContext lf;
  lf.backends = rules::kv_backends({{"TRTLLM_NIXL_KVCACHE_BACKEND", "LIBFABRIC"}}, {});
  auto lf_out = rules::judge_nixl(f, lf);
  CHECK(find(lf_out, "efa")->status == Status::ok);
  CHECK(find(lf_out, "efa")->detail == "EFA devices (rdmap16s27) with the LIBFABRIC backend");
}

TEST_CASE("nixl rules: two UCX libraries in the worker process warn (nixl#1668)") {
  auto f = wheel_install();
  f.ucx_in_process = probe::UcxInProcess{
      "7",
      "trtllm-serve",
      {"/usr/local/ucx/lib/libucp.so.0.0.0",
       "/usr/local/lib/python3.12/dist-packages/nixl_cu13.libs/libucs-2be8eb38.so.0.0.0"}};
  auto w_out = rules::judge_nixl(f, {});
  auto w = find(w_out, "ucx copies");
  CHECK(w->status == Status::warn);
  CHECK(w->detail.find("ai-dynamo/nixl#1668") != std::string::npos);
  f.ucx_in_process->libs.pop_back();
  CHECK(find(rules::judge_nixl(f, {}), "ucx copies")->status == Status::ok);
}

TEST_CASE("nixl rules: a test tool present means no transfer finding here") {
  auto f = wheel_install();
  f.tools.ucx_perftest = "/usr/local/ucx/bin/ucx_perftest";
  auto out = rules::judge_nixl(f, {});
  CHECK(find(out, "transfer") == nullptr);
  CHECK(find(out, "tools")->detail == "/usr/local/ucx/bin/ucx_perftest");
}

TEST_CASE("nixl rules: the probe not run is skipped, not ok") {
  auto out = rules::judge_nixl(probe::NixlFacts{}, {});
  REQUIRE(out.size() == 1);
  CHECK(out[0].status == Status::skipped);
}

TEST_CASE("nixl rules: python import failure is an optional warning") {
  auto f = wheel_install();
  f.python_import = {true, false, "", "ModuleNotFoundError: No module named 'nixl'"};
  auto p_out = rules::judge_nixl(f, {});
  auto p = find(p_out, "python import");
  CHECK(p->status == Status::warn);
  CHECK_FALSE(p->required);
}
