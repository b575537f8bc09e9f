#pragma once
// Splits the probe script's output into its marked sections. Tolerant: a section cut short
// (output cap, dropped connection) is kept with complete = false; text outside sections is
// ignored (kubectl or shell noise). When the first meta line names a nonce, only markers that
// carry it ("@@icheck-<nonce>:begin ...@@") count: a marker inside a value from the pod is text.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

struct Section {
  std::string name;
  std::string body;
  std::optional<int> rc;   // exit status; nullopt when absent or cut short
  bool absent = false;     // "rc=absent": command not in PATH / file missing
  bool complete = false;   // the end marker was seen
};

struct ProbeOutput {
  std::vector<Section> sections;
  std::string meta;        // "version=1 timeout=gnu nonce=N" (or timeout=tree; N may be empty)
  bool done = false;       // the final marker was seen

  const Section* find(std::string_view name) const;
};

ProbeOutput split_sections(std::string_view raw);

// The raw output holds the script's final marker (cheap: no split), so nothing was lost on the way.
bool output_complete(std::string_view raw);

}  // namespace icheck::probe
