// The probe as it is sent (check::probe_script: compacted, probe/script_compact.hpp). It travels
// as the exec request's command, in its URL. Servers and proxies in front of an API server cap a
// request line, commonly at 64 KiB (Python's http.server, the e2e fake API server, at 65536
// bytes; nginx's large_client_header_buffers at 8-64 KiB): past it the proxy transport gets 414
// and the run falls back to one kubectl exec per pod. A fragment that makes the line too long is
// noticed here, not as a silent fallback in the e2e tests.

#include "check/pod_pipeline.hpp"
#include "probe/nixl/nixl_script.hpp"
#include "probe/node_script.hpp"
#include "probe/sections.hpp"
#include "run_shell.hpp"
#include "stream/request.hpp"

#include <chrono>
#include <doctest/doctest.h>
#include <string>
#include <utility>
#include <vector>

namespace {

std::string as_sent(bool with_nixl) {
  return icheck::probe::with_nonce(
      icheck::probe::with_deadline(icheck::check::probe_script(with_nixl),
                                   std::chrono::seconds(30)),
      "0123456789abcdef0123456789abcdef");
}

std::vector<std::pair<std::string, std::string>> sections_of(const std::string& out) {
  std::vector<std::pair<std::string, std::string>> got;
  for (const auto& s : icheck::probe::split_sections(out).sections)
    got.emplace_back(s.name, s.absent ? "absent" : s.rc ? std::to_string(*s.rc) : "cut");
  return got;
}

}  // namespace

TEST_CASE(
    "the probe's exec request line stays under 60 KiB (the common 64 KiB cap) in every mode") {
  for (const bool with_nixl : {false, true}) {
    CAPTURE(with_nixl);
    const auto script = as_sent(with_nixl);
    icheck::stream::ExecTarget target{
        "dynamo", "llama-70b-disagg-decodeworker-0-abcde", "main", {"sh", "-c", script}, false};
    const auto line = "GET " + icheck::stream::exec_path(target) + " HTTP/1.1\r\n";
    MESSAGE("script " << script.size() << " bytes, request line " << line.size() << " bytes");
    CHECK(line.size() < 60u * 1024u);
  }
}

TEST_CASE("the compacted probe runs as the source does: the same sections, the same endings") {
  // The probe without its ICHECK_BUDGET watchdog, compacted and not, on this machine.
  const std::string nonce = "ICHECK_NONCE=0123456789abcdef0123456789abcdef\n";
  const std::string source = icheck::probe::insert_before_done(
      std::string(icheck::probe::node_probe_script()), icheck::probe::nixl_probe_script());
  const std::string sent = icheck::check::probe_script(true);
  CHECK(sent.size() < source.size() * 9 / 10);
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    const auto want = sections_of(icheck::test::run_shell(shell, nonce + source));
    const auto got = sections_of(icheck::test::run_shell(shell, nonce + sent));
    CHECK(want.size() > 40);
    CHECK(got == want);
  }
  CHECK_FALSE(icheck::test::installed_shells().empty());
}
