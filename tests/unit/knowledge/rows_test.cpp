// Every row of every data file compiled into the binary: it loads, its id is unique, its
// failing example fires it and its healthy example does not.
#include "knowledge/evaluate.hpp"
#include "knowledge/load.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <set>

using namespace icheck::knowledge;

TEST_CASE("knowledge data: every embedded file loads, ids unique over all files") {
  REQUIRE_FALSE(embedded_files().empty());
  auto loaded = load_files(embedded_files());
  REQUIRE_MESSAGE(loaded.has_value(), (loaded ? "" : loaded.error().message));
  std::set<std::string> ids;
  for (const auto& r : *loaded) {
    CAPTURE(r.id);
    CHECK(ids.insert(r.id).second);
  }
  CHECK(rows().size() == loaded->size());
  CHECK(trouble_rows().size() + signature_rows().size() == rows().size());
}

TEST_CASE("knowledge data: each row's failing example fires it, its healthy example does not") {
  for (const auto& r : rows()) {
    CAPTURE(r.file);
    CAPTURE(r.id);
    CHECK(fires(r, from_example(r.failing)));
    CHECK_FALSE(fires(r, from_example(r.healthy)));
  }
}

TEST_CASE("knowledge data: a row never fires on facts it cannot know (an empty map)") {
  // Unknown never concludes: with nothing read, no row holds (present: false needs a
  // complete prefix, which an empty map has none of).
  FactMap nothing;
  CHECK(evaluate(rows(), nothing).empty());
}

TEST_CASE("knowledge data: every row has a public source and a filled detail") {
  for (const auto& r : rows()) {
    CAPTURE(r.id);
    REQUIRE_FALSE(r.sources.empty());
    CHECK(r.sources.front().starts_with("https://"));
    auto detail = fill(r.detail, from_example(r.failing));
    CHECK(detail.find("(unknown)") == std::string::npos);
  }
}

TEST_CASE("knowledge data: no signature row matches a line of a healthy start-up log") {
  // tests/fixtures/logs/healthy/**: real logs of workers whose KV path worked (the logs helper's
  // fixtures); a `# source:` or `# synthetic:` first line is the fixture's provenance.
  const std::filesystem::path dir = std::filesystem::path(ICHECK_TEST_DATA) / "fixtures/logs/healthy";
  if (!std::filesystem::exists(dir)) return;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (number == 1 && line.starts_with("# ")) continue;
      FactMap facts;
      facts.set("log.line", line.substr(0, 4096));
      facts.set("log.container", "current");
      for (const auto& hit : evaluate(signature_rows(), facts)) {
        CAPTURE(entry.path().string());
        CAPTURE(number);
        FAIL_CHECK("signature " << hit.row->id << " matches a healthy line: " << line);
      }
    }
  }
}
