#include "probe/script_compact.hpp"

namespace icheck::probe {
namespace {

enum class Quote { none, single, double_ };

// The quoting state after `line`, starting in `q`: '...' ends only at the next quote; "..."
// at an unescaped one; a backslash outside quotes escapes the next character. $(...) inside
// "..." that holds its own "..." opens and closes them on the same line, so the state at the
// line's end stays right.
Quote after(std::string_view line, Quote q) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    switch (q) {
    case Quote::single:
      if (c == '\'')
        q = Quote::none;
      break;
    case Quote::double_:
      if (c == '\\')
        ++i;
      else if (c == '"')
        q = Quote::none;
      break;
    case Quote::none:
      if (c == '\\')
        ++i;
      else if (c == '\'')
        q = Quote::single;
      else if (c == '"')
        q = Quote::double_;
      else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t'))
        return q;  // a comment to the end of the line: its quotes are text
      break;
    }
  }
  return q;
}

// An odd number of backslashes at the end: the newline is escaped.
bool ends_with_backslash(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[line.size() - 1 - n] == '\\')
    ++n;
  return n % 2 == 1;
}

}  // namespace

std::string compact_script(std::string_view script) {
  std::string out;
  out.reserve(script.size());
  Quote q = Quote::none;
  bool continued = false;
  std::size_t from = 0;
  while (from <= script.size()) {
    auto end = script.find('\n', from);
    const bool last = end == std::string_view::npos;
    if (last)
      end = script.size();
    std::string_view line = script.substr(from, end - from);
    const Quote at_start = q;
    q = after(line, q);
    // A line a backslash continues is kept whole: its blanks may part two words.
    const bool continues = continued;
    continued = q == Quote::none && ends_with_backslash(line);
    if (at_start == Quote::none && !continues) {
      const auto text = line.find_first_not_of(" \t");
      if (text == std::string_view::npos || line[text] == '#') {
        from = end + 1;
        if (last)
          break;
        continue;
      }
      line.remove_prefix(text);
    }
    out.append(line);
    if (!last)
      out += '\n';
    from = end + 1;
    if (last)
      break;
  }
  return out;
}

}  // namespace icheck::probe
