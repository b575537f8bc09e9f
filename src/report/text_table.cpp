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

std::string fit_middle(const std::string& text, std::size_t width) {
  const std::size_t have = display_width(text);
  if (have <= width) {
    return text;
  }
  if (width < 3) {
    return fit_cut(text, width);
  }
  const std::size_t tail = (width - 1) / 2;
  const std::size_t head = width - 1 - tail;
  return text.substr(0, code_point_offset(text, head)) + std::string(kEllipsis) +
         text.substr(code_point_offset(text, have - tail));
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
  if (m_width_limit == 0 || widths.size() < 2) {
    return widths;
  }
  // The columns before the last, narrowed (widest first) until the last has some room.
  constexpr std::size_t kLastRoom = 12, kNarrowest = 6;
  std::size_t fixed = display_width(m_indent);
  for (std::size_t i = 0; i + 1 < widths.size(); ++i) {
    fixed += widths[i] + m_separator.size();
  }
  const std::size_t room = std::min(kLastRoom, widths.back());
  while (fixed + room > m_width_limit) {
    const auto widest = std::max_element(widths.begin(), widths.end() - 1);
    if (*widest <= kNarrowest) {
      break;
    }
    --*widest;
    --fixed;
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
    const std::size_t left = m_width_limit > used ? m_width_limit - used : 0;
    if (!last && (m_width_limit == 0 || used + widths[i] + m_separator.size() < m_width_limit)) {
      text = fit_middle(text, widths[i]);
      text += std::string(widths[i] - display_width(text), ' ');
    } else if (m_width_limit >
               0) {  // the last cell, or one that reaches the limit: it ends the line
      line += colored(fit_cut(text, left), row[i].sgr, color);
      break;
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
