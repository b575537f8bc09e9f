#include "knowledge/version.hpp"

#include <algorithm>
#include <array>

namespace icheck::knowledge {
namespace {

int compare(const std::vector<long long>& a, const std::vector<long long>& b) {
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const long long x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    if (x != y)
      return x < y ? -1 : 1;
  }
  return 0;
}

bool holds(int cmp, std::string_view op) {
  if (op == ">=")
    return cmp >= 0;
  if (op == ">")
    return cmp > 0;
  if (op == "<=")
    return cmp <= 0;
  if (op == "<")
    return cmp < 0;
  if (op == "!=")
    return cmp != 0;
  return cmp == 0;  // "==" (parse_version_range accepts no other)
}

}  // namespace

std::optional<std::vector<long long>> version_numbers(std::string_view text) {
  if (text.starts_with('v') || text.starts_with('V'))
    text.remove_prefix(1);
  std::vector<long long> out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t n = i;
    while (n < text.size() && text[n] >= '0' && text[n] <= '9' && n - i < 12)
      ++n;
    if (n == i)
      break;
    long long value = 0;
    for (std::size_t k = i; k < n; ++k)
      value = value * 10 + (text[k] - '0');
    out.push_back(value);
    // Only a '.' followed by a digit continues the numbers; anything else is the suffix.
    if (n + 1 < text.size() && text[n] == '.' && text[n + 1] >= '0' && text[n + 1] <= '9')
      i = n + 1;
    else
      break;
  }
  if (out.empty())
    return std::nullopt;
  return out;
}

std::optional<std::vector<VersionBound>> parse_version_range(std::string_view text) {
  static constexpr std::array<std::string_view, 6> ops{">=", "<=", "==", "!=", ">", "<"};
  std::vector<VersionBound> out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    auto rest = text.substr(i);
    auto op = std::find_if(ops.begin(), ops.end(), [&](auto o) { return rest.starts_with(o); });
    if (op == ops.end())
      return std::nullopt;
    i += op->size();
    std::size_t end = text.find(' ', i);
    if (end == std::string_view::npos)
      end = text.size();
    auto numbers = version_numbers(text.substr(i, end - i));
    if (!numbers || end == i)
      return std::nullopt;
    out.push_back({std::string(*op), *numbers});
    i = end;
  }
  if (out.empty())
    return std::nullopt;
  return out;
}

bool version_in(std::string_view version, const std::vector<VersionBound>& bounds) {
  auto v = version_numbers(version);
  if (!v)
    return false;
  return std::all_of(bounds.begin(), bounds.end(),
                     [&](const VersionBound& b) { return holds(compare(*v, b.numbers), b.op); });
}

}  // namespace icheck::knowledge
