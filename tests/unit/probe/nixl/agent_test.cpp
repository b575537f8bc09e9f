// The image's own NIXL asked in a fresh python3 (probe/nixl/nixl_agent_*): the section's parser
// and the script's shape.
#include "../fixture.hpp"
#include "probe/nixl/nixl_agent_facts.hpp"
#include "probe/nixl/nixl_agent_script.hpp"
#include "probe/nixl/nixl_script.hpp"

#include <doctest/doctest.h>

using namespace icheck::probe;
using icheck::probe::test::fixture;

TEST_CASE("nixl_agent: plugins NIXL lists, a backend it cannot create with NIXL's own words") {
  auto a = parse_nixl_agent(fixture("nixl_agent/synthetic-ucx-backend-error-nixl96.txt"), true, 0,
                            false);
  CHECK(a.answered());
  CHECK(a.plugins == std::vector<std::string>{"UCX", "UCX_MO", "POSIX"});
  CHECK(a.lists("UCX_MO"));
  CHECK_FALSE(a.lists("LIBFABRIC"));
  REQUIRE(a.backends.count("UCX") == 1);
  CHECK(a.backends.at("UCX") == "nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND");
  CHECK(a.backends.count("LIBFABRIC") == 0);
  REQUIRE(a.log_errors.size() == 1);
  CHECK(a.log_errors[0].starts_with("E0421 11:56:59.775353"));
}

TEST_CASE("nixl_agent: created, skipped, no agent, no python3, a run cut short") {
  auto ok = parse_nixl_agent("plugins UCX POSIX\nbackend UCX created\nbackend LIBFABRIC not "
                             "listed\nend\n",
                             true, 0, false);
  CHECK(ok.answered());
  CHECK(ok.backends.at("UCX").empty());
  CHECK(parse_nixl_agent("skipped: import nixl._api: ModuleNotFoundError: No module named 'nixl'\n",
                         true, 0, false)
            .skipped.starts_with("import nixl._api"));
  CHECK(parse_nixl_agent("error: RuntimeError: No plugins available for NIXL, cannot start "
                         "transfers!\n",
                         true, 0, false)
            .error.starts_with("RuntimeError: No plugins"));
  auto none = parse_nixl_agent("", false, -1, false);
  CHECK((none.section && !none.python && !none.answered()));
  CHECK(parse_nixl_agent("plugins UCX\n", true, 139, false).error ==
        "python3 asking nixl._api exited 139 before it finished");
  CHECK(parse_nixl_agent("plugins UCX\n", true, 137, true).error ==
        "python3 asking nixl._api timed out");
}

TEST_CASE("nixl_agent: the script travels inside single quotes, after the NIXL fragment") {
  CHECK(nixl_agent_python().find('\'') == std::string::npos);
  const std::string_view script = nixl_probe_script();
  CHECK(script.find("nx_begin nixl_agent") > script.find("nx_begin nixl_libs"));
  CHECK(nixl_agent_python().find("enable_listen_thread=False") != std::string::npos);
}
