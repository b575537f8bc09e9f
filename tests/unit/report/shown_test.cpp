#include "report/shown.hpp"
#include "sample_report.hpp"

#include <doctest/doctest.h>

using namespace icheck::report;

TEST_CASE(
    "a finding's detail that quotes a whole traceback is cut to one line's worth, masked first") {
  // A python3 that cannot import nixl prints its traceback; the probe keeps its last line, which
  // a broken image can make as long as it likes.
  const std::string huge =
      "ImportError: HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123456789 " + std::string(10'000, 'x');
  Report r;
  r.targets.push_back(icheck::test::pod(
      "decode-0", "decode", "node-a",
      {icheck::test::finding("python import", Layer::nixl, Status::warn,
                             "python3 cannot import nixl: " + huge, "see " + huge)}));
  for (const auto medium : {Medium::terminal, Medium::document}) {
    const auto shown = shown_report(r, medium);
    const auto& f = shown.targets.at(0).findings.at(0);
    CHECK(f.detail.size() < 2100);
    CHECK(f.detail.starts_with("python3 cannot import nixl: ImportError: HF_TOKEN="));
    CHECK(f.detail.find("hf_abcdefghijklmnopqrstuvwxyz0123456789") == std::string::npos);
    CHECK(f.detail.ends_with("more bytes)"));
    CHECK(f.next.size() < 2100);
  }
  // A short detail is kept whole.
  r.targets[0].findings[0].detail = "python3 cannot import nixl: No module named 'nixl'";
  CHECK(shown_report(r, Medium::document).targets[0].findings[0].detail ==
        "python3 cannot import nixl: No module named 'nixl'");
}
