#pragma once
// The verdict block under the tables: one status line that fits a terminal, then the long
// parts (whole reason, affected targets, transfer pairs, next steps, limitations) under it.

#include "report/model.hpp"

#include <cstddef>
#include <string>

namespace icheck::report {

// Columns the VERDICT line keeps within (a terminal's usual width, less a margin).
inline constexpr std::size_t kVerdictWidth = 100;

// `text` if it fits in `width` code points, else cut at the last word boundary that leaves room
// for a closing "…"; "" when not even one word fits.
std::string fit_words(const std::string& text, std::size_t width);

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
