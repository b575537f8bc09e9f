#include "../fixture.hpp"
#include "probe/logs/log_lines.hpp"
#include "probe/logs/pod_events.hpp"

#include <doctest/doctest.h>

using namespace icheck::probe;

TEST_CASE("log lines: the kubelet's timestamp is the time and leaves the text / blank lines go") {
  const auto log =
      parse_log("2026-12-03T10:00:01.123456789Z INFO 12-03 10:00:01 [nixl_connector.py:120] hello\n"
                "\n"
                "2026-12-03T10:00:02Z   \r\n"
                "2026-12-03T10:00:03.5+01:00 second line\r\n",
                true);
  REQUIRE(log.lines.size() == 2);
  CHECK(log.lines[0].time == "2026-12-03T10:00:01.123456789Z");
  CHECK(log.lines[0].text == "INFO 12-03 10:00:01 [nixl_connector.py:120] hello");
  CHECK(log.lines[1].time == "2026-12-03T10:00:03.5+01:00");
  CHECK(log.lines[1].text == "second line");
  CHECK(log.cut == 0);
}

TEST_CASE("log lines: without the kubelet's prefix the line's own date is its time") {
  const auto log = parse_log("INFO 12-03 10:00:01 [worker.py:88] vLLM ready\n"
                             "[2026-12-03 10:00:02] Decode batch. #running-req: 1\n"
                             "2026-12-03 10:00:03,412 - dynamo - INFO - up\n"
                             "I1203 10:00:04.123456  1 main.go:10] glog line\n"
                             "no date here 2026-12-03 10:00:05\n",
                             false);
  REQUIRE(log.lines.size() == 5);
  CHECK(log.lines[0].time == "12-03 10:00:01");
  CHECK(log.lines[1].time == "2026-12-03 10:00:02");
  CHECK(log.lines[2].time == "2026-12-03 10:00:03,412");
  CHECK(log.lines[3].time == "1203 10:00:04.123456");
  CHECK(log.lines[4].time.empty());
  // asked for the kubelet's prefix, a line without one keeps its own date
  CHECK(parse_log("INFO 12-03 10:00:01 x\n", true).lines[0].time == "12-03 10:00:01");
}

TEST_CASE(
    "log lines: a timestamp of 60,000 digits is no kubelet time and does not crash (issue 41)") {
  // std::regex recursed once per digit of the fraction and overflowed the stack.
  const std::string word = "2026-12-03T10:00:01." + std::string(60'000, '7') + "Z";
  const auto log = parse_log(word + " after\n" + std::string(60'000, '1') + "\n", true);
  REQUIRE(log.lines.size() == 2);
  CHECK(log.cut == 2);
  CHECK(log.lines[0].text.starts_with("2026-12-03T10:00:01.777"));  // the kubelet's has <= 9
  CHECK(log.lines[0].time.size() == 64);  // the line's own date, read in its first 64 bytes
  CHECK(log.lines[1].time.empty());
  CHECK(parse_log("2026-12-03T10:00:01.123456789Z x\n", true).lines[0].time ==
        "2026-12-03T10:00:01.123456789Z");
  CHECK(parse_log("2026-12-03T10:00:01.1234567890Z x\n", true).lines[0].time.size() == 31);
}

TEST_CASE("log lines: the own date after up to two non-word characters and a level") {
  const auto log = parse_log("> [2026-12-03 10:00:02] x\n"
                             "WARNING  12-03 10:00:01.5 x\n"
                             "*** 12-03 10:00:01 three marks\n"
                             "W1203 10:00:04 glog without fraction\n"
                             "INFO12-03 10:00:01 no blank after the level\n",
                             false);
  REQUIRE(log.lines.size() == 5);
  CHECK(log.lines[0].time == "2026-12-03 10:00:02");
  CHECK(log.lines[1].time == "12-03 10:00:01.5");
  CHECK(log.lines[2].time.empty());
  CHECK(log.lines[3].time == "1203 10:00:04");
  CHECK(log.lines[4].time.empty());
}

TEST_CASE("log lines: cut at 4 KiB on a UTF-8 boundary, counted / secrets masked before the cut") {
  std::string long_line(kMaxLogLine - 1, 'a');
  long_line += "\xc3\xa9tail";  // the 2-byte é straddles the limit
  const auto log = parse_log(long_line + "\nexport token=sup3rs3cret\n", false);
  REQUIRE(log.lines.size() == 2);
  CHECK(log.cut == 1);
  CHECK(log.lines[0].text == std::string(kMaxLogLine - 1, 'a'));
  CHECK(log.lines[1].text.find("sup3rs3cret") == std::string::npos);
  CHECK(log.lines[1].text.find("***") != std::string::npos);
}

TEST_CASE("pod events: reason, message, type, count, last time / masked / series counts") {
  const auto events = parse_events_json(test::raw_file("events/sriov_guid.json"));
  REQUIRE(events);
  REQUIRE(events->size() == 3);
  const auto& scheduled = (*events)[0];
  CHECK(scheduled.type == "Normal");
  CHECK(scheduled.reason == "Scheduled");
  CHECK(scheduled.count == 1);
  CHECK(scheduled.time == "2026-12-03T09:58:10.412311Z");  // eventTime only
  const auto& sandbox = (*events)[1];
  CHECK(sandbox.type == "Warning");
  CHECK(sandbox.reason == "FailedCreatePodSandBox");
  CHECK(sandbox.count == 12);
  CHECK(sandbox.time == "2026-12-03T10:04:31Z");
  CHECK(sandbox.object == "Pod/decode-0");
  CHECK(sandbox.message.find("VF ibp192s0v10 GUID is not valid") != std::string::npos);
  const auto& series = (*events)[2];
  CHECK(series.count == 3);
  CHECK(series.time == "2026-12-03T10:06:00.000000Z");
  CHECK(series.message.find("abcd1234secret") == std::string::npos);
}

TEST_CASE("pod events: not JSON / no items is an error naming it") {
  CHECK_FALSE(parse_events_json("<html>"));
  const auto none = parse_events_json(R"({"kind":"Status"})");
  REQUIRE_FALSE(none);
  CHECK(none.error().message == "the events answer holds no items list");
  const auto empty = parse_events_json(R"({"kind":"EventList","items":[]})");
  REQUIRE(empty);
  CHECK(empty->empty());
}
