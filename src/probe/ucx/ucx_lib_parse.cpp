#include "probe/ucx/ucx_lib_facts.hpp"
#include "util/text.hpp"

#include <algorithm>

namespace icheck::probe {
namespace {

std::string_view after(std::string_view line, std::string_view prefix) {
  return text::trim(line.substr(prefix.size()));
}

// "source ..." and the other lines before the first "==> part <==".
void read_header(std::string_view line, UcxLibFacts& f) {
  const std::pair<std::string_view, std::string*> single[] = {
      {"source ", &f.source}, {"libucp ", &f.libucp},    {"skipped: ", &f.skipped},
      {"error: ", &f.error},  {"not run: ", &f.not_run},
  };
  for (const auto& [prefix, field] : single)
    if (line.starts_with(prefix)) {
      *field = after(line, prefix);
      return;
    }
  if (line.starts_with("copies "))
    for (auto w : text::words(after(line, "copies ")))
      f.copies.emplace_back(w);
  else if (line.starts_with("unloadable "))
    f.unloadable.emplace_back(after(line, "unloadable "));
}

void read_module(std::string_view line, UcxLibFacts& f) {
  if (line.starts_with("dir "))
    f.module_dir = after(line, "dir ");
  else if (line.starts_with("loaded "))
    f.modules_loaded.emplace_back(after(line, "loaded "));
  else if (line.starts_with("present "))
    f.modules_present.emplace_back(after(line, "present "));
}

}  // namespace

std::string UcxLibFacts::where() const {
  std::string out = "libucp via python3 ctypes: " + libucp;
  if (source.starts_with("maps ")) {
    auto w = text::words(source);
    out += ", mapped by pid " + (w.size() > 1 ? std::string(w[1]) : std::string("?"));
    if (w.size() > 2)
      out += " " + std::string(w[2]);
  } else if (source.starts_with("wheel ")) {
    out += ", the NIXL wheel's copy (no process maps UCX)";
  } else if (source.starts_with("system ")) {
    out += " (no process maps UCX, no NIXL wheel copy)";
  }
  return out;
}

bool UcxLibFacts::has_module(std::string_view name) const {
  const std::string prefix = "libuct_" + std::string(name);
  auto named = [&](const std::string& file) {
    return file.starts_with(prefix) && file.size() > prefix.size() &&
           (file[prefix.size()] == '.' || file[prefix.size()] == '-');
  };
  return std::any_of(modules_loaded.begin(), modules_loaded.end(), named) ||
         std::any_of(modules_present.begin(), modules_present.end(), named);
}

UcxLibFacts parse_ucx_lib(std::string_view body, bool found, int rc, bool timed_out) {
  UcxLibFacts f;
  f.section = true;
  f.python = found;
  if (!found)
    return f;
  std::string part;
  for (auto raw : text::lines(body)) {
    auto line = text::trim(raw);
    if (line.starts_with("==> ") && line.ends_with(" <==")) {
      part = line.substr(4, line.size() - 8);
      f.complete = part == "end";
      continue;
    }
    if (part.empty())
      read_header(line, f);
    else if (part == "version")
      f.version_text.append(raw).append("\n");
    else if (part == "devices")
      f.devices_text.append(raw).append("\n");
    else if (part == "modules")
      read_module(line, f);
  }
  if (!f.not_run.empty() || !f.skipped.empty() || !f.error.empty())
    return f;
  if (timed_out)
    f.error = "python3 asking libucp timed out";
  else if (!f.complete)
    f.error = "python3 asking libucp exited " + std::to_string(rc) + " before it finished" +
              (f.libucp.empty() ? "" : " (" + f.libucp + ")");
  return f;
}

}  // namespace icheck::probe
