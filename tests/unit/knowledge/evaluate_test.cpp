// The evaluator: each operator with a case that holds and one that does not, unknown facts
// never firing, present: false only where the prefix was read whole, placeholders filled.
#include "knowledge/evaluate.hpp"
#include "knowledge/finding.hpp"
#include "knowledge/load.hpp"

#include <doctest/doctest.h>

using namespace icheck::knowledge;

namespace {

// One row with the given `when` lines, loaded through the real loader.
Row row_with(const std::string& when, const std::string& detail = "d") {
  std::string text = "kind: trouble\nrows:\n  - id: r\n    layer: ucx\n    status: warn\n"
                     "    check: c\n    when:\n" +
                     when + "    detail: \"" + detail +
                     "\"\n    next: n\n    sources: [\"https://x\"]\n"
                     "    failing: {a: b}\n    healthy: {a: c}\n";
  auto rows = load_file({"t.yaml", text});
  REQUIRE_MESSAGE(rows.has_value(), (rows ? "" : rows.error().message));
  return rows->front();
}

FactMap facts(std::initializer_list<std::pair<const char*, const char*>> kv) {
  FactMap out;
  for (auto [k, v] : kv)
    out.set(k, v);
  return out;
}

}  // namespace

TEST_CASE("evaluate: equals") {
  auto r = row_with("      - {fact: env.UCX_TLS, equals: \"rc,cuda_copy\"}\n");
  CHECK(fires(r, facts({{"env.UCX_TLS", "rc,cuda_copy"}})));
  CHECK_FALSE(fires(r, facts({{"env.UCX_TLS", "rc"}})));
}

TEST_CASE("evaluate: in and not_in") {
  auto r = row_with("      - {fact: env.H, in: [\"0.0.0.0\", \"127.0.0.1\"]}\n");
  CHECK(fires(r, facts({{"env.H", "127.0.0.1"}})));
  CHECK_FALSE(fires(r, facts({{"env.H", "10.0.0.1"}})));
  auto n = row_with("      - {fact: env.H, not_in: [\"0.0.0.0\"]}\n");
  CHECK(fires(n, facts({{"env.H", "10.0.0.1"}})));
  CHECK_FALSE(fires(n, facts({{"env.H", "0.0.0.0"}})));
  CHECK_FALSE(fires(n, FactMap{}));  // not_in needs the fact known
}

TEST_CASE("evaluate: matches and imatches (search, ECMAScript)") {
  auto r = row_with("      - {fact: log.line, matches: 'NIXL_ERR_[A-Z_]+'}\n");
  CHECK(fires(r, facts({{"log.line", "E nixl: NIXL_ERR_BACKEND in transfer"}})));
  CHECK_FALSE(fires(r, facts({{"log.line", "nixl_err_backend"}})));
  auto i = row_with("      - {fact: log.line, imatches: 'expandable_segments:\\s*true'}\n");
  CHECK(fires(i, facts({{"log.line", "EXPANDABLE_SEGMENTS:True"}})));
  CHECK_FALSE(fires(i, facts({{"log.line", "expandable_segments:False"}})));
}

TEST_CASE("evaluate: version") {
  auto r = row_with("      - {fact: version.nccl, version: \"<=2.22.3\"}\n");
  CHECK(fires(r, facts({{"version.nccl", "2.21.5"}})));
  CHECK_FALSE(fires(r, facts({{"version.nccl", "2.23.4"}})));
  CHECK_FALSE(fires(r, facts({{"version.nccl", "unknown"}})));
}

TEST_CASE("evaluate: present true and false, false only where the prefix was read whole") {
  auto t = row_with("      - {fact: env.X, present: true}\n");
  CHECK(fires(t, facts({{"env.X", ""}})));
  CHECK_FALSE(fires(t, FactMap{}));
  auto f = row_with("      - {fact: env.X, present: false}\n");
  CHECK_FALSE(fires(f, FactMap{}));  // env not read: unknown, no conclusion
  FactMap read_whole;
  read_whole.complete("env.");
  CHECK(fires(f, read_whole));
  read_whole.set("env.X", "1");
  CHECK_FALSE(fires(f, read_whole));
  FactMap other_prefix;
  other_prefix.complete("prefill.env.");
  CHECK_FALSE(fires(f, other_prefix));
}

TEST_CASE("evaluate: every condition must hold, an unknown fact never fires") {
  auto r = row_with("      - {fact: pod.hostNetwork, equals: \"true\"}\n"
                    "      - {fact: gpu.model, matches: 'GB200'}\n");
  CHECK(fires(r, facts({{"pod.hostNetwork", "true"}, {"gpu.model", "NVIDIA GB200"}})));
  CHECK_FALSE(fires(r, facts({{"pod.hostNetwork", "true"}})));
  CHECK_FALSE(fires(r, facts({{"pod.hostNetwork", "false"}, {"gpu.model", "NVIDIA GB200"}})));
  auto n = row_with("      - {fact: env.UCX_TLS, not_in: [\"all\"]}\n");
  CHECK(evaluate({n}, FactMap{}).empty());
}

TEST_CASE("evaluate: {fact} placeholders in detail and next are filled") {
  std::vector<Row> rows{
      row_with("      - {fact: env.H, present: true}\n", "H={env.H} on {gpu.model}, {not a fact}")};
  auto hits = evaluate(rows, facts({{"env.H", "0.0.0.0"}}));
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].detail == "H=0.0.0.0 on (unknown), {not a fact}");
  CHECK(fill("a {x} b {y", facts({{"x", "1"}})) == "a 1 b {y");
}

TEST_CASE("evaluate: a hit becomes a finding in the row's layer with its check and source") {
  std::vector<Row> rows{row_with("      - {fact: env.H, present: true}\n", "H={env.H}")};
  rows[0].sources = {"https://github.com/ai-dynamo/nixl/issues/166", "https://example.org/other"};
  auto hits = evaluate(rows, facts({{"env.H", "x"}}));  // hits point into rows
  REQUIRE(hits.size() == 1);
  auto f = to_finding(hits[0]);
  CHECK(f.layer == icheck::report::Layer::ucx);
  CHECK(f.name == "c");
  CHECK(f.status == icheck::report::Status::warn);
  CHECK(f.detail == "H=x (ai-dynamo/nixl #166)");
  CHECK(f.next == "n");
  CHECK(short_source("https://github.com/NVIDIA/nccl/pull/1573#issuecomment-1") ==
        "NVIDIA/nccl #1573");
  CHECK(short_source("https://docs.nvidia.com/x") == "https://docs.nvidia.com/x");
}
