#pragma once
// Help and error text laid out for the reader's terminal: its width when stdout is one, 80
// otherwise (a pipe, a file, a test), as kubectl's help does.

#include <cstddef>
#include <string>

namespace icheck::plugin {

inline constexpr std::size_t k_default_width = 80;

// The width of the terminal on `fd`; k_default_width when it is not a terminal.
std::size_t terminal_width(int fd);

// `text` broken at spaces into lines of at most `width` columns, each starting with `indent`
// (a word longer than a line stays whole); every line ends with "\n".
std::string wrap(const std::string& text, std::size_t width, const std::string& indent = "");

}  // namespace icheck::plugin
