#include "rules/nixl_backend.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include "util/join.hpp"
#include "util/truthy.hpp"

namespace icheck::rules {
namespace {

constexpr std::string_view kKvbmPrefix = "DYN_KVBM_NIXL_BACKEND_";

std::string upper(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `$(NAME)` (Kubernetes), `${NAME}` and `$NAME` (the shell of `sh -c`) replaced by env's value.
std::string expand(std::string s, const std::map<std::string, std::string>& env) {
  for (const auto& [name, value] : env) {
    for (const auto& ref : {"$(" + name + ")", "${" + name + "}", "$" + name}) {
      const bool bare = ref[1] != '(' && ref[1] != '{';
      for (std::size_t at = 0; (at = s.find(ref, at)) != std::string::npos;) {
        auto end = at + ref.size();
        if (bare && end < s.size() && ident_char(s[end])) {
          at = end;  // $NAMEX is another variable
          continue;
        }
        s.replace(at, ref.size(), value);
        at += value.size();
      }
    }
  }
  return s;
}

// The strings of the first "backends": [...] list in text (backslash-escaped quotes of a
// shell string read as plain ones).
std::vector<std::string> backends_list(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), '\\'), text.end());
  auto key = text.find("\"backends\"");
  if (key == std::string::npos) return {};
  auto i = key + 10;
  while (i < text.size() && (text[i] == ' ' || text[i] == ':')) ++i;
  if (i >= text.size() || text[i] != '[') return {};
  auto close = text.find(']', i);
  if (close == std::string::npos) return {};
  std::vector<std::string> names;
  for (auto q = text.find('"', i); q != std::string::npos && q < close; q = text.find('"', q + 1)) {
    auto end = text.find('"', q + 1);
    if (end == std::string::npos || end > close) break;
    if (auto name = upper(std::string_view(text).substr(q + 1, end - q - 1)); !name.empty())
      names.push_back(name);
    q = end;
  }
  return names;
}

void add_unique(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

void add(KvBackends& b, const std::vector<std::string>& names, const std::string& source) {
  if (names.empty()) return;
  if (b.is_default()) {
    b.names.clear();
    b.source.clear();
  }
  for (const auto& n : names) add_unique(b.names, n);
  b.source += (b.source.empty() ? "" : ", ") + source;
}

}  // namespace

bool KvBackends::uses(const std::string& name) const {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> KvBackends::plugins_needed() const {
  auto all = names;
  for (const auto& n : kvbm) add_unique(all, n);
  return all;
}

std::string KvBackends::joined() const { return join(names); }

KvBackends kv_backends(const std::map<std::string, std::string>& env,
                       const std::vector<std::string>& command_line) {
  KvBackends b;
  for (const char* var : {"SGLANG_DISAGGREGATION_NIXL_BACKEND", "TRTLLM_NIXL_KVCACHE_BACKEND"}) {
    if (auto it = env.find(var); it != env.end() && !upper(it->second).empty())
      add(b, {upper(it->second)}, var);
  }
  std::string line;  // one string: a JSON value split over arguments reads whole again
  for (const auto& arg : command_line) line += (line.empty() ? "" : " ") + arg;
  add(b, backends_list(expand(line, env)), "--kv-transfer-config");
  for (const auto& [name, value] : env) {
    if (name.starts_with(kKvbmPrefix) && name.size() > kKvbmPrefix.size() && truthy(value))
      add_unique(b.kvbm, name.substr(kKvbmPrefix.size()));
  }
  return b;
}

}  // namespace icheck::rules
