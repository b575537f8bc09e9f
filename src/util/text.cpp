#include "util/text.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

namespace icheck::text {

std::vector<std::string_view> lines(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    auto end = s.find('\n');
    auto line = s.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    if (end == std::string_view::npos) break;
    s.remove_prefix(end + 1);
  }
  return out;
}

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && blank(s[i])) ++i;
    std::size_t start = i;
    while (i < s.size() && !blank(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    auto pos = s.find(sep);
    out.push_back(s.substr(0, pos));
    if (pos == std::string_view::npos) break;
    s.remove_prefix(pos + 1);
  }
  return out;
}

std::optional<std::pair<std::string_view, std::string_view>> key_value(std::string_view line) {
  auto pos = line.find(':');
  if (pos == std::string_view::npos) return std::nullopt;
  return std::make_pair(trim(line.substr(0, pos)), trim(line.substr(pos + 1)));
}

std::optional<long long> to_int(std::string_view s) {
  s = trim(s);
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<unsigned long long> to_hex(std::string_view s) {
  s = trim(s);
  if (s.starts_with("0x") || s.starts_with("0X")) s.remove_prefix(2);
  unsigned long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> leading_number(std::string_view s) {
  s = trim(s);
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return std::nullopt;
  return v;
}

std::optional<double> leading_rate(std::string_view s) {
  s = trim(s);
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s.front())))
    return std::nullopt;
  auto v = leading_number(s);
  if (!v || !std::isfinite(*v) || *v <= 0)
    return std::nullopt;
  return v;
}

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

std::string flag_value(std::string_view line, std::string_view flag) {
  for (auto at = line.find(flag); at != std::string_view::npos; at = line.find(flag, at + 1)) {
    const auto end = at + flag.size();
    if (end >= line.size() || (line[end] != ' ' && line[end] != '=')) continue;
    const auto start = line.find_first_not_of(" =\"'", end);
    if (start == std::string_view::npos) return {};
    const auto stop = line.find_first_of(" \"'\\;", start);
    return std::string(line.substr(start, stop == std::string_view::npos ? std::string_view::npos : stop - start));
  }
  return {};
}

std::string replace_all(std::string_view s, std::string_view from, std::string_view to) {
  std::string out(s);
  if (from.empty())
    return out;
  for (auto at = out.find(from); at != std::string::npos; at = out.find(from, at + to.size()))
    out.replace(at, from.size(), to);
  return out;
}

}  // namespace icheck::text
