#include "dynamo/command_words.hpp"

#include <cctype>

namespace icheck::dynamo {
namespace {

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::size_t ident_end(std::string_view s, std::size_t at) {
  while (at < s.size() && ident_char(s[at]))
    ++at;
  return at;
}

// One reference starting at s[at] == '$': its length and replacement, or length 0.
struct Ref {
  std::size_t length = 0;
  std::string value;
};

Ref braced(std::string_view s, std::size_t at, const std::map<std::string, std::string>& env) {
  const auto close = s.find('}', at + 2);
  const auto name_end = ident_end(s, at + 2);
  if (close == std::string_view::npos || name_end == at + 2)
    return {};
  const std::string name(s.substr(at + 2, name_end - at - 2));
  std::string_view rest = s.substr(name_end, close - name_end);
  const auto found = env.find(name);
  if (rest.empty())
    return found == env.end() ? Ref{} : Ref{close + 1 - at, found->second};
  const bool colon = rest.starts_with(":-");
  if (!colon && !rest.starts_with('-'))
    return {};
  rest.remove_prefix(colon ? 2 : 1);
  if (found != env.end() && !(colon && found->second.empty()))
    return {close + 1 - at, found->second};
  std::string fallback(rest);
  if (fallback.size() >= 2 && (fallback.front() == '"' || fallback.front() == '\'') &&
      fallback.back() == fallback.front())
    fallback = fallback.substr(1, fallback.size() - 2);
  return {close + 1 - at, fallback};
}

Ref reference(std::string_view s, std::size_t at, const std::map<std::string, std::string>& env) {
  if (at + 1 >= s.size())
    return {};
  if (s[at + 1] == '{')
    return braced(s, at, env);
  const bool paren = s[at + 1] == '(';
  const auto start = at + (paren ? 2 : 1);
  const auto end = ident_end(s, start);
  if (end == start || (paren && (end >= s.size() || s[end] != ')')))
    return {};
  const auto found = env.find(std::string(s.substr(start, end - start)));
  if (found == env.end())
    return {};
  return {end + (paren ? 1 : 0) - at, found->second};
}

struct Splitter {
  std::vector<std::string> words;
  std::string word;
  bool open = false; // a word has started (an empty "" is a word)

  void flush() {
    if (open)
      words.push_back(word);
    word.clear();
    open = false;
  }
  void add(char c) {
    word += c;
    open = true;
  }
};

// Inside "...": returns the index of the closing quote (or the end).
std::size_t double_quoted(std::string_view s, std::size_t i, Splitter& out) {
  for (; i < s.size() && s[i] != '"'; ++i) {
    if (s[i] == '\\' && i + 1 < s.size() &&
        std::string_view("\"\\$`\n").find(s[i + 1]) != std::string_view::npos) {
      if (s[i + 1] != '\n')
        out.add(s[i + 1]);
      ++i;
    } else {
      out.add(s[i]);
    }
  }
  return i;
}

} // namespace

std::string expand_env_refs(std::string_view s, const std::map<std::string, std::string>& env) {
  std::string out;
  for (std::size_t at = 0; at < s.size(); ++at) {
    if (s[at] == '$') {
      if (Ref ref = reference(s, at, env); ref.length > 0) {
        out += ref.value;
        at += ref.length - 1;
        continue;
      }
    }
    out += s[at];
  }
  return out;
}

std::vector<std::string> shell_words(std::string_view s) {
  Splitter out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\\' && i + 1 < s.size()) {
      if (s[i + 1] != '\n')
        out.add(s[i + 1]);
      ++i;
    } else if (c == '\'') {
      const auto close = s.find('\'', i + 1);
      const auto end = close == std::string_view::npos ? s.size() : close;
      out.open = true;
      out.word += s.substr(i + 1, end - i - 1);
      i = end;
    } else if (c == '"') {
      out.open = true;
      i = double_quoted(s, i + 1, out);
    } else if (std::isspace(static_cast<unsigned char>(c)) || c == ';' || c == '&' || c == '|') {
      out.flush();
    } else {
      out.add(c);
    }
  }
  out.flush();
  return out.words;
}

std::vector<std::string> command_words(const std::vector<std::string>& command_line,
                                       const std::map<std::string, std::string>& env) {
  std::vector<std::string> words;
  for (const auto& arg : command_line) {
    for (auto& word : shell_words(expand_env_refs(arg, env)))
      words.push_back(std::move(word));
  }
  return words;
}

} // namespace icheck::dynamo
