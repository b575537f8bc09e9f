#include "probe/sections.hpp"

#include "util/text.hpp"

#include <optional>
#include <string>

namespace icheck::probe {
namespace {

constexpr std::string_view plain_mark = "@@icheck:";
constexpr std::string_view meta_mark = "@@icheck:meta ";
constexpr std::string_view close_mark = "@@";

// The markers' prefix: "@@icheck-<nonce>:" when the meta line names a nonce, else "@@icheck:".
std::string marker_prefix(std::string_view meta) {
  constexpr std::string_view key = "nonce=";
  for (auto word : text::words(meta)) {
    if (word.starts_with(key) && word.size() > key.size())
      return "@@icheck-" + std::string(word.substr(key.size())) + ":";
  }
  return std::string(plain_mark);
}

// The meta line, when `line` is one.
std::optional<std::string_view> meta_of(std::string_view line) {
  if (line.starts_with(meta_mark) && line.ends_with(close_mark) &&
      line.size() >= meta_mark.size() + close_mark.size())
    return line.substr(meta_mark.size(), line.size() - meta_mark.size() - close_mark.size());
  return std::nullopt;
}

// "<name> rc=<n>" or "<name> rc=absent"
void close_section(Section& s, std::string_view tail) {
  s.complete = true;
  auto at = tail.rfind(" rc=");
  if (at == std::string_view::npos) return;
  auto rc = tail.substr(at + 4);
  if (rc == "absent") s.absent = true;
  else if (auto n = text::to_int(rc)) s.rc = static_cast<int>(*n);
}

// The script prints "\n" before each end marker so a body without a final newline still
// ends cleanly; that one newline is not part of the body.
void finish_body(Section& s) {
  if (s.body.ends_with('\n')) s.body.pop_back();
}

}  // namespace

bool output_complete(std::string_view raw) {
  std::string prefix(plain_mark);
  if (const auto at = raw.find(meta_mark); at != std::string_view::npos) {
    const auto line = raw.substr(at, raw.find('\n', at) - at);
    if (const auto meta = meta_of(line))
      prefix = marker_prefix(*meta);
  }
  return raw.find(prefix + "done" + std::string(close_mark)) != std::string_view::npos;
}

const Section* ProbeOutput::find(std::string_view name) const {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

// The meta line counts only before any section: it comes first, before anything read from
// the pod, so a value that imitates it cannot change the nonce.
ProbeOutput split_sections(std::string_view raw) {
  ProbeOutput out;
  Section* open = nullptr;
  std::string prefix(plain_mark);
  bool meta_seen = false;
  for (auto line : text::lines(raw)) {
    if (!meta_seen && out.sections.empty()) {
      if (const auto meta = meta_of(line)) {
        out.meta = *meta;
        prefix = marker_prefix(*meta);
        meta_seen = true;
        continue;
      }
    }
    if (line.starts_with(prefix) && line.ends_with(close_mark) &&
        line.size() > prefix.size() + close_mark.size()) {
      auto inner = line.substr(prefix.size(), line.size() - prefix.size() - close_mark.size());
      if (inner.starts_with("begin ")) {
        if (open != nullptr) finish_body(*open);  // previous one cut short
        out.sections.push_back(Section{std::string(inner.substr(6)), {}, {}, false, false});
        open = &out.sections.back();
        continue;
      }
      if (inner.starts_with("end ") && open != nullptr) {
        finish_body(*open);
        close_section(*open, inner.substr(4));
        open = nullptr;
        continue;
      }
      if (inner == "done") {
        out.done = true;
        continue;
      }
    }
    if (open != nullptr) open->body.append(line).push_back('\n');
  }
  if (open != nullptr) finish_body(*open);
  return out;
}

}  // namespace icheck::probe
