#pragma once
// Aligned text columns. Widths count UTF-8 code points, not bytes; colour codes wrap a
// cell after padding so they never shift the alignment. The last column is not padded.

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
  std::string render(bool color) const;

private:
  std::string m_indent;
  std::string m_separator;
  std::vector<std::vector<Cell>> m_rows;
};

std::size_t display_width(const std::string& text);
std::string colored(const std::string& text, const std::string& sgr, bool color);

}  // namespace icheck::report
