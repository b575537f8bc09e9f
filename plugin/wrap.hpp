#pragma once
// Help and error text laid out for the reader's terminal: its width when stdout is one, 80
// otherwise (a pipe, a file, a test), as kubectl's help does.

#include <cstddef>
#include <string>

namespace icheck::plugin {

inline constexpr std::size_t k_default_width = 80;

// The width of the terminal on `fd`; else $COLUMNS when set; else k_default_width.
std::size_t terminal_width(int fd);

// Where a report's table rows are cut: the terminal's width on `fd`, or $COLUMNS when set; 0
// (never cut) for a pipe or a file, so grep and scripts see every DETAIL whole.
std::size_t detail_width(int fd);

// `text` broken at spaces into lines of at most `width` columns, each starting with `indent`
// (a word longer than a line stays whole); every line ends with "\n".
std::string wrap(const std::string& text, std::size_t width, const std::string& indent = "");

}  // namespace icheck::plugin
