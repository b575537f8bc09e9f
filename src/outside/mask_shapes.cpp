#include "outside/mask_shapes.hpp"

#include "outside/mask.hpp"
#include "util/text.hpp"

#include <array>
#include <cctype>

namespace icheck::outside::shapes {
namespace {

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

bool is_key_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

bool is_quote(char c) {
  return c == '"' || c == '\'';
}

// Where a masked value ends: the next separator of a query string, a list or a command line.
bool ends_value(char c) {
  return is_space(c) || c == '&' || c == ';' || c == ',' || is_quote(c) || c == ')' || c == '>';
}

std::size_t value_end(std::string_view text, std::size_t from) {
  while (from < text.size() && !ends_value(text[from]))
    ++from;
  return from;
}

// A value that starts with a quote runs to the closing quote (or the end of a cut text);
// {first, end} of what is masked.
std::pair<std::size_t, std::size_t> value_span(std::string_view text, std::size_t start) {
  if (start < text.size() && is_quote(text[start])) {
    const std::size_t close = text.find(text[start], start + 1);
    return {start + 1, close == std::string_view::npos ? text.size() : close};
  }
  return {start, value_end(text, start)};
}

// The text rebuilt left to right with some spans replaced by the mask.
class Spliced {
public:
  explicit Spliced(std::string_view text) : m_text(text) {}

  // [from, to) masked, unless empty or already the mask; calls come in increasing order.
  void mask(std::size_t from, std::size_t to) {
    if (to <= from || m_text.substr(from, to - from) == kMask)
      return;
    m_out.append(m_text.substr(m_done, from - m_done)).append(kMask);
    m_done = to;
  }

  std::string finish() { return m_out.append(m_text.substr(m_done)); }

private:
  std::string_view m_text;
  std::string m_out;
  std::size_t m_done = 0;
};

// The authority of a URL ends at its path, query or fragment (userinfo may hold the
// sub-delimiters ",;&=" and more '@', RFC 3986 §3.2.1), or at a blank or a quote.
bool ends_authority(char c) {
  return c == '/' || c == '?' || c == '#' || is_space(c) || c == '"' || c == '<' || c == '>';
}

// A flag as written inside a list or a quoted argv: ["--token", "x"] -> --token.
std::string_view flag_core(std::string_view word) {
  constexpr std::string_view kAround = "\"'[](),";
  const std::size_t first = word.find_first_not_of(kAround);
  if (first == std::string_view::npos)
    return {};
  return word.substr(first, word.find_last_not_of(kAround) + 1 - first);
}

bool word_starts_at(std::string_view text, std::size_t at) {
  return at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
}

std::string mask_scheme(std::string_view text, std::string_view scheme) {
  const std::string up = text::upper(text);
  Spliced out(text);
  for (std::size_t at = up.find(scheme); at != std::string::npos; at = up.find(scheme, at + 1)) {
    std::size_t start = at + scheme.size();
    if (!word_starts_at(text, at) || start >= text.size() || text[start] != ' ')
      continue;
    while (start < text.size() && text[start] == ' ')
      ++start;
    const std::size_t end = value_end(text, start);
    out.mask(start, end);
    at = std::max(at, end);
  }
  return out.finish();
}

}  // namespace

std::string mask_pem(std::string_view text) {
  constexpr std::string_view kBegin = "-----BEGIN ";
  constexpr std::string_view kEnd = "-----END ";
  constexpr std::string_view kDashes = "-----";
  Spliced out(text);
  std::size_t at = text.find(kBegin);
  while (at != std::string_view::npos) {
    const std::size_t label_end = text.find(kDashes, at + kBegin.size());
    if (label_end == std::string_view::npos)
      break;  // a header cut before its dashes carries no body yet
    const std::size_t body = label_end + kDashes.size();
    const std::size_t end = text.find(kEnd, body);
    out.mask(body, end == std::string_view::npos ? text.size() : end);
    if (end == std::string_view::npos)
      break;
    const std::size_t trailer = text.find(kDashes, end + kEnd.size());
    at = trailer == std::string_view::npos ? trailer : text.find(kBegin, trailer + kDashes.size());
  }
  return out.finish();
}

std::string mask_userinfo(std::string_view text) {
  Spliced out(text);
  for (std::size_t at = text.find("://"); at != std::string_view::npos;
       at = text.find("://", at + 3)) {
    const std::size_t start = at + 3;
    std::size_t last_at = std::string_view::npos;
    std::size_t end = start;
    for (; end < text.size() && !ends_authority(text[end]); ++end) {
      if (text[end] == '@')
        last_at = end;
    }
    if (last_at != std::string_view::npos)
      out.mask(start, last_at);
  }
  return out.finish();
}

std::string mask_pairs(std::string_view text) {
  Spliced out(text);
  for (std::size_t eq = text.find('='); eq != std::string_view::npos; eq = text.find('=', eq + 1)) {
    std::size_t key = eq;
    while (key > 0 && is_key_char(text[key - 1]))
      --key;
    if (key == eq || !looks_secret(text.substr(key, eq - key)))
      continue;
    const auto [from, end] = value_span(text, eq + 1);
    out.mask(from, end);
    eq = std::max(eq, end);
  }
  return out.finish();
}

std::string mask_flag_words(std::string_view text) {
  Spliced out(text);
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && is_space(text[at]))
      ++at;
    std::size_t end = at;
    while (end < text.size() && !is_space(text[end]))
      ++end;
    const std::string_view word = flag_core(text.substr(at, end - at));
    at = end;
    if (word.size() < 2 || word[0] != '-' || word.find('=') != std::string_view::npos ||
        !looks_secret(word))
      continue;
    std::size_t next = end;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t'))
      ++next;
    if (next == end || next >= text.size() || text[next] == '-')
      continue;
    auto [from, stop] = value_span(text, next);
    if (!is_quote(text[next])) {
      stop = from;
      while (stop < text.size() && !is_space(text[stop]) && !is_quote(text[stop]))
        ++stop;
    }
    out.mask(from, stop);
    at = stop;
  }
  return out.finish();
}

std::string mask_auth_schemes(std::string_view text) {
  return mask_scheme(mask_scheme(text, "BEARER"), "BASIC");
}

}  // namespace icheck::outside::shapes
