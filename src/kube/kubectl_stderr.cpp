#include "kube/kubectl_stderr.hpp"

#include <algorithm>
#include <cctype>

#include "util/text.hpp"

namespace icheck::kube {
namespace {

bool digits(std::string_view s, std::size_t from, std::size_t count) {
  if (from + count > s.size()) return false;
  for (std::size_t i = from; i < from + count; ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// The part after "file.go:123] ", or the whole line.
std::string_view klog_message(std::string_view line) {
  const auto end = line.find("] ");
  return end == std::string_view::npos ? line : line.substr(end + 2);
}

}  // namespace

bool is_klog_line(std::string_view line) {
  // Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg
  if (line.size() < 22 || std::string_view("IWEF").find(line[0]) == std::string_view::npos) return false;
  if (!digits(line, 1, 4) || line[5] != ' ' || !digits(line, 6, 2) || line[8] != ':' ||
      !digits(line, 9, 2) || line[11] != ':' || !digits(line, 12, 2) || line[14] != '.')
    return false;
  const auto close = line.find("] ", 15);
  const auto colon = line.rfind(':', close);
  return close != std::string_view::npos && colon != std::string_view::npos && colon > 15 &&
         digits(line, colon + 1, close - colon - 1);
}

std::vector<std::string> kubectl_messages(std::string_view err) {
  std::vector<std::string> plain, klog;
  for (auto line : text::lines(err)) {
    line = text::trim(line);
    if (line.empty()) continue;
    if (!is_klog_line(line)) {
      plain.emplace_back(line);
      continue;
    }
    std::string message(klog_message(line));
    if (std::find(klog.begin(), klog.end(), message) == klog.end()) klog.push_back(std::move(message));
  }
  return plain.empty() ? klog : plain;
}

}  // namespace icheck::kube
