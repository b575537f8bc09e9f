#pragma once
// What the image's own UCX library told a fresh python3 process through ctypes (the ucx_lib
// section, probe/ucx/ucx_lib_script.hpp), when the image has no ucx_info. Its version and
// devices text are in ucx_info's formats, so parse_ucx_version / parse_ucx_devices read them
// into the same facts and every UCX rule applies unchanged.

#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

struct UcxLibFacts {
  bool section = false;             // the fragment ran (absent from older or cut output)
  bool python = false;              // python3 is in the image
  bool complete = false;            // the script reached its end marker
  std::string not_run;              // why it did not ask ("ucx_info is in the image")
  std::string skipped;              // the script's own reason (no ctypes, no UCX copy found)
  std::string error;                // what failed (no copy loads, the process died or timed out)
  std::string source;               // "maps 57 python3" | "wheel DIR" | "system DIR"
  std::string libucp;               // the library asked
  std::vector<std::string> copies;  // distinct libucp paths the serving process maps
  std::vector<std::string> unloadable;       // "PATH: dlerror" of copies tried first
  std::string version_text;                  // ucx_info -v's format
  std::string devices_text;                  // ucx_info -d's format
  std::string module_dir;                    // UCX's modules, beside libucs
  std::vector<std::string> modules_loaded;   // module files UCX loaded
  std::vector<std::string> modules_present;  // module files it did not load

  bool answered() const { return complete && error.empty() && skipped.empty(); }
  // "libucp via python3 ctypes: /path/libucp.so.0, mapped by pid 57 python3"
  std::string where() const;
  // A module of that name ("cuda" for libuct_cuda*) is in the module directory.
  bool has_module(std::string_view name) const;
};

// The section's body; found: it ran with python3 (rc not absent); rc: its exit status.
UcxLibFacts parse_ucx_lib(std::string_view body, bool found, int rc, bool timed_out);

}  // namespace icheck::probe
