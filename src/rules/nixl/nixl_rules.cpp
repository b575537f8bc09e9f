#include "rules/nixl/nixl_rules.hpp"

#include "dynamo/engine_flags.hpp"
#include "dynamo/transport_vars.hpp"
#include "rules/nixl/backend_create.hpp"
#include "rules/nixl/ignored_vars.hpp"
#include "rules/nixl/known_trouble.hpp"
#include "util/join.hpp"

#include <optional>

namespace icheck::rules {
namespace {

using probe::NixlFacts;
using report::Finding;
using report::Layer;
using report::Status;

constexpr std::string_view kPluginDir = dynamo::kNixlPluginDirVar;

Finding nixl_finding(std::string name, Status status, std::string detail, std::string next = {},
                     bool required = true) {
  Finding f;
  f.name = std::move(name);
  f.layer = Layer::nixl;
  f.status = status;
  f.detail = std::move(detail);
  f.next = std::move(next);
  f.required = required;
  return f;
}

std::string where(const probe::NixlPluginDir& d) {
  return d.path + " (" + d.source + ")";
}

// The loader's listing of a plugin of that directory; nullptr when it was not listed.
const probe::PluginLoad* plugin_load(const NixlFacts& f, const probe::NixlPluginDir& dir,
                                     const std::string& backend) {
  const auto& libs = f.plugin_libs;
  if (libs.tool.empty() || libs.dir != dir.path)
    return nullptr;
  auto it = libs.plugins.find(backend);
  return it == libs.plugins.end() ? nullptr : &it->second;
}

// A plugin that is there but whose libraries could not be listed: said, not judged.
std::optional<Finding> plugin_libs_unchecked(const NixlFacts& f, const std::string& backend) {
  const auto* dir = f.active_plugin_dir();
  if (!f.plugin_libs.section || dir == nullptr || !dir->has(backend) ||
      plugin_load(f, *dir, backend))
    return std::nullopt;
  const std::string file = "libplugin_" + backend + ".so";
  return nixl_finding(backend + " libraries", Status::skipped,
                      f.plugin_libs.tool.empty()
                          ? "neither ldd nor the dynamic loader in the image: whether " + file +
                                " loads is not checked"
                          : file + " was not listed by " + f.plugin_libs.tool +
                                (f.plugin_libs.budget_spent
                                     ? " (the listings' shared 10 s ran out before it)"
                                     : " (timed out, or past 32 plugins)"),
                      "ldd " + dir->path + "/" + file + "  # in the container", false);
}

Finding install(const NixlFacts& f) {
  if (f.plugin_dir_env_missing)
    return nixl_finding("install", Status::fail,
                        dynamo::setting(kPluginDir, f.plugin_dir_env) +
                            " does not exist; NIXL loads plugins only from there",
                        "point " + std::string(kPluginDir) +
                            " at the image's plugin directory or unset it");
  if (!f.nixl_found())
    return nixl_finding("install", Status::fail,
                        "NIXL not found: no plugin directory in " + std::string(kPluginDir) +
                            " or the known layouts, and python3 cannot import nixl",
                        "use a Dynamo runtime image (NIXL in /opt/dynamo/nixl or "
                        "/opt/nvidia/nvda_nixl) or install the nixl-cu12/nixl-cu13 wheel");
  const auto* dir = f.active_plugin_dir();
  if (dir && dir->plugins.empty())
    return nixl_finding(
        "install", Status::fail,
        dir->path + " (" + (dir->source == "env" ? std::string(kPluginDir) : dir->source) +
            ") holds no NIXL plugin (libplugin_*.so): NIXL loads its backends "
            "only from there, so it has none",
        dir->source == "env"
            ? "point " + std::string(kPluginDir) + " at the image's plugin directory or unset it"
            : "use an image whose NIXL install has its plugins");
  std::string detail = "NIXL";
  if (f.versions.nixl)
    detail += " " + *f.versions.nixl;
  detail += dir ? " plugins in " + where(*dir) + ": " + join(dir->plugins)
                : " importable from " + f.python_import.path + " (no plugin directory found)";
  if (const int odd = f.plugin_libs.odd_names; dir && odd > 0)
    detail += "; " + std::to_string(odd) + (odd == 1 ? " file" : " files") +
              " there whose name holds a control character or a blank, not read";
  return nixl_finding("install", dir ? Status::ok : Status::warn, detail);
}

Finding backend_plugin(const NixlFacts& f, const std::string& backend, const KvBackends& chosen) {
  std::string name = backend + " plugin";
  const std::string why =
      !chosen.uses(backend)
          ? " (KVBM backend, " + std::string(dynamo::kKvbmBackendPrefix) + backend + ")"
      : !chosen.unknown.empty()
          ? " (the framework's default, assumed: the engine's choice is unknown)"
      : chosen.is_default() ? ""
                            : " (backend set by " + chosen.source + ")";
  const auto* dir = f.active_plugin_dir();
  if (!dir)
    return nixl_finding(name, Status::skipped, "no NIXL plugin directory to look in");
  if (dir->has(backend)) {
    const auto* load = plugin_load(f, *dir, backend);
    if (load != nullptr && !load->missing.empty())
      return nixl_finding(
          name, Status::fail,
          "libplugin_" + backend + ".so in " + dir->path + " cannot load: " + join(load->missing) +
              " not found (" + f.plugin_libs.tool +
              ", in the container's environment): NIXL reports \"unsupported backend " + backend +
              "\" (ai-dynamo/nixl #1561)" + why,
          "put the directory holding " + join(load->missing) +
              " on the loader's path (LD_LIBRARY_PATH) or use an image whose NIXL bundles it; "
              "check with: ldd " +
              dir->path + "/libplugin_" + backend + ".so");
    return nixl_finding(
        name, Status::ok,
        "libplugin_" + backend + ".so in " + dir->path +
            (load != nullptr ? ", its libraries resolve (" + f.plugin_libs.tool + ")" : "") + why);
  }
  return nixl_finding(name, Status::fail,
                      "libplugin_" + backend + ".so missing in " + dir->path +
                          ": NIXL cannot create the " + backend + " backend" + why,
                      "use an image whose NIXL build includes the " + backend + " plugin, or set " +
                          std::string(kPluginDir) + " to a directory that has it");
}

Finding python_import(const NixlFacts& f) {
  const auto& p = f.python_import;
  if (p.ok)
    return nixl_finding("python import", Status::ok, "import nixl: " + p.path, {}, false);
  return nixl_finding("python import", Status::warn, "python3 cannot import nixl: " + p.error,
                      "python3 -c 'import nixl' in the container shows the full error", false);
}

Finding versions(const NixlFacts& f) {
  std::vector<std::string> parts;
  if (f.versions.nixl)
    parts.push_back("NIXL " + *f.versions.nixl);
  if (f.versions.ucx)
    parts.push_back("UCX " + *f.versions.ucx);
  if (!f.ld_preload.empty())
    parts.push_back("LD_PRELOAD=" + f.ld_preload);
  if (parts.empty())
    return nixl_finding("versions", Status::skipped, "the image records no NIXL version", {},
                        false);
  return nixl_finding("versions", Status::ok, join(parts, "; "), {}, false);
}

// Versions with known KV-transfer trouble: NIXL's package and the UCX its versions file records,
// judged by the knowledge rows (known_trouble.hpp); nothing when no row fires.
void known_issues(const NixlFacts& f, std::vector<Finding>& out) {
  for (auto& finding : known_trouble(nixl_version_facts(f)))
    out.push_back(std::move(finding));
}

Finding efa(const NixlFacts& f, const KvBackends& backends) {
  std::string detail = "EFA devices (" + join(f.efa_devices) + ") with " +
                       (backends.via_nixl() ? "the " + backends.joined() + " backend" +
                                                  (backends.names.size() > 1 ? "s" : "")
                                            : "KV moved by " + backends.path());
  if (!backends.over_ucx())
    return nixl_finding("efa", Status::ok, detail, {}, false);
  const auto* dir = f.active_plugin_dir();
  bool has_libfabric = dir && dir->has("LIBFABRIC");
  return nixl_finding("efa", Status::warn,
                      detail + ": UCX on EFA has no GPUDirect on kernels >= 6.8",
                      std::string("use the LIBFABRIC backend") +
                          (has_libfabric ? " (libplugin_LIBFABRIC.so is in the image)"
                                         : " (the image lacks libplugin_LIBFABRIC.so)"));
}

Finding ucx_copies(const NixlFacts& f, const KvBackends& backends) {
  if (!f.ucx_in_process)
    return nixl_finding("ucx copies", Status::skipped,
                        backends.uses("UCX")
                            ? "no process in the container maps UCX (worker not started yet?)"
                            : "no process in the container maps UCX (the " + backends.joined() +
                                  " backend does not load it)",
                        {}, false);
  auto dirs = f.ucx_copies();
  std::string who = f.ucx_in_process->comm + " (pid " + f.ucx_in_process->pid + ")";
  if (dirs.size() > 1)
    return nixl_finding("ucx copies", Status::warn,
                        std::to_string(dirs.size()) + " different UCX libraries in " + who + ": " +
                            join(dirs) + " (known hang, ai-dynamo/nixl#1668)",
                        "load one UCX: LD_PRELOAD the libnixl.so whose UCX the framework uses, "
                        "as the Dynamo TRT-LLM image does");
  return nixl_finding("ucx copies", Status::ok, "one UCX in " + who + ": " + join(dirs), {}, false);
}

std::string tool_list(const NixlFacts& f) {
  std::vector<std::string> parts;
  const auto& t = f.tools;
  if (t.nixlbench) {
    std::string asio = !t.nixlbench->asio   ? ""
                       : *t.nixlbench->asio ? " (ASIO runtime)"
                                            : " (etcd only)";
    parts.push_back(t.nixlbench->path + asio);
  }
  for (const auto* p : {&t.nixl_test, &t.nixl_example, &t.ucx_perftest, &t.ucx_info})
    if (!p->empty())
      parts.push_back(*p);
  if (f.python_import.ok)
    parts.push_back("NIXL's Python API (the transfer test's first choice)");
  return join(parts);
}

// When the framework moves KV without NIXL, the NIXL install is shown, not judged.
void demote_nixl_install(std::vector<Finding>& out, const KvBackends& backends) {
  for (auto& f : out)
    if (f.name == "install" || f.name == "python import" || f.name.ends_with(" plugin") ||
        f.name.ends_with(" backend"))
      report::off_kv_path(f, "not in the KV path: " + backends.path());
}

}  // namespace

std::string no_transfer_tool_next() {
  return "run the pairwise test from a NIXL image on the same nodes: build one with "
         "ai-dynamo/dynamo deploy/pre-deployment/nixl/build_and_deploy.sh (nixlbench), give it "
         "the workers' GPU and rdma resources, then kubectl dynamo-icheck nixl --transfer "
         "--test-image <that image> (prints the kubectl debug commands that run it)";
}

namespace {

// The KV path this pod's engine uses: information, unless the choice is unknown (a multinode
// worker pod without its leader), which no check below can make ok.
Finding kv_transfer(const KvBackends& b) {
  if (b.unknown.empty() && !b.not_understood().empty())
    return nixl_finding("kv transfer", Status::warn,
                        not_understood_text(b, kv_transfer_text(b, "the pod")));
  if (b.unknown.empty())
    return nixl_finding("kv transfer", Status::ok, kv_transfer_text(b, "the pod"), {}, false);
  return nixl_finding("kv transfer", Status::warn,
                      "KV backend unknown: this is a multinode worker's worker pod (ray/sshd; the "
                      "engine's command line and its backend flags are the leader's), and " +
                          b.unknown + "; NIXL plugins are checked for the framework's default (" +
                          b.joined() + ")",
                      b.unknown_next);
}

}  // namespace

std::vector<Finding> judge_nixl(const NixlFacts& f, const NixlContext& ctx) {
  if (!f.probed)
    return {
        nixl_finding("install", Status::skipped, "the NIXL probe did not run (script cut short)")};
  std::vector<Finding> out{kv_transfer(ctx.backends)};
  for (const auto& v : ctx.backends.ignored)
    out.push_back(ignored_var_finding(v.name, Layer::nixl, ctx.backends, v));
  out.push_back(install(f));
  if (f.nixl_found())
    for (const auto& backend : ctx.backends.plugins_needed()) {
      out.push_back(backend_plugin(f, backend, ctx.backends));
      if (auto unchecked = plugin_libs_unchecked(f, backend))
        out.push_back(*unchecked);
      if (auto created = backend_created(f, backend))
        out.push_back(*created);
    }
  if (f.python_import.attempted)
    out.push_back(python_import(f));
  out.push_back(versions(f));
  known_issues(f, out);
  if (!f.efa_devices.empty())
    out.push_back(efa(f, ctx.backends));
  out.push_back(ucx_copies(f, ctx.backends));
  if (auto tools = tool_list(f); !tools.empty())
    out.push_back(nixl_finding("tools", Status::ok, tools, {}, false));
  if (!f.tools.any_transfer_tool() && !f.python_import.ok)
    out.push_back(nixl_finding(
        "transfer", Status::skipped,
        "no NIXL Python API, nixlbench, nixl_test or ucx_perftest in the image: no pairwise "
        "transfer can run here",
        ctx.no_tool_next.empty() ? no_transfer_tool_next() : ctx.no_tool_next, false));
  if (!ctx.backends.via_nixl())
    demote_nixl_install(out, ctx.backends);
  return out;
}

}  // namespace icheck::rules
