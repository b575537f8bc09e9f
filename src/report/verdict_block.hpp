#pragma once
// The verdict block under the tables: one status line that fits a terminal, then the long
// parts (whole reason, affected targets, transfer pairs, next steps, limitations) under it.

#include "report/model.hpp"
#include "report/text_table.hpp"  // fit_words

#include <cstddef>
#include <string>

namespace icheck::report {

// Columns the VERDICT line keeps within (a terminal's usual width, less a margin).
inline constexpr std::size_t kVerdictWidth = 100;

// "  LABEL  a, b, c" wrapped at `width`, continuation lines under the first name; at most
// `most` names (then "and N more").
std::string name_lines(const std::string& label, const std::vector<std::string>& names,
                       std::size_t most, std::size_t width);

struct VerdictBlockOptions {
  bool color = false;
  bool every_name = false;  // -o wide: list every affected target
};

std::string verdict_block(const Report& report, const Verdict& verdict,
                          const VerdictBlockOptions& options);

}  // namespace icheck::report
