#include "probe/sections.hpp"

#include "util/text.hpp"

namespace icheck::probe {
namespace {

constexpr std::string_view begin_mark = "@@icheck:begin ";
constexpr std::string_view end_mark = "@@icheck:end ";
constexpr std::string_view meta_mark = "@@icheck:meta ";
constexpr std::string_view done_mark = "@@icheck:done@@";
constexpr std::string_view close_mark = "@@";

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

bool output_complete(std::string_view raw) { return raw.find(done_mark) != std::string_view::npos; }

const Section* ProbeOutput::find(std::string_view name) const {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

ProbeOutput split_sections(std::string_view raw) {
  ProbeOutput out;
  Section* open = nullptr;
  for (auto line : text::lines(raw)) {
    if (line.starts_with("@@icheck:") && line.ends_with(close_mark) && line.size() > 11) {
      auto inner = line.substr(0, line.size() - close_mark.size());
      if (inner.starts_with(begin_mark)) {
        if (open != nullptr) finish_body(*open);  // previous one cut short
        out.sections.push_back(Section{std::string(inner.substr(begin_mark.size())), {}, {}, false, false});
        open = &out.sections.back();
        continue;
      }
      if (inner.starts_with(end_mark) && open != nullptr) {
        finish_body(*open);
        close_section(*open, inner.substr(end_mark.size()));
        open = nullptr;
        continue;
      }
      if (inner.starts_with(meta_mark)) {
        out.meta = inner.substr(meta_mark.size());
        continue;
      }
      if (line == done_mark) {
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
