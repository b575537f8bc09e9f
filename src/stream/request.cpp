#include "stream/request.hpp"

#include <algorithm>
#include <set>

namespace icheck::stream {
namespace {

bool unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

}  // namespace

std::string percent_encode(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : text) {
    if (unreserved(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string query_encode(std::string_view text) {
  std::string out;
  std::size_t from = 0;
  for (auto at = text.find(' '); at != std::string_view::npos; at = text.find(' ', from)) {
    out += percent_encode(text.substr(from, at - from)) + '+';
    from = at + 1;
  }
  return out + percent_encode(text.substr(from));
}

std::string exec_path(const ExecTarget& t) {
  std::string path = "/api/v1/namespaces/" + percent_encode(t.namespace_) + "/pods/" +
                     percent_encode(t.pod) + "/exec?";
  for (const auto& word : t.command)
    path += "command=" + query_encode(word) + "&";
  if (!t.container.empty())
    path += "container=" + percent_encode(t.container) + "&";
  if (t.stdin)
    path += "stdin=true&";
  return path + "stdout=true&stderr=true";
}

bool is_namespace_name(std::string_view name) {
  if (name.empty() || name.size() > 63 || name.front() == '-' || name.back() == '-')
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::optional<std::string> exec_accept_paths(const std::vector<std::string>& namespaces) {
  const std::set<std::string> names(namespaces.begin(), namespaces.end());
  if (names.empty())
    return std::nullopt;
  std::string alternatives;
  for (const auto& name : names) {
    if (!is_namespace_name(name))
      return std::nullopt;
    alternatives += (alternatives.empty() ? "" : "|") + name;
  }
  // Anchored both ends; [^/]+ keeps the pod one path segment (the proxy matches the decoded
  // path, so an encoded '/' becomes a real one and no longer matches).
  return "^/api/v1/namespaces/(" + alternatives + ")/(pods/[^/]+/(exec|log)|events)$";
}

std::string log_path(const LogQuery& q) {
  std::string path = "/api/v1/namespaces/" + percent_encode(q.namespace_) + "/pods/" +
                     percent_encode(q.pod) + "/log?";
  if (!q.container.empty())
    path += "container=" + percent_encode(q.container) + "&";
  if (q.previous)
    path += "previous=true&";
  return path + "tailLines=" + std::to_string(q.tail_lines) +
         "&limitBytes=" + std::to_string(q.limit_bytes) + "&timestamps=true";
}

std::string events_path(const std::string& namespace_, const std::string& pod, long limit) {
  return "/api/v1/namespaces/" + percent_encode(namespace_) +
         "/events?fieldSelector=" + percent_encode("involvedObject.name=" + pod) +
         "&limit=" + std::to_string(limit);
}

}  // namespace icheck::stream
