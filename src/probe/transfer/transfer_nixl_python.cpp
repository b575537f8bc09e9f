#include "probe/transfer/transfer_numbers.hpp"
#include "probe/transfer/transfer_output.hpp"

#include <algorithm>
#include <map>

namespace icheck::probe {
namespace {

using transfer_detail::number;
using transfer_detail::strip_stamp;

constexpr std::string_view kTag = "icheck-nixl:";

// "key=value key=value why=the rest of the line": `why` takes everything after it.
std::map<std::string, std::string, std::less<>> fields(std::string_view rest) {
  std::map<std::string, std::string, std::less<>> out;
  while (!rest.empty()) {
    rest = text::trim(rest);
    auto eq = rest.find('=');
    auto blank = rest.find(' ');
    if (eq == std::string_view::npos || (blank != std::string_view::npos && blank < eq)) {
      rest = blank == std::string_view::npos ? std::string_view() : rest.substr(blank + 1);
      continue;
    }
    auto key = rest.substr(0, eq);
    auto value = rest.substr(eq + 1);
    auto end = key == "why" ? std::string_view::npos : value.find(' ');
    out[std::string(key)] = std::string(value.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : value.substr(end);
  }
  return out;
}

std::string field(const std::map<std::string, std::string, std::less<>>& f, std::string_view key) {
  auto it = f.find(key);
  return it == f.end() ? std::string() : it->second;
}

long long count(const std::map<std::string, std::string, std::less<>>& f, std::string_view key) {
  return text::to_int(field(f, key)).value_or(0);
}

void corrupted(NixlPythonResult& r, std::string_view rest) {
  if (r.corruption)
    return;
  auto f = fields(rest);
  r.corruption = NixlPythonCorruption{field(f, "side"),   field(f, "op"),       count(f, "block"),
                                      count(f, "offset"), field(f, "expected"), field(f, "got")};
}

void memory(NixlPythonResult& r, std::string_view rest) {
  auto f = fields(rest);
  NixlPythonMemory m{field(f, "kind"), field(f, "via"), std::nullopt, count(f, "bytes"),
                     field(f, "why")};
  if (auto gpu = text::to_int(field(f, "gpu")); gpu && *gpu >= 0 && *gpu < 4096)
    m.gpu = static_cast<int>(*gpu);
  r.memory.push_back(std::move(m));
}

void result(NixlPythonResult& r, std::string_view rest) {
  auto f = fields(rest);
  r.gb_per_s = number(field(f, "gbps"));
  r.bytes = count(f, "bytes");
}

void verified(NixlPythonResult& r, std::string_view rest) {
  auto f = fields(rest);
  r.verified.push_back(field(f, "side") + " " + field(f, "op"));
  r.blocks = static_cast<int>(std::clamp(count(f, "blocks"), 0LL, 1LL << 20));
  r.block_bytes = count(f, "block_bytes");
}

void strangers(NixlPythonResult& r, std::string_view rest) {
  auto f = fields(rest);
  const auto n = static_cast<int>(std::clamp(count(f, "refused"), 0LL, 1LL << 30));
  if (n <= r.strangers)
    return;
  r.strangers = n;
  r.stranger_side = field(f, "side");
  r.stranger_peer = field(f, "first").substr(0, 64);
  r.stranger_why = field(f, "why").substr(0, 160);
}

}  // namespace

bool NixlPythonResult::verified_both() const {
  auto has = [&](const char* s) {
    return std::find(verified.begin(), verified.end(), s) != verified.end();
  };
  return has("decode WRITE") && has("prefill READ");
}

NixlPythonResult parse_nixl_python(std::string_view output) {
  NixlPythonResult r;
  for (auto raw : text::lines(output)) {
    auto line = strip_stamp(raw);
    auto at = line.find(kTag);
    if (at == std::string_view::npos)
      continue;
    auto rest = text::trim(line.substr(at + kTag.size()));
    auto kind = rest.substr(0, rest.find(' '));
    auto args = kind.size() < rest.size() ? rest.substr(kind.size() + 1) : std::string_view();
    if (kind == "connected")
      r.connected = true;
    else if (kind == "result")
      result(r, args);
    else if (kind == "verified")
      verified(r, args);
    else if (kind == "corrupted")
      corrupted(r, args);
    else if (kind == "memory")
      memory(r, args);
    else if (kind == "strangers")
      strangers(r, args);
    else if (kind == "skipped:" && r.skipped.empty())
      r.skipped = std::string(text::trim(args).substr(0, 300));
  }
  return r;
}

}  // namespace icheck::probe
