// Loading rows: what a data file may hold, and the clear error for each thing it may not.
#include "knowledge/load.hpp"

#include <doctest/doctest.h>

using namespace icheck::knowledge;

namespace {

const std::string kGood = R"(kind: trouble
rows:
  - id: side-channel
    layer: nixl
    status: fail
    check: side-channel-host
    engine: vllm
    when:
      - {fact: env.VLLM_NIXL_SIDE_CHANNEL_HOST, in: ["0.0.0.0", "127.0.0.1"]}
      - {fact: version.nixl, version: ">=0.3 <2"}
    detail: "x={env.VLLM_NIXL_SIDE_CHANNEL_HOST}"
    next: "unset it"
    sources: ["https://github.com/volcano-sh/kthena/issues/1781"]
    failing: {env.VLLM_NIXL_SIDE_CHANNEL_HOST: "0.0.0.0", version.nixl: "1.0"}
    healthy: {env.VLLM_NIXL_SIDE_CHANNEL_HOST: "10.0.3.17", version.nixl: "1.0"}
)";

// kGood with `from` replaced by `to`; the error message of loading it.
std::string error_with(const std::string& from, const std::string& to) {
  std::string text = kGood;
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  auto rows = load_file({"t.yaml", text});
  REQUIRE_FALSE(rows.has_value());
  return rows.error().message;
}

}  // namespace

TEST_CASE("load: a good row, every field") {
  auto rows = load_file({"t.yaml", kGood});
  REQUIRE(rows.has_value());
  REQUIRE(rows->size() == 1);
  const auto& r = rows->front();
  CHECK(r.id == "side-channel");
  CHECK(r.kind == Kind::trouble);
  CHECK(r.layer == icheck::report::Layer::nixl);
  CHECK(r.status == icheck::report::Status::fail);
  CHECK(r.engine == "vllm");
  REQUIRE(r.when.size() == 2);
  CHECK(r.when[0].op == Op::in);
  CHECK(r.when[0].values == std::vector<std::string>{"0.0.0.0", "127.0.0.1"});
  CHECK(r.when[1].bounds.size() == 2);
  CHECK(r.failing.at("version.nixl") == "1.0");
  CHECK(r.file == "t.yaml");
}

TEST_CASE("load: clear errors") {
  CHECK(error_with("in: [", "eq: [") == "t.yaml: row side-channel: unknown operator 'eq'");
  CHECK(error_with("layer: nixl", "layer: transport")
            .starts_with("t.yaml: row side-channel: bad layer 'transport'"));
  CHECK(error_with("status: fail", "status: ok")
            .starts_with("t.yaml: row side-channel: bad status 'ok'"));
  CHECK(error_with("    sources: [\"https://github.com/volcano-sh/kthena/issues/1781\"]\n", "") ==
        "t.yaml: row side-channel: missing sources");
  CHECK(error_with("sources: [\"https://github.com/volcano-sh/kthena/issues/1781\"]",
                   "sources: []") == "t.yaml: row side-channel: missing sources");
  CHECK(error_with("\">=0.3 <2\"", "\"~>1\"").find("bad version range '~>1'") != std::string::npos);
  CHECK(error_with("check: side-channel-host", "check: side channel").find("has blanks") !=
        std::string::npos);
  CHECK(error_with("id: side-channel", "id: Side_Channel").find("not kebab-case") !=
        std::string::npos);
  CHECK(error_with("kind: trouble", "kind: advice") ==
        "t.yaml: bad kind 'advice' (trouble or signature)");
  CHECK(error_with(
            "    failing: {env.VLLM_NIXL_SIDE_CHANNEL_HOST: \"0.0.0.0\", version.nixl: \"1.0\"}\n",
            "")
            .find("missing 'failing' example") != std::string::npos);
  CHECK(
      error_with("    next: \"unset it\"\n", "    nxt: \"unset it\"\n").find("unknown key 'nxt'") !=
      std::string::npos);
  CHECK(error_with(", in: [", ", equals: \"a\", in: [").find("one operator per condition") !=
        std::string::npos);
  CHECK(error_with("version: \">=0.3 <2\"}", "matches: '('}").find("bad regex") !=
        std::string::npos);
  CHECK(error_with("rows:", "rows: {}\nx:").find("missing 'rows'") != std::string::npos);
  CHECK(load_file({"t.yaml", "kind: [unterminated"}).error().message.starts_with("t.yaml: "));
}

TEST_CASE("load: patterns are RE2: look-around and back-references fail the row, named") {
  for (const std::string pattern : {"'^(?!efa$).+'", "'(?<=a)b'", "'(a)\\1'", "'a(?=b)'"}) {
    const auto error = error_with("version: \">=0.3 <2\"}", "matches: " + pattern + "}");
    CHECK_MESSAGE(error.starts_with("t.yaml: row side-channel: bad regex"), error);
    CHECK_MESSAGE(error.find("RE2") != std::string::npos, error);
  }
  const auto rows = load_file({"t.yaml", kGood.substr(0, kGood.find("      - {fact: version")) +
                                             "      - {fact: version.nixl, not_imatches: 'RC'}\n" +
                                             kGood.substr(kGood.find("    detail:"))});
  REQUIRE_MESSAGE(rows.has_value(), (rows ? "" : rows.error().message));
  CHECK(rows->front().when[1].op == Op::not_imatches);
  CHECK(to_string(rows->front().when[1].op) == "not_imatches");
}

TEST_CASE("load: a signature row names who prints the line") {
  std::string text = kGood;
  text.replace(0, 13, "kind: signature");
  CHECK(load_file({"s.yaml", text}).has_value());
  auto at = text.find("    engine: vllm\n");
  text.erase(at, 17);
  CHECK(load_file({"s.yaml", text}).error().message ==
        "s.yaml: row side-channel: missing 'engine'");
}

TEST_CASE("load: duplicate ids over files") {
  auto both = load_files({{"a.yaml", kGood}, {"b.yaml", kGood}});
  REQUIRE_FALSE(both.has_value());
  CHECK(both.error().message == "b.yaml: duplicate id side-channel");
}

TEST_CASE("load: verified says where the row was checked, and an unverified row never fails") {
  const std::string at = "    next: \"unset it\"\n";
  std::string text = kGood;
  text.replace(text.find(at), at.size(),
               at + "    verified: \"volcano-sh/kthena@v0.1.0:docs/x.md\"\n");
  auto rows = load_file({"t.yaml", text});
  REQUIRE(rows.has_value());
  CHECK(rows->front().verified == "volcano-sh/kthena@v0.1.0:docs/x.md");
  auto plain = load_file({"t.yaml", kGood});
  REQUIRE(plain.has_value());
  CHECK(plain->front().verified.empty());
  CHECK(error_with(at, at + "    verified: \"unverified: no tag read\"\n") ==
        "t.yaml: row side-channel: an unverified row never fails (status: warn)");
  text = kGood;
  text.replace(text.find("status: fail"), 12, "status: warn");
  text.replace(text.find(at), at.size(), at + "    verified: \"unverified: no tag read\"\n");
  CHECK(load_file({"t.yaml", text}).has_value());
}
