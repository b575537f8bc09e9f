#include "exec/local.hpp"
#include "exec/progress.hpp"
#include "file_text.hpp"

#include <cstdio>
#include <doctest/doctest.h>
#include <string>

using namespace std::chrono_literals;
using icheck::exec::ProgressLine;
using icheck::exec::run_local;

TEST_CASE("--local runs the script with /bin/sh") {
  const auto r = run_local("echo \"$0\"; uname -s; echo warn >&2; exit 5");
  CHECK(r.exit_code == 5);
  CHECK(r.out == "/bin/sh\nLinux\n");
  CHECK(r.err == "warn\n");
}

TEST_CASE("--local honours the deadline and the cap") {
  auto r = run_local("sleep 30", 200ms);
  CHECK(r.timed_out);
  CHECK(r.elapsed < 10s);  // its sleep 30 did not run out: a hang bound, not a speed figure
  r = run_local("head -c 100000 /dev/zero", 5s, 1000);
  CHECK(r.truncated);
  CHECK(r.out.size() == 1000);
}

TEST_CASE("progress line rewrites itself and clears at the end") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file);
  {
    ProgressLine line(file, "probed", "pods", true);
    CHECK(line.active());
    line.update(9, 10);
    line.update(10, 10);
  }
  CHECK(icheck::test::file_text(file) ==
        "\rprobed 9/10 pods\rprobed 10/10 pods\r                 \r");
  std::fclose(file);
}

TEST_CASE("progress line pads over a longer previous line") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file);
  {
    ProgressLine line(file, "probed", "pods", true);
    line.update(10, 10);
    line.update(9, 9);
    CHECK(icheck::test::file_text(file) == "\rprobed 10/10 pods\rprobed 9/9 pods  ");
  }
  std::fclose(file);
}

TEST_CASE("progress line is silent when not on a terminal") {
  std::FILE* file = std::tmpfile();  // a regular file, not a tty
  REQUIRE(file);
  {
    ProgressLine line(file);
    CHECK_FALSE(line.active());
    line.callback()(1, 2);
  }
  CHECK(icheck::test::file_text(file) == "");
  std::fclose(file);
}
