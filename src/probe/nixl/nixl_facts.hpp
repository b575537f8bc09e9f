#pragma once
// What the NIXL probe fragment (nixl_script.hpp) found in one pod, typed. Pure data; the rules
// in rules/nixl/nixl_rules.hpp judge it.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "probe/nixl/nixl_agent_facts.hpp"
#include "probe/sections.hpp"

namespace icheck::probe {

struct NixlPluginDir {
  std::string path;
  std::string real_path;             // symlinks resolved ("" when unknown)
  // env | opt-dynamo | nvda-nixl-lib64 | nvda-nixl-lib-arch | nvda-nixl | tensorrt-llm |
  // wheel | usr-local-nixl
  std::string source;
  std::vector<std::string> plugins;  // backend names: "UCX" from libplugin_UCX.so
  bool has(std::string_view backend) const;
};

struct NixlPythonImport {
  bool attempted = false;  // python3 exists and was run
  bool ok = false;
  std::string path;        // nixl.__file__
  std::string error;       // last line of the traceback, or "timed out"
};

struct NixlVersions {
  std::optional<std::string> nixl;  // wheel METADATA, else nixl-versions.txt
  std::optional<std::string> ucx;   // nixl-versions.txt, when it records one
  std::string nixl_source;          // the file the NIXL version came from
  std::string nixl_package;  // the wheel that holds it ("nixl-cu13"); "" from a versions file
  std::vector<std::string> lines;   // nixl-versions.txt as recorded (shown, not judged)
};

struct NixlBench {
  std::string path;
  std::optional<bool> asio;  // --runtime_type ASIO in --help; nullopt when help gave nothing
};

struct NixlTools {
  std::optional<NixlBench> nixlbench;
  std::string nixl_test;      // full path, "" when absent
  std::string nixl_example;
  std::string ucx_perftest;
  std::string ucx_info;
  bool any_transfer_tool() const { return nixlbench || !nixl_test.empty() || !ucx_perftest.empty(); }
};

struct UcxInProcess {
  std::string pid;
  std::string comm;
  std::vector<std::string> libs;  // distinct libucs*/libucp* paths mapped, in first-seen order
};

// TRT-LLM's --extra-engine-args file as a running process in the pod was given it.
struct EngineConfigFile {
  std::string pid;
  std::string comm;
  std::string path;                 // as the process's argv names it
  std::optional<std::string> text;  // nullopt: the file could not be read
};

// Whether each plugin of the directory NIXL loads from can load (the nixl_libs section): the
// dynamic loader's list of its shared libraries, as the container's environment resolves them.
struct PluginLoad {
  std::vector<std::string> missing;  // "libucp.so.0": the loader's "not found" lines
  std::vector<std::string>
      uses;  // "libucp.so.0 => /opt/.../libucp.so.0": the UCX/libfabric it found
};
struct PluginLibs {
  bool section = false;                       // the fragment ran (absent from older or cut output)
  std::string tool;                           // "ldd" | "ld.so"; "" when the image has neither
  std::string dir;                            // the directory listed
  std::map<std::string, PluginLoad> plugins;  // backend ("UCX") -> its listing
  int odd_names = 0;          // files not listed: a name with a control character or a blank
  bool odd_dir = false;       // the directory's own name was not plain: nothing listed
  bool budget_spent = false;  // the listings' shared time ran out: later plugins not listed
};

// "libplugin_UCX.so" -> "UCX"
std::string plugin_backend(std::string_view file);

// The nixl_libs section's body; present: the section ran and the image had a loader.
PluginLibs parse_nixl_libs(std::string_view body, bool present);

struct NixlFacts {
  bool probed = false;                 // the fragment's sections were seen at all
  std::string plugin_dir_env;          // NIXL_PLUGIN_DIR as set in the container ("" unset)
  bool plugin_dir_env_missing = false; // set, but the directory does not exist
  std::string ld_preload;
  // The container's variables that choose a backend: TRTLLM_NIXL_KVCACHE_BACKEND,
  // SGLANG_DISAGGREGATION_NIXL_BACKEND, DYN_KVBM_NIXL_BACKEND_*, KV_TRANSFER_CONFIG.
  std::map<std::string, std::string> backend_env;
  std::vector<NixlPluginDir> plugin_dirs;  // in probe order, duplicates (same real path) dropped
  NixlPythonImport python_import;
  NixlVersions versions;
  NixlTools tools;
  std::vector<std::string> efa_devices;
  std::optional<UcxInProcess> ucx_in_process;  // nullopt: no process maps UCX, or no grep
  std::optional<EngineConfigFile> engine_config;  // nullopt: no process has --extra-engine-args
  PluginLibs plugin_libs;
  NixlAgentProbe agent;  // the image's own nixl._api asked in a fresh python3 (nixl_agent_script.hpp)

  bool nixl_found() const { return !plugin_dirs.empty() || python_import.ok; }
  // The directory NIXL loads plugins from: NIXL_PLUGIN_DIR first, else the first one found.
  const NixlPluginDir* active_plugin_dir() const;
  // Distinct UCX copies (libucp / libucs) mapped into the serving process.
  std::vector<std::string> ucx_copies() const;
};

NixlFacts parse_nixl_probe(std::string_view raw);
NixlFacts parse_nixl_probe(const ProbeOutput& out);  // output already split

}  // namespace icheck::probe
