#pragma once
// Lines that fit the terminal: prose wrapped at word boundaries, and a runnable command, which is
// never cut, standing whole on a line of its own under the prose that introduces it.

#include <cstddef>
#include <string>

namespace icheck::report {

// Columns the lines under the tables keep within when the width is unknown (a pipe, a file).
inline constexpr std::size_t kDefaultWidth = 100;

// The width a view keeps within: `width`, or kDefaultWidth when 0 (not known).
inline std::size_t within(std::size_t width) {
  return width == 0 ? kDefaultWidth : width;
}

// "  next   ": a label of the verdict block, padded so the texts after the labels align.
std::string label_prefix(const std::string& label);

// `text` wrapped at `width`: the first line after `first`, the others after `indent`; a word
// wider than a line goes on over the next lines, whole. Each line ends with '\n'.
std::string wrap_words(const std::string& text, std::size_t width, const std::string& first,
                       const std::string& indent);

// A text that holds a kubectl command (kubectl also by its path or a wrapper's name): the prose
// before it, the command, the prose after it (a closing parenthesis, a shell comment's words);
// command "" when there is none.
struct CommandSplit {
  std::string before;
  std::string command;
  std::string after;
};
CommandSplit split_command(const std::string& text);

// "  LABEL  text" on one line when it fits `width`; else the prose wrapped under the label and
// the command, whole, on its own line below it.
std::string labelled_lines(const std::string& label, const std::string& text, std::size_t width);

}  // namespace icheck::report
