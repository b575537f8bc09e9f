#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

std::optional<LimitValue> limit_value(std::string_view s, std::uint64_t unit) {
  if (s == "unlimited") return LimitValue{.unlimited = true, .bytes = 0};
  if (auto v = text::to_int(s); v && *v >= 0)
    return LimitValue{.unlimited = false, .bytes = static_cast<std::uint64_t>(*v) * unit};
  return std::nullopt;
}

}  // namespace

Memlock parse_proc_limits(std::string_view out) {
  // "Max locked memory         8388608              8388608              bytes"
  // The limit name has spaces, so strip the name rather than splitting the whole line.
  Memlock m;
  constexpr std::string_view name = "Max locked memory";
  for (auto raw : text::lines(out)) {
    auto line = text::trim(raw);
    if (!line.starts_with(name)) continue;
    auto w = text::words(line.substr(name.size()));
    if (w.size() >= 2) {
      m.soft = limit_value(w[0], 1);
      m.hard = limit_value(w[1], 1);
    }
  }
  return m;
}

std::optional<LimitValue> parse_ulimit_l(std::string_view out) {
  // `ulimit -l`: "unlimited" or KiB; `ulimit -a`: "max locked memory (kbytes, -l) 8192".
  for (auto raw : text::lines(out)) {
    auto line = text::trim(raw);
    if (text::contains(line, "-l)")) {
      auto w = text::words(line);
      if (!w.empty()) return limit_value(w.back(), 1024);
    }
    if (auto v = limit_value(line, 1024)) return v;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> parse_cap_eff(std::string_view proc_status) {
  for (auto raw : text::lines(proc_status)) {
    auto kv = text::key_value(raw);
    if (kv && kv->first == "CapEff")
      if (auto v = text::to_hex(kv->second)) return *v;
  }
  return std::nullopt;
}

bool has_cap_ipc_lock(std::uint64_t cap_eff) { return (cap_eff >> 14) & 1U; }

}  // namespace icheck::probe
