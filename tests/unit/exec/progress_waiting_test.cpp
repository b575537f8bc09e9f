#include "exec/fanout.hpp"
#include "exec/progress.hpp"
#include "file_text.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <doctest/doctest.h>
#include <string>
#include <vector>

using icheck::exec::ProgressLine;
using icheck::exec::waiting_line;

namespace {

const std::vector<std::string> kWaiting{"vllm-decode-2", "vllm-decode-5", "vllm-decode-11"};

}  // namespace

TEST_CASE("waiting line names the pods still waited on") {
  CHECK(waiting_line(kWaiting, 16, "pods", 80) ==
        "waiting for 3 of 16 pods: vllm-decode-2, vllm-decode-5, vllm-decode-11");
  CHECK(waiting_line({"p-0"}, 1, "pods", 80) == "waiting for 1 of 1 pods: p-0");
  CHECK(waiting_line({}, 16, "pods", 80).empty());
}

TEST_CASE("waiting line stops one column short of the terminal's edge, at a whole name") {
  // 25 + 15 + 15 columns fit in 60 with room for " ..."; the third name does not.
  CHECK(waiting_line(kWaiting, 16, "pods", 60) ==
        "waiting for 3 of 16 pods: vllm-decode-2, vllm-decode-5, ...");
  CHECK(waiting_line(kWaiting, 16, "pods", 71).size() < 71);
  CHECK(waiting_line(kWaiting, 16, "pods", 72) ==
        "waiting for 3 of 16 pods: vllm-decode-2, vllm-decode-5, vllm-decode-11");
  CHECK(waiting_line(kWaiting, 16, "pods", 20) == "waiting for 3 of 16 pods: ...");
}

TEST_CASE("waiting line shows a hostile pod name as escapes") {
  const auto line = waiting_line({"evil\x1b]52;c;eA==\x07-0"}, 2, "pods", 200);
  CHECK(line == "waiting for 1 of 2 pods: evil\\x1b]52;c;eA==\\x07-0");
  CHECK(line.find('\x1b') == std::string::npos);
}

TEST_CASE("progress line with named jobs draws at once and drops each finished job") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file);
  {
    ProgressLine line(file, "probed", "pods", true);
    line.name_jobs({"a", "b", "c"}, 80);
    line.finished(1);
    line.callback()(1, 3);
    line.finished(0);
    line.finished(2);
    line.callback()(3, 3);
  }
  CHECK(icheck::test::file_text(file) == "\rwaiting for 3 of 3 pods: a, b, c"
                                         "\rwaiting for 2 of 3 pods: a, c   "
                                         "\r                                "
                                         "\r                                \r");
  std::fclose(file);
}

TEST_CASE("named jobs through a real fan-out end with nothing waited on") {
  // Four workers race: two jobs may finish before either reports, so the counts seen are
  // not every number from 20 down, only ever fewer, never 0, and the line ends blank.
  std::FILE* file = std::tmpfile();
  REQUIRE(file);
  {
    ProgressLine line(file, "probed", "pods", true);
    std::vector<std::string> names;
    for (int i = 0; i < 20; ++i)
      names.push_back("pod-" + std::to_string(i));
    line.name_jobs(names, 1000);
    icheck::exec::FanoutOptions options{4, line.callback()};
    icheck::exec::parallel_for(20, options, [&](std::size_t i) { line.finished(i); });
  }
  const auto text = icheck::test::file_text(file);
  CHECK(text.starts_with("\rwaiting for 20 of 20 pods: pod-0, pod-1,"));
  CHECK(text.find("waiting for 0") == std::string::npos);
  std::vector<int> counts;
  const std::string mark = "waiting for ";
  for (auto at = text.find(mark); at != std::string::npos; at = text.find(mark, at + 1))
    counts.push_back(std::stoi(text.substr(at + mark.size())));
  REQUIRE(counts.size() >= 2);
  CHECK(std::is_sorted(counts.rbegin(), counts.rend()));
  CHECK(counts.back() >= 1);
  // After the last waiting line only blanking follows.
  const auto tail = text.substr(text.rfind(mark));
  const auto cut = tail.find('\r');
  REQUIRE(cut != std::string::npos);
  CHECK(tail.substr(cut).find_first_not_of(" \r") == std::string::npos);
  CHECK(text.ends_with("\r"));
  std::fclose(file);
}

TEST_CASE("named jobs through a one-worker fan-out count down to the last pod") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file);
  {
    ProgressLine line(file, "probed", "pods", true);
    line.name_jobs({"pod-0", "pod-1", "pod-2"}, 1000);
    icheck::exec::FanoutOptions options{1, line.callback()};
    icheck::exec::parallel_for(3, options, [&](std::size_t i) { line.finished(i); });
  }
  const auto text = icheck::test::file_text(file);
  CHECK(text.find("waiting for 2 of 3 pods: pod-1, pod-2") != std::string::npos);
  CHECK(text.find("waiting for 1 of 3 pods: pod-2") != std::string::npos);
  CHECK(text.find("waiting for 0") == std::string::npos);
  std::fclose(file);
}

TEST_CASE("the clock: whole seconds waited against the most the wait may take") {
  using std::chrono::milliseconds;
  CHECK(icheck::exec::clock_text(milliseconds(0), milliseconds(30000)) == "0s of 30s · ");
  CHECK(icheck::exec::clock_text(milliseconds(12900), milliseconds(30000)) == "12s of 30s · ");
  CHECK(icheck::exec::clock_text(milliseconds(65000), milliseconds(120000)) == "1m5s of 2m0s · ");
}

TEST_CASE("with a clock the waiting line starts with it and still fits the width") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file);
  {
    ProgressLine line(file, "probed", "pods", true);
    line.name_jobs(kWaiting, 60);
    line.start_clock(std::chrono::seconds(30));
    line.finished(0);
    line.callback()(1, 3);
  }
  const auto text = icheck::test::file_text(file);
  const auto clock = text.find(" of 30s · waiting for 2 of 3 pods: ");
  REQUIRE(clock != std::string::npos);
  const auto start = text.rfind('\r', clock) + 1;
  const auto end = text.find('\r', clock);
  CHECK(std::isdigit(static_cast<unsigned char>(text[start])));
  CHECK(text.find('\x1b') == std::string::npos);
  // The line with the clock stays one column short of the 60-column edge.
  std::size_t points = 0;
  for (auto i = start; i < end; ++i)
    points += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  CHECK(points < 60);
  std::fclose(file);
}
