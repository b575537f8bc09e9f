#pragma once
// Aligned text columns. Widths count UTF-8 code points, not bytes; colour codes wrap a
// cell after padding so they never shift the alignment. The last column is not padded, and is
// cut with "…" where a width limit is set; where the other columns alone would leave it no room,
// their widest ones are narrowed, their cells cut in the middle ("many-kin…orker-3").

#include <string>
#include <vector>

namespace icheck::report {

struct Cell {
  std::string text;
  std::string sgr;  // ANSI SGR parameters, e.g. "32" for green; empty for none
};

class TextTable {
public:
  explicit TextTable(std::string indent = "", std::string separator = "  ")
      : m_indent(std::move(indent)), m_separator(std::move(separator)) {}

  void add_row(std::vector<Cell> row) { m_rows.push_back(std::move(row)); }
  // Lines longer than `columns` get their last cell cut with "…" (0: never cut), and no line is
  // longer than `columns`.
  void limit_width(std::size_t columns) { m_width_limit = columns; }
  std::string render(bool color) const;

private:
  std::vector<std::size_t> column_widths() const;
  std::string render_row(const std::vector<Cell>& row, const std::vector<std::size_t>& widths,
                         bool color) const;

  std::string m_indent;
  std::string m_separator;
  std::vector<std::vector<Cell>> m_rows;
  std::size_t m_width_limit = 0;
};

std::size_t display_width(const std::string& text);

// `text` if it fits in `width` code points, else cut at the last word boundary that leaves room
// for a closing "…"; "" when not even one word fits.
std::string fit_words(const std::string& text, std::size_t width);

// fit_words, or when not one word fits, the text cut mid-word with "…".
std::string fit_cut(const std::string& text, std::size_t width);

// `text` if it fits, else its start and its end with "…" between: names differ at their ends.
std::string fit_middle(const std::string& text, std::size_t width);
std::string colored(const std::string& text, const std::string& sgr, bool color);

}  // namespace icheck::report
