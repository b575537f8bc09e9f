#include "report/text_table.hpp"

#include <algorithm>

namespace icheck::report {

std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // skip UTF-8 continuation bytes
  }));
}

std::string colored(const std::string& text, const std::string& sgr, bool color) {
  if (!color || sgr.empty()) {
    return text;
  }
  return "\x1b[" + sgr + "m" + text + "\x1b[0m";
}

std::string TextTable::render(bool color) const {
  std::vector<std::size_t> widths;
  for (const auto& row : m_rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(row[i].text));
    }
  }
  std::string out;
  for (const auto& row : m_rows) {
    std::string line = m_indent;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool last = i + 1 == row.size();
      std::string text = row[i].text;
      if (!last) {
        text += std::string(widths[i] - display_width(text), ' ');
      }
      line += colored(text, row[i].sgr, color) + (last ? "" : m_separator);
    }
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace icheck::report
