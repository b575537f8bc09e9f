// A NIXL plugin that is there but cannot load fails at nixl with the missing library
// (ai-dynamo/nixl #1561); one whose libraries resolve is ok and says so; without a loader in the
// image, whether it loads is skipped with why, never ok.
#include "rules/nixl/nixl_rules.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace icheck;
using report::Status;

namespace {

probe::NixlFacts install_with(const std::string& tool, std::vector<std::string> ucx_missing) {
  probe::NixlFacts f;
  f.probed = true;
  f.plugin_dirs.push_back({"/opt/dynamo/nixl/plugins", "", "opt-dynamo", {"UCX", "POSIX"}});
  f.plugin_libs.section = true;
  f.plugin_libs.tool = tool;
  f.plugin_libs.dir = "/opt/dynamo/nixl/plugins";
  if (!tool.empty()) {
    f.plugin_libs.plugins["UCX"].missing = std::move(ucx_missing);
    f.plugin_libs.plugins["POSIX"];
  }
  return f;
}

const report::Finding* find(const std::vector<report::Finding>& v, const std::string& name) {
  auto it = std::find_if(v.begin(), v.end(), [&](const auto& f) { return f.name == name; });
  return it == v.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("plugin libraries: libplugin_UCX.so present but libucp.so.0 not found fails at nixl") {
  auto out = rules::judge_nixl(install_with("ldd", {"libucp.so.0"}), {});
  const auto* f = find(out, "UCX plugin");
  REQUIRE(f);
  CHECK(f->status == Status::fail);
  CHECK(f->layer == report::Layer::nixl);
  CHECK(
      f->detail ==
      "libplugin_UCX.so in /opt/dynamo/nixl/plugins cannot load: libucp.so.0 not found (ldd, in "
      "the "
      "container's environment): NIXL reports \"unsupported backend UCX\" (ai-dynamo/nixl #1561)");
  CHECK(f->next.find("ldd /opt/dynamo/nixl/plugins/libplugin_UCX.so") != std::string::npos);
  CHECK(find(out, "UCX libraries") == nullptr);
}

TEST_CASE("plugin libraries: resolved libraries are ok and said, no other finding") {
  auto out = rules::judge_nixl(install_with("ldd", {}), {});
  CHECK(find(out, "UCX plugin")->status == Status::ok);
  CHECK(find(out, "UCX plugin")->detail ==
        "libplugin_UCX.so in /opt/dynamo/nixl/plugins, its libraries resolve (ldd)");
  CHECK(find(out, "UCX libraries") == nullptr);
}

TEST_CASE("plugin libraries: neither ldd nor the loader is skipped with why, optional") {
  auto out = rules::judge_nixl(install_with("", {}), {});
  CHECK(find(out, "UCX plugin")->status == Status::ok);  // the file is there
  const auto* f = find(out, "UCX libraries");
  REQUIRE(f);
  CHECK(f->status == Status::skipped);
  CHECK_FALSE(f->required);
  CHECK(f->detail == "neither ldd nor the dynamic loader in the image: whether libplugin_UCX.so "
                     "loads is not checked");
  // A listing of another directory vouches for nothing here.
  auto other = install_with("ldd", {"libucp.so.0"});
  other.plugin_libs.dir = "/usr/local/nixl/lib/x86_64-linux-gnu/plugins";
  out = rules::judge_nixl(other, {});
  CHECK(find(out, "UCX plugin")->status == Status::ok);
  CHECK(find(out, "UCX libraries")->status == Status::skipped);
}
