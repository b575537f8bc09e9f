#include "wrap.hpp"

#include "report/text_table.hpp"
#include "util/text.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

namespace icheck::plugin {

std::size_t terminal_width(int fd) {
  winsize size{};
  if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40) {
    return size.ws_col;
  }
  return k_default_width;
}

std::string wrap(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out;
  std::string line = indent;
  for (const auto word : text::words(text)) {
    const bool empty = line.size() == indent.size();
    if (!empty &&
        report::display_width(line) + 1 + report::display_width(std::string(word)) > width) {
      out += line + "\n";
      line = indent;
    }
    line += (line.size() == indent.size() ? "" : " ") + std::string(word);
  }
  return out + line + "\n";
}

}  // namespace icheck::plugin
