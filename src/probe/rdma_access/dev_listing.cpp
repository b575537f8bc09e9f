#include "probe/parsers.hpp"
#include "util/text.hpp"

namespace icheck::probe {
namespace {

// "crw-rw-rw-", "drwxr-xr-x", "crw-rw-rw-." (SELinux): an `ls -l` line.
bool is_mode(std::string_view w) {
  if (w.size() < 10) return false;
  if (std::string_view("bcdlps-").find(w[0]) == std::string_view::npos) return false;
  for (std::size_t i = 1; i < 10; ++i)
    if (std::string_view("rwxsStT-").find(w[i]) == std::string_view::npos) return false;
  return true;
}

void add(std::vector<std::string>& names, std::string_view name) {
  while (name.size() > 1 && name.back() == '/') name.remove_suffix(1);
  if (auto slash = name.rfind('/'); slash != std::string_view::npos) name = name.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") return;
  names.emplace_back(name);
}

}  // namespace

std::vector<std::string> parse_dev_listing(std::string_view out) {
  std::vector<std::string> names;
  for (auto raw : text::lines(out)) {
    auto w = text::words(raw);
    if (w.empty() || w[0] == "total" || w[0] == "#") continue;
    std::size_t mode_at = !w.empty() && is_mode(w[0]) ? 0 : (w.size() > 1 && is_mode(w[1]) ? 1 : 99);
    if (mode_at != 99) {
      // name is the last field, or the one before "->" for a symlink
      std::size_t last = w.size() - 1;
      if (w.size() >= 3 && w[w.size() - 2] == "->") last = w.size() - 3;
      if (last > mode_at + 5) add(names, w[last]);
      continue;
    }
    // Plain `ls`: names only. Prompts and command echoes are not names.
    auto first = w[0];
    if (first.starts_with("$") || first.ends_with("$") || first.ends_with("#") ||
        first.ends_with(":") || first == "ls" || first == "ll" || text::contains(raw, "No such file"))
      continue;
    for (auto name : w) add(names, name);
  }
  return names;
}

}  // namespace icheck::probe
