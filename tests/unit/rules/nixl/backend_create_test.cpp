// NIXL's own answer for the deployment's backend (rules/nixl/backend_create.hpp): a plugin NIXL
// lists whose backend cannot be created fails at nixl with NIXL's error; created is ok; NIXL not
// asked says nothing; a backend NIXL does not list fails.
#include "../../probe/fixture.hpp"
#include "rules/nixl/nixl_rules.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace icheck;
using report::Status;

namespace {

probe::NixlFacts with_agent(const std::string& body, int rc = 0) {
  probe::NixlFacts f;
  f.probed = true;
  f.plugin_dirs.push_back({"/opt/dynamo/nixl/plugins", "", "opt-dynamo", {"UCX", "POSIX"}});
  f.agent = probe::parse_nixl_agent(body, true, rc, false);
  return f;
}

const report::Finding* find(const std::vector<report::Finding>& v, const std::string& name) {
  auto it = std::find_if(v.begin(), v.end(), [&](const auto& f) { return f.name == name; });
  return it == v.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("backend: UCX listed but not created fails at nixl with NIXL's error and log line") {
  auto out = rules::judge_nixl(
      with_agent(probe::test::fixture("nixl_agent/synthetic-ucx-backend-error-nixl96.txt")), {});
  const auto* f = find(out, "UCX backend");
  REQUIRE(f);
  CHECK(f->status == Status::fail);
  CHECK(f->layer == report::Layer::nixl);
  CHECK(f->detail ==
        "NIXL lists UCX but cannot create the backend (nixl._api in a fresh python3, no memory "
        "registered): nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND (createBackend: backend "
        "'UCX' failed to initialize)");
  CHECK(f->next.find(".create_backend('UCX')") != std::string::npos);
}

TEST_CASE("backend: created is ok, not asked or not tried says nothing, not listed fails") {
  auto out = rules::judge_nixl(with_agent("plugins UCX POSIX\nbackend UCX created\nend\n"), {});
  REQUIRE(find(out, "UCX backend"));
  CHECK(find(out, "UCX backend")->status == Status::ok);
  CHECK(find(out, "UCX backend")->detail ==
        "NIXL creates its UCX backend (nixl._api in a fresh python3, no memory registered)");

  CHECK(find(rules::judge_nixl(with_agent("skipped: import nixl._api: x\n"), {}), "UCX backend") ==
        nullptr);
  probe::NixlFacts older;
  older.probed = true;
  older.plugin_dirs.push_back({"/opt/dynamo/nixl/plugins", "", "opt-dynamo", {"UCX"}});
  CHECK(find(rules::judge_nixl(older, {}), "UCX backend") == nullptr);

  auto listed =
      rules::judge_nixl(with_agent("plugins POSIX GDS\nbackend UCX not listed\nend\n"), {});
  REQUIRE(find(listed, "UCX backend"));
  CHECK(find(listed, "UCX backend")->status == Status::fail);
  CHECK(find(listed, "UCX backend")->detail ==
        "NIXL lists no UCX plugin (nixl._api in a fresh python3, no memory registered; it lists "
        "POSIX, GDS)");

  auto no_agent = rules::judge_nixl(
      with_agent("error: RuntimeError: No plugins available for NIXL, cannot start transfers!\n"),
      {});
  CHECK(find(no_agent, "UCX backend")->status == Status::fail);
  auto died = rules::judge_nixl(with_agent("plugins UCX\n", 139), {});
  CHECK(find(died, "UCX backend")->status == Status::warn);
}
