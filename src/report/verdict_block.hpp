#pragma once
// The verdict block under the tables: one status line that fits a terminal, then the long
// parts (whole reason, affected targets, transfer pairs, next steps, limitations) under it.

#include "report/model.hpp"
#include "report/text_table.hpp"  // fit_words

#include <cstddef>
#include <string>

namespace icheck::report {

// Columns the VERDICT line keeps within when the width is not known (a pipe, a file).
inline constexpr std::size_t kVerdictWidth = 100;

// Names a list shows before "and N more" in the default view ("cut after a few").
inline constexpr std::size_t kFewNames = 4;

// `next` entries the default view shows at most (the last one saying how many more there are);
// -o wide and JSON list every one.
inline constexpr std::size_t kMostSteps = 5;

// "  LABEL  a, b, c" wrapped at `width`, continuation lines under the first name; at most
// `most` names (then "and N more"; all of them where only one more would be left out); a name
// wider than a line is cut with "…".
std::string name_lines(const std::string& label, const std::vector<std::string>& names,
                       std::size_t most, std::size_t width);

struct VerdictBlockOptions {
  bool color = false;
  bool every_name = false;            // -o wide: list every affected target and every next command
  std::size_t width = kVerdictWidth;  // the lines keep within it, but a runnable command
};

std::string verdict_block(const Report& report, const Verdict& verdict,
                          const VerdictBlockOptions& options);

}  // namespace icheck::report
