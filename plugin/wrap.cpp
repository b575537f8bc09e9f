#include "wrap.hpp"

#include "report/text_table.hpp"
#include "util/text.hpp"

#include <cstdlib>
#include <sys/ioctl.h>
#include <unistd.h>

namespace icheck::plugin {

namespace {

std::size_t columns_variable() {
  const char* text = std::getenv("COLUMNS");
  const auto n = text ? text::to_int(text) : std::nullopt;
  return n && *n >= 40 && *n <= 10000 ? static_cast<std::size_t>(*n) : 0;
}

std::size_t tty_columns(int fd) {
  winsize size{};
  return isatty(fd) && ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40 ? size.ws_col : 0;
}

}  // namespace

std::size_t terminal_width(int fd) {
  const std::size_t known = detail_width(fd);
  return known > 0 ? known : k_default_width;
}

std::size_t detail_width(int fd) {
  const std::size_t tty = tty_columns(fd);
  return tty > 0 ? tty : columns_variable();
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
