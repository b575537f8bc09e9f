#include "report/text_table.hpp"

#include <algorithm>

namespace icheck::report {
namespace {

constexpr std::string_view kEllipsis = "…";

bool continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The byte offset after the first `n` code points of `text` (its size when shorter).
std::size_t code_point_offset(const std::string& text, std::size_t n) {
  std::size_t i = 0;
  for (std::size_t seen = 0; i < text.size(); ++i) {
    if (!continuation_byte(text[i]) && seen++ == n) {
      break;
    }
  }
  return i;
}

}  // namespace

std::string fit_words(const std::string& text, std::size_t width) {
  if (display_width(text) <= width) {
    return text;
  }
  if (width < 2) {
    return {};
  }
  const std::size_t end = code_point_offset(text, width - 1);  // room for the ellipsis
  std::size_t cut = text[end] == ' ' ? end : text.rfind(' ', end);
  if (cut == std::string::npos) {
    return {};
  }
  while (cut > 0 && std::string_view(" ,;:(").find(text[cut - 1]) != std::string_view::npos) {
    --cut;
  }
  return cut == 0 ? std::string() : text.substr(0, cut) + std::string(kEllipsis);
}

std::string fit_cut(const std::string& text, std::size_t width) {
  if (display_width(text) <= width) {
    return text;
  }
  if (auto words = fit_words(text, width); !words.empty()) {
    return words;
  }
  return width == 0 ? std::string()
                    : text.substr(0, code_point_offset(text, width - 1)) + std::string(kEllipsis);
}

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
  const auto widths = column_widths();
  std::string out;
  for (const auto& row : m_rows) {
    out += render_row(row, widths, color) + "\n";
  }
  return out;
}

std::vector<std::size_t> TextTable::column_widths() const {
  std::vector<std::size_t> widths;
  for (const auto& row : m_rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(row[i].text));
    }
  }
  return widths;
}

std::string TextTable::render_row(const std::vector<Cell>& row,
                                  const std::vector<std::size_t>& widths, bool color) const {
  std::string line = m_indent;
  std::size_t used = display_width(m_indent);
  for (std::size_t i = 0; i < row.size(); ++i) {
    const bool last = i + 1 == row.size();
    std::string text = row[i].text;
    if (!last) {
      text += std::string(widths[i] - display_width(text), ' ');
    } else if (m_width_limit > 0) {
      text = fit_cut(text, m_width_limit > used ? m_width_limit - used : 0);
    }
    const std::string gap = last ? "" : m_separator;
    used += display_width(text) + gap.size();
    line += colored(text, row[i].sgr, color) + gap;
  }
  while (!line.empty() && line.back() == ' ') {
    line.pop_back();
  }
  return line;
}

}  // namespace icheck::report
