#pragma once
// A run that could not go on still yields a Report (DESIGN.md "Output contract": with -o json or
// -o yaml stdout always holds one): what was gathered before, the reason in `errors`, the
// verdict `error`.

#include "report/model.hpp"
#include "util/expected.hpp"

namespace icheck::check {

// `why` as kubectl words it ("error: error loading config file ...") loses its "error: ": the
// Report's errors[] are errors already.
inline report::Report stopped(report::Report gathered, const Error& why) {
  constexpr std::string_view prefix = "error: ";
  const std::string& m = why.message;
  gathered.stopped = m.starts_with(prefix) ? m.substr(prefix.size()) : m;
  gathered.errors.push_back(gathered.stopped);
  return gathered;
}

}  // namespace icheck::check
