#include "report/fit_lines.hpp"

#include "report/text_table.hpp"

#include <algorithm>
#include <string_view>

namespace icheck::report {
namespace {

constexpr std::size_t kLabelWidth = 7;  // "  next   ": the labels under the VERDICT line

std::string trimmed(std::string text, std::string_view chars = " ") {
  while (!text.empty() && chars.find(text.back()) != std::string_view::npos)
    text.pop_back();
  while (!text.empty() && chars.find(text.front()) != std::string_view::npos)
    text.erase(0, 1);
  return text;
}

// The byte offset after the first `n` code points of `text` (its size when shorter).
std::size_t code_point_offset(const std::string& text, std::size_t n) {
  std::size_t i = 0;
  for (std::size_t seen = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == n) {
      break;
    }
  }
  return i;
}

// Where a kubectl command starts: a word at the text's start or after a blank or '(' that names
// kubectl, also by a path or a wrapper ("/usr/local/bin/kubectl", "kubectl.1.31"); npos if none.
std::size_t command_start(const std::string& text) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (at > 0 && text[at - 1] != ' ' && text[at - 1] != '(') {
      continue;
    }
    const auto end = text.find(' ', at);
    if (end == std::string::npos) {
      break;
    }
    const std::string_view word(text.data() + at, end - at);
    const auto slash = word.rfind('/');
    const auto name = slash == std::string_view::npos ? word : word.substr(slash + 1);
    if (name.starts_with("kubectl") && (slash == std::string_view::npos || word[0] == '/')) {
      return at;
    }
  }
  return std::string::npos;
}

// The prose that introduces a command on the line below: "...: 1 (the resource ...):".
std::string introduction(const CommandSplit& s) {
  std::string prose = trimmed(s.before, " :");
  std::string after = trimmed(s.after);
  if (after.starts_with("#")) {  // a shell comment says why: it goes with the prose
    after = trimmed(after, " #");
    prose += (prose.empty() || after.empty() ? "" : ", ") + after;
  } else {
    prose += after;
  }
  return prose.empty() ? "run:" : prose + ":";
}

}  // namespace

std::string label_prefix(const std::string& label) {
  return "  " + label +
         std::string(label.size() < kLabelWidth ? kLabelWidth - label.size() : 1, ' ');
}

std::string wrap_words(const std::string& text, std::size_t width, const std::string& first,
                       const std::string& indent) {
  std::string out;
  std::string line = first;
  bool empty = true;  // no word on `line` yet
  std::size_t at = 0;
  while (at <= text.size()) {
    auto end = text.find(' ', at);
    if (end == std::string::npos)
      end = text.size();
    const std::string word = text.substr(at, end - at);
    at = end + 1;
    if (word.empty())
      continue;
    if (!empty && display_width(line) + 1 + display_width(word) > width) {
      out += line + "\n";
      line = indent;
      empty = true;
    }
    std::string rest = word;  // a word wider than a line goes on in pieces, nothing lost
    for (std::size_t room; display_width(line) + (empty ? 0 : 1) + display_width(rest) > width &&
                           (room = width - std::min(width, display_width(line))) > 1;) {
      const std::size_t cut = code_point_offset(rest, room - (empty ? 0 : 1));
      out += line + (empty ? "" : " ") + rest.substr(0, cut) + "\n";
      rest.erase(0, cut);
      line = indent;
      empty = true;
    }
    line += (empty ? "" : " ") + rest;
    empty = false;
  }
  return out + line + "\n";
}

CommandSplit split_command(const std::string& text) {
  const auto start = command_start(text);
  if (start == std::string::npos)
    return {text, "", ""};
  std::size_t end = text.find("  #", start);
  if (end == std::string::npos) {
    end = text.size();
    const std::string_view before(text.data(), start);
    const auto open = std::count(before.begin(), before.end(), '(');
    if (text.ends_with(")") && open > std::count(before.begin(), before.end(), ')'))
      --end;  // "(... : kubectl get node n -o jsonpath=...)": the parenthesis closes the prose
  }
  return {text.substr(0, start), trimmed(text.substr(start, end - start)), text.substr(end)};
}

std::string labelled_lines(const std::string& label, const std::string& text, std::size_t width) {
  const std::string first = label_prefix(label);
  const std::string indent(first.size(), ' ');
  if (display_width(first + text) <= width)
    return first + text + "\n";
  const auto split = split_command(text);
  if (split.command.empty())
    return wrap_words(text, width, first, indent);
  return wrap_words(introduction(split), width, first, indent) + indent + split.command + "\n";
}

}  // namespace icheck::report
