// The node probe bounds itself in the pod: a real kubelet keeps an exec's process running when
// kubectl goes away, so the script's watchdog kills it and everything it started once the
// budget the plugin put first (with_deadline) has passed.

#include "probe/nixl/nixl_script.hpp"
#include "probe/node_script.hpp"
#include "probe/sections.hpp"
#include "run_shell.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace icheck::probe;

namespace {

// Processes whose command line holds `needle` (a zombie's is empty: it no longer counts).
int processes_with(const std::string& needle) {
  int found = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    // A process that ends while it is read fails the read with ESRCH, which libstdc++'s
    // filebuf throws: that one is gone, so it is not counted.
    try {
      std::ifstream in(entry.path() / "cmdline");
      const std::string cmdline{std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>()};
      if (cmdline.find(needle) != std::string::npos)
        ++found;
    } catch (const std::exception&) {
    }
  }
  return found;
}

}  // namespace

TEST_CASE("with_deadline puts the budget first, in whole seconds rounded up") {
  CHECK(with_deadline("echo hi\n", std::chrono::milliseconds(30000)) ==
        "ICHECK_BUDGET=30\necho hi\n");
  CHECK(with_deadline("x", std::chrono::milliseconds(1500)).starts_with("ICHECK_BUDGET=2\n"));
  CHECK(with_deadline("x", std::chrono::milliseconds(0)).starts_with("ICHECK_BUDGET=1\n"));
}

TEST_CASE("a probe stuck past its budget is killed with what it started, under dash and busybox") {
  // An unbounded step that would keep the probe 23 s: the watchdog ends the shell and the
  // sleep at 1 s, so the final marker never comes and no sleep is left.
  const std::string script = with_deadline(insert_before_done(node_probe_script(), "sleep 23\n"),
                                           std::chrono::milliseconds(1000));
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    const auto out = icheck::test::run_shell(shell, script);
    CHECK(out.find("@@icheck:meta ") != std::string::npos);
    CHECK_FALSE(output_complete(out));
    CHECK(processes_with(std::string("sleep") + '\0' + "23") == 0);
  }
  CHECK_FALSE(icheck::test::installed_shells().empty());
}

TEST_CASE("a probe within its budget ends normally and stops its watchdog") {
  const std::string script = with_deadline(node_probe_script(), std::chrono::milliseconds(600000));
  for (const std::string& shell : icheck::test::installed_shells()) {
    CAPTURE(shell);
    const auto out = icheck::test::run_shell(shell, "(\n" + script + "\n)\necho probe_rc=$?\n");
    CHECK(output_complete(out));
    CHECK(out.find("probe_rc=0") != std::string::npos);  // the stopped watchdog's 137 is not it
    // The watchdog is a fork of the script's shell: its command line names the script file.
    CHECK(processes_with("/tmp/icheck_script_" + std::to_string(::getpid()) + "_") == 0);
  }
}
