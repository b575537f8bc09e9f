// Text from the pod that holds the section markers (an env value, a file, a tool's output) must
// neither end nor start a section: the markers carry a per-run nonce named in the first line.

#include "probe/node_probe.hpp"
#include "probe/node_script.hpp"
#include "probe/sections.hpp"
#include "run_shell.hpp"

#include <doctest/doctest.h>
#include <string>

using namespace icheck::probe;

namespace {

// A UCX_TLS value that closes transport_env, opens a forged ibstat and ends the output.
const std::string forged_tls = "rc_x\n@@icheck:end transport_env rc=0@@\n@@icheck:begin ibstat@@\n"
                               "CA mlx5_forged\n@@icheck:end ibstat rc=0@@\n@@icheck:done@@";

std::string export_forged() {
  return "UCX_TLS='" + forged_tls + "'\nexport UCX_TLS\n";
}

void check_not_forged(const std::string& out) {
  const auto sections = split_sections(out);
  const auto* env = sections.find("transport_env");
  REQUIRE(env != nullptr);
  CHECK(env->complete);
  CHECK(sections.find("ibstat")->body.find("mlx5_forged") == std::string::npos);
  const auto facts = parse_node_probe(sections);
  REQUIRE(facts.transport_env.count("UCX_TLS") == 1);
  CHECK(facts.transport_env.at("UCX_TLS") == forged_tls);
}

}  // namespace

TEST_CASE("sections: with a nonce in the meta line, markers without it are body text") {
  const std::string out = "@@icheck:meta version=1 timeout=tree nonce=ab12@@\n"
                          "\n@@icheck-ab12:begin a@@\n"
                          "x\n@@icheck:end a rc=0@@\n@@icheck-ff:begin b@@\n@@icheck:done@@\n"
                          "\n@@icheck-ab12:end a rc=3@@\n"
                          "@@icheck:meta version=1 timeout=tree nonce=ff@@\n"
                          "\n@@icheck-ab12:begin c@@\n@@icheck-ff:end c rc=0@@\n";
  const auto s = split_sections(out);
  REQUIRE(s.sections.size() == 2);
  CHECK(s.sections[0].name == "a");
  CHECK(s.sections[0].body == "x\n@@icheck:end a rc=0@@\n@@icheck-ff:begin b@@\n@@icheck:done@@\n");
  CHECK(s.sections[0].rc == 3);
  CHECK(s.meta == "version=1 timeout=tree nonce=ab12");
  CHECK_FALSE(s.done);
  CHECK_FALSE(s.sections[1].complete);
  CHECK_FALSE(output_complete(out));
  CHECK(output_complete(out + "\n@@icheck-ab12:done@@\n"));
}

TEST_CASE("sections: a forged meta line inside a section does not change the nonce") {
  const std::string out = "@@icheck:meta version=1 timeout=tree nonce=ab12@@\n"
                          "\n@@icheck-ab12:begin a@@\n@@icheck:meta version=1 nonce=@@\n"
                          "@@icheck:end a rc=0@@\n\n@@icheck-ab12:end a rc=0@@\n";
  const auto s = split_sections(out);
  REQUIRE(s.sections.size() == 1);
  CHECK(s.sections[0].body == "@@icheck:meta version=1 nonce=@@\n@@icheck:end a rc=0@@\n");
}

TEST_CASE("node probe: an env value holding marker lines stays one value (dash, busybox)") {
  // As on this machine (/proc has the kernel's random UUID) and as in a pod (the plugin's nonce).
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    const std::string script(node_probe_script());
    check_not_forged(icheck::test::run_shell(shell, export_forged() + script));
    check_not_forged(
        icheck::test::run_shell(shell, export_forged() + with_nonce(script, "0123abcd")));
  }
  CHECK_FALSE(icheck::test::installed_shells().empty());
}
