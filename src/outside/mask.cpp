#include "outside/mask.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace icheck::outside {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

bool is_key_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

// Where a masked value ends: the next separator of a query string, a list or a command line.
bool ends_value(char c) {
  return std::isspace(static_cast<unsigned char>(c)) || c == '&' || c == ';' || c == ',' ||
         c == '"' || c == '\'' || c == ')' || c == '>';
}

std::size_t value_end(std::string_view text, std::size_t from) {
  while (from < text.size() && !ends_value(text[from]))
    ++from;
  return from;
}

// scheme://user:pass@host -> scheme://***@host
std::string mask_userinfo(std::string_view text) {
  std::string out;
  std::size_t done = 0;
  for (std::size_t at = text.find("://"); at != std::string_view::npos;
       at = text.find("://", at + 3)) {
    const std::size_t start = at + 3;
    std::size_t end = start;
    while (end < text.size() && text[end] != '@' && text[end] != '/' && text[end] != '?' &&
           text[end] != '#' && !ends_value(text[end]))
      ++end;
    if (end < text.size() && text[end] == '@' && end > start) {
      out.append(text.substr(done, start - done)).append(kMask);
      done = end;
    }
  }
  return out.append(text.substr(done));
}

// key=value where the key looks like a credential: the value is masked.
std::string mask_pairs(std::string_view text) {
  std::string out;
  std::size_t done = 0;
  for (std::size_t eq = text.find('='); eq != std::string_view::npos; eq = text.find('=', eq + 1)) {
    std::size_t key = eq;
    while (key > 0 && is_key_char(text[key - 1]))
      --key;
    const std::size_t end = value_end(text, eq + 1);
    if (key == eq || end == eq + 1 || !looks_secret(text.substr(key, eq - key)))
      continue;
    if (text.substr(eq + 1, end - eq - 1) == kMask)
      continue;
    out.append(text.substr(done, eq + 1 - done)).append(kMask);
    done = end;
    eq = end - 1;
  }
  return out.append(text.substr(done));
}

// "Bearer <token>" (an Authorization header, a curl line) -> "Bearer ***"
std::string mask_bearer(std::string_view text) {
  const std::string up = upper(text);
  std::string out;
  std::size_t done = 0;
  for (std::size_t at = up.find("BEARER "); at != std::string::npos;
       at = up.find("BEARER ", at + 1)) {
    std::size_t start = at + 7;
    while (start < text.size() && text[start] == ' ')
      ++start;
    const std::size_t end = value_end(text, start);
    if (end == start || text.substr(start, end - start) == kMask)
      continue;
    out.append(text.substr(done, start - done)).append(kMask);
    done = end;
    at = end - 1;
  }
  return out.append(text.substr(done));
}

} // namespace

bool looks_secret(std::string_view name) {
  const std::string up = upper(name);
  constexpr std::array<std::string_view, 6> words{"TOKEN",  "SECRET", "PASSWORD",
                                                  "PASSWD", "KEY",    "CREDENTIAL"};
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view w) { return up.find(w) != std::string::npos; });
}

std::string mask_secrets(std::string_view text) {
  return mask_bearer(mask_pairs(mask_userinfo(text)));
}

std::string shown_value(std::string_view name, std::string_view value) {
  if (looks_secret(name) && !value.empty())
    return std::string(kMask);
  return mask_secrets(value);
}

} // namespace icheck::outside
