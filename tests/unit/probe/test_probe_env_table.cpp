// Every name and prefix of dynamo/transport_vars.hpp that a probe reads reaches the script the
// pod runs and comes back parsed: the filter and the parser cannot drift from the table.
#include "dynamo/transport_vars.hpp"
#include "probe/nixl/nixl_facts.hpp"
#include "probe/nixl/nixl_script.hpp"
#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "run_shell.hpp"

#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace icheck;

namespace {

// A variable name each entry covers: the name itself, or the prefix with a tail (and, where
// the entry counts only names containing a part, that part).
std::vector<std::string> names_of(const dynamo::TransportVar& v) {
  const std::string base(v.name);
  if (v.match == dynamo::VarMatch::exact)
    return {base};
  if (v.containing.empty())
    return {base + "ICHECK_TEST"};
  std::vector<std::string> out;
  for (auto part : v.containing)
    out.push_back(base + std::string(part) + "_ICHECK_TEST");
  return out;
}

} // namespace

TEST_CASE("every transport variable a probe reads reaches the assembled script and comes back") {
  const std::string script =
      probe::insert_before_done(probe::node_probe_script(), probe::nixl_probe_script());
  CHECK(script.find(dynamo::node_probe_env_patterns()) != std::string::npos);
  CHECK(script.find(dynamo::backend_env_patterns()) != std::string::npos);
  CHECK(script.find("@@TRANSPORT_ENV@@") == std::string::npos);
  CHECK(script.find("@@BACKEND_ENV@@") == std::string::npos);
  std::string exports = "export";
  std::vector<std::pair<std::string, const dynamo::TransportVar*>> all;
  for (const auto& v : dynamo::transport_vars()) {
    for (const auto& name : names_of(v)) {
      exports += " " + name + "=v1";
      all.emplace_back(name, &v);
    }
  }
  REQUIRE(icheck::test::shell_installed("dash"));
  const auto raw = icheck::test::run_shell("dash", exports + "; " + script);
  const auto node = probe::parse_node_probe(raw);
  const auto nixl = probe::parse_nixl_probe(raw);
  for (const auto& [name, v] : all) {
    const std::string& variable = name;  // CAPTURE's lambda cannot name a binding in clang 14
    CAPTURE(variable);
    CHECK(node.transport_env.contains(name) == v->node_probe);
    CHECK(dynamo::is_node_probe_var(name) == v->node_probe);
    if (v->chooses_backend)
      CHECK(nixl.backend_env.contains(name));
  }
}

TEST_CASE("the variables a probe script reads by name come from the table") {
  const std::string script =
      probe::insert_before_done(probe::node_probe_script(), probe::nixl_probe_script());
  CHECK(script.find("_VAR@@") == std::string::npos);
  for (auto name :
       {dynamo::kNixlPluginDirVar, dynamo::kUcxCudaIpcMnnvlVar, dynamo::kNcclMnnvlEnableVar}) {
    const std::string variable(name);
    CAPTURE(variable);
    CHECK(script.find("$" + variable) != std::string::npos);
  }
  REQUIRE(icheck::test::shell_installed("dash"));
  const auto raw =
      icheck::test::run_shell("dash", "export " + std::string(dynamo::kNixlPluginDirVar) +
                                          "=/nonexistent/icheck; " + script);
  const auto nixl = probe::parse_nixl_probe(raw);
  CHECK(nixl.plugin_dir_env == "/nonexistent/icheck");
  CHECK(nixl.plugin_dir_env_missing);
}
