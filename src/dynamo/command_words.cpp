#include "dynamo/command_words.hpp"

#include "util/text.hpp"

#include <cctype>

namespace icheck::dynamo {
namespace {

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

} // namespace

std::string expand_env_refs(std::string s, const std::map<std::string, std::string>& env) {
  for (const auto& [name, value] : env) {
    for (const auto& ref : {"$(" + name + ")", "${" + name + "}", "$" + name}) {
      const bool bare = ref[1] != '(' && ref[1] != '{';
      for (std::size_t at = 0; (at = s.find(ref, at)) != std::string::npos;) {
        auto end = at + ref.size();
        if (bare && end < s.size() && ident_char(s[end])) {
          at = end; // $NAMEX is another variable
          continue;
        }
        s.replace(at, ref.size(), value);
        at += value.size();
      }
    }
  }
  return s;
}

std::vector<std::string> command_words(const std::vector<std::string>& command_line,
                                       const std::map<std::string, std::string>& env) {
  std::vector<std::string> words;
  for (const auto& arg : command_line) {
    const std::string expanded = expand_env_refs(arg, env);
    for (auto word : text::words(expanded))
      words.emplace_back(word);
  }
  return words;
}

} // namespace icheck::dynamo
