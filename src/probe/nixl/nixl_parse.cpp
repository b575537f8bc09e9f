#include "dynamo/transport_vars.hpp"
#include "probe/nixl/nixl_facts.hpp"
#include "probe/node_probe.hpp"
#include "probe/sections.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cctype>

namespace icheck::probe {
namespace {

void add_unique(std::vector<std::string>& v, std::string s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(std::move(s));
}

void read_env(const Section& s, NixlFacts& f) {
  const std::string plugin_dir = std::string(dynamo::kNixlPluginDirVar) + "=";
  for (auto line : text::lines(s.body)) {
    if (line.starts_with(plugin_dir))
      f.plugin_dir_env = line.substr(plugin_dir.size());
    else if (line.starts_with("LD_PRELOAD=")) f.ld_preload = line.substr(11);
    else if (auto eq = line.find('=');
             eq != std::string_view::npos && dynamo::is_backend_var(line.substr(0, eq)))
      f.backend_env.emplace(std::string(line.substr(0, eq)), std::string(line.substr(eq + 1)));
  }
}

bool same_dir(const NixlPluginDir& a, const NixlPluginDir& b) {
  auto key = [](const NixlPluginDir& d) { return d.real_path.empty() ? d.path : d.real_path; };
  return key(a) == key(b);
}

void keep_dir(NixlFacts& f, NixlPluginDir d) {
  for (const auto& seen : f.plugin_dirs)
    if (same_dir(seen, d)) return;  // /opt/dynamo/nixl is a symlink into the wheel
  f.plugin_dirs.push_back(std::move(d));
}

void read_dirs(const Section& s, NixlFacts& f) {
  std::optional<NixlPluginDir> cur;
  for (auto raw : text::lines(s.body)) {
    auto line = text::trim(raw);
    if (line.empty()) continue;
    if (line.starts_with("! env ")) {
      f.plugin_dir_env_missing = true;
    } else if (line.starts_with("@ ")) {
      if (cur) keep_dir(f, std::move(*cur));
      auto rest = line.substr(2);
      auto sp = rest.find(' ');
      cur = NixlPluginDir{};
      cur->source = std::string(rest.substr(0, sp));
      if (sp != std::string_view::npos) cur->path = std::string(rest.substr(sp + 1));
    } else if (cur && line.starts_with("real ")) {
      cur->real_path = std::string(line.substr(5));
    } else if (cur && line.starts_with("libplugin_")) {
      add_unique(cur->plugins, plugin_backend(line));
    }
  }
  if (cur) keep_dir(f, std::move(*cur));
}

void read_python(const Section& s, NixlFacts& f) {
  auto& p = f.python_import;
  if (s.absent) return;
  p.attempted = true;
  std::string_view last;
  for (auto raw : text::lines(s.body)) {
    auto line = text::trim(raw);
    if (line.starts_with("file ")) p.path = std::string(line.substr(5));
    if (!line.empty()) last = line;
  }
  p.ok = s.rc == 0 && !p.path.empty();
  if (p.ok) return;
  if (s.rc && timed_out_status(*s.rc)) p.error = "timed out";
  else p.error = last.empty() ? "no output" : std::string(last);
}

// "0.10.1" from the first token that starts with a digit and has a dot.
std::optional<std::string> version_token(std::string_view line) {
  for (auto w : text::words(line)) {
    while (!w.empty() && (w.front() == 'v' || w.front() == '=' || w.front() == ':')) w.remove_prefix(1);
    if (!w.empty() && std::isdigit(static_cast<unsigned char>(w.front())) &&
        w.find('.') != std::string_view::npos)
      return std::string(w);
  }
  return std::nullopt;
}

// Wheel names normalise '-' and '_' alike; the CUDA-specific wheel is the one that loads.
int wheel_rank(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  name = text::lower(name);
  if (name == "nixl_cu13" || name == "nixl_cu12") return 2;
  if (name == "nixl") return 1;
  return 0;
}

// `uv pip show nixl nixl-cu13 | grep -E '^(Name|Version)'` (what the Dynamo images write to
// nixl-versions.txt) and a wheel METADATA header are both Name:/Version: pairs.
struct WheelVersions {
  int best_rank = 0;
  void consider(const std::string& name, const std::string& version, const std::string& file,
                NixlFacts& f) {
    int rank = wheel_rank(name);
    if (rank > best_rank && !version.empty()) {
      best_rank = rank;
      f.versions.nixl = version;
      f.versions.nixl_source = file;
      f.versions.nixl_package = name;
    }
  }
  // Returns whether body had any Name:/Version: pair.
  bool read_pairs(const std::string& file, const std::vector<std::string_view>& body, NixlFacts& f) {
    std::string name;
    bool any = false;
    for (auto line : body) {
      auto kv = text::key_value(line);
      if (!kv) continue;
      if (kv->first == "Name") name = kv->second;
      if (kv->first == "Version" && !name.empty()) {
        consider(name, std::string(kv->second), file, f);
        name.clear();
        any = true;
      }
    }
    return any;
  }
};

// Free-form lines ("ucx: 1.20.0"): the first version token on a line naming ucx or nixl.
void read_versions_file(std::string_view file, std::vector<std::string_view> body, NixlFacts& f) {
  auto& v = f.versions;
  for (auto line : body) {
    auto low = text::lower(line);
    auto tok = version_token(line);
    if (!tok) continue;
    if (text::contains(low, "ucx") && !v.ucx) v.ucx = tok;
    else if (text::contains(low, "nixl") && !v.nixl) {
      v.nixl = tok;
      v.nixl_source = std::string(file);
    }
  }
}

void read_versions(const Section& s, NixlFacts& f) {
  std::string file;
  std::vector<std::string_view> body;
  WheelVersions wheels;
  auto flush = [&] {
    if (file.empty()) return;
    if (file.ends_with("METADATA")) {
      wheels.read_pairs(file, body, f);
    } else {
      f.versions.lines.insert(f.versions.lines.end(), body.begin(), body.end());
      if (!wheels.read_pairs(file, body, f)) read_versions_file(file, body, f);
    }
    body.clear();
  };
  // The versions file comes first; a wheel METADATA of a higher-ranked wheel overrides it.
  for (auto line : text::lines(s.body)) {
    if (line.starts_with("==> ") && line.ends_with(" <==")) {
      flush();
      file = std::string(line.substr(4, line.size() - 8));
    } else if (!file.empty() && !line.empty()) {
      body.push_back(line);
    }
  }
  flush();
}

void read_tools(const Section& s, NixlFacts& f) {
  auto& t = f.tools;
  for (auto line : text::lines(s.body)) {
    auto w = text::words(line);
    if (w.size() < 2) continue;
    std::string path(line.substr(line.find(w[1])));
    if (w[0] == "nixlbench") t.nixlbench = NixlBench{path, std::nullopt};
    else if (w[0] == "nixl_test") t.nixl_test = path;
    else if (w[0] == "nixl_example") t.nixl_example = path;
    else if (w[0] == "ucx_perftest") t.ucx_perftest = path;
    else if (w[0] == "ucx_info") t.ucx_info = path;
  }
}

// gflags prints "-asio_address (...)"; an older build has no asio flag at all, but its
// --help still names runtime_type, which is what makes a "no" trustworthy.
void read_bench_help(const Section& s, NixlFacts& f) {
  if (s.absent || !f.tools.nixlbench) return;
  auto low = text::lower(s.body);
  if (text::contains(low, "asio")) f.tools.nixlbench->asio = true;
  else if (text::contains(low, "runtime_type")) f.tools.nixlbench->asio = false;
}

void read_efa(const Section& s, NixlFacts& f) {
  for (auto line : text::lines(s.body))
    if (auto t = text::trim(line); !t.empty()) add_unique(f.efa_devices, std::string(t));
}

void read_ucx_maps(const Section& s, NixlFacts& f) {
  if (s.absent) return;
  for (auto line : text::lines(s.body)) {
    auto w = text::words(line);
    if (w.size() >= 2 && w[0] == "pid") {
      f.ucx_in_process = UcxInProcess{std::string(w[1]), w.size() > 2 ? std::string(w[2]) : "", {}};
    } else if (f.ucx_in_process && w.size() >= 6 && w.back().starts_with("/")) {
      add_unique(f.ucx_in_process->libs, std::string(w.back()));
    }
  }
}

void read_engine_config(const Section& s, NixlFacts& f) {
  if (s.absent) return;
  const std::string_view body = s.body;
  EngineConfigFile e;
  const auto file_at = body.find("\n--- file\n");
  const auto head = text::lines(body.substr(0, file_at));
  for (auto line : head) {
    auto w = text::words(line);
    if (w.size() >= 2 && w[0] == "pid") {
      e.pid = w[1];
      e.comm = w.size() > 2 ? std::string(w[2]) : "";
    } else if (line.starts_with("path ")) {
      e.path = line.substr(5);
    }
  }
  if (e.path.empty()) return;
  if (file_at != std::string_view::npos) e.text = std::string(body.substr(file_at + 10));
  f.engine_config = std::move(e);
}

}  // namespace

std::string plugin_backend(std::string_view file) {
  constexpr std::string_view prefix = "libplugin_";
  if (file.starts_with(prefix))
    file.remove_prefix(prefix.size());
  if (file.ends_with(".so"))
    file.remove_suffix(3);
  return std::string(file);
}

bool NixlPluginDir::has(std::string_view backend) const {
  return std::find(plugins.begin(), plugins.end(), backend) != plugins.end();
}

const NixlPluginDir* NixlFacts::active_plugin_dir() const {
  for (const auto& d : plugin_dirs)
    if (d.source == "env") return &d;
  return plugin_dirs.empty() ? nullptr : &plugin_dirs.front();
}

std::vector<std::string> NixlFacts::ucx_copies() const {
  std::vector<std::string> dirs;
  if (!ucx_in_process) return dirs;
  for (const auto& lib : ucx_in_process->libs) {
    auto slash = lib.rfind('/');
    auto base = std::string_view(lib).substr(slash + 1);
    if (!base.starts_with("libucp") && !base.starts_with("libucs")) continue;
    add_unique(dirs, lib.substr(0, slash));
  }
  return dirs;
}

NixlFacts parse_nixl_probe(std::string_view raw) { return parse_nixl_probe(split_sections(raw)); }

NixlFacts parse_nixl_probe(const ProbeOutput& out) {
  NixlFacts f;
  using Reader = void (*)(const Section&, NixlFacts&);
  const std::pair<std::string_view, Reader> readers[] = {
      {"nixl_env", read_env},
      {"nixl_dirs", read_dirs},
      {"nixl_python", read_python},
      {"nixl_versions", read_versions},
      {"nixl_tools", read_tools},
      {"nixl_bench_help", read_bench_help},
      {"nixl_efa", read_efa},
      {"nixl_ucx_maps", read_ucx_maps},
      {"nixl_engine_config", read_engine_config},
      {"nixl_libs",
       [](const Section& s, NixlFacts& f) { f.plugin_libs = parse_nixl_libs(s.body, !s.absent); }},
      {"nixl_agent",
       [](const Section& s, NixlFacts& f) {
         f.agent = parse_nixl_agent(s.body, !s.absent, s.rc.value_or(-1),
                                    s.rc && (*s.rc == 124 || *s.rc == 137 || *s.rc == 143));
       }},
  };
  for (const auto& [name, read] : readers) {
    if (const auto* s = out.find(name)) {
      f.probed = true;
      read(*s, f);
    }
  }
  return f;
}

}  // namespace icheck::probe
