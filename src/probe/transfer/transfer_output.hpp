#pragma once
// Parsers for what a pairwise transfer test prints (pure). Formats: see
// tests/fixtures/transfer/README.md. Bandwidth is always returned in GB/s (10^9 bytes/s).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icheck::probe {

enum class TransferFailureKind {
  none,
  etcd,                // nixlbench's etcd runtime: barrier timeout, unreachable or bad URI
  no_peer,             // nixlbench's ASIO runtime never reached its peer (connect timeout)
  stalled,             // the peer stopped answering after they connected (ASIO receive timeout)
  connection_refused,  // the listening side was not there (or was not reachable)
  backend_missing,     // NIXL could not load or create the backend (plugin or its UCX missing)
  unreachable,         // UCX: "Destination is unreachable" (no transport reaches the peer)
  verbs,               // an ibv_* call or a memory registration failed
  unsupported_memory,  // UCX: GPU memory type not supported (UCX without CUDA)
  assertion,           // a UCX/NIXL assertion failed
  crash,               // segmentation fault, abort, core dump
  nixl_error,          // NIXL_ERR_* raised
  ucx_error,           // a "UCX  ERROR" line
  usage,               // the tool printed its usage: a flag it does not know (or no CUDA)
};

struct TransferFailure {
  TransferFailureKind kind = TransferFailureKind::none;
  std::string line;  // the first line that shows it, trimmed
};

std::string_view to_string(TransferFailureKind k);

// The first failure a tool's combined output shows, by the most specific kind first.
TransferFailure detect_transfer_failure(std::string_view output);

// The two sides reached each other: a listener accepted (ucx_perftest's "Accepted connection"),
// an initiator printed its results header (ucx_perftest prints it once its side channel is up),
// nixlbench passed its first barrier ("All processes are ready to proceed"), or the NIXL Python
// test's two sides exchanged their metadata ("icheck-nixl: connected").
bool shows_connected(std::string_view output);

// The last `n` non-blank lines, joined by " | ", each trimmed: what an unknown failure said.
std::string last_lines(std::string_view output, std::size_t n);

struct NixlbenchRow {
  long long block_size = 0;  // bytes
  long long batch_size = 0;
  double gb_per_s = 0;       // "B/W (GB/Sec)"
};

struct NixlbenchResult {
  std::vector<NixlbenchRow> rows;
  // Bandwidth at the largest block size (the highest such value when it repeats); nullopt
  // without rows. Large blocks are what KV-cache transfers look like.
  std::optional<double> gb_per_s() const;
  std::optional<double> max_gb_per_s() const;
};

// Both table layouts: the current one (B/W third) and the early 6-column one (B/W (GB/Sec)
// last); lines may carry a "[timestamp] " prefix (CI logs).
NixlbenchResult parse_nixlbench(std::string_view output);

struct PerftestResult {
  bool final_row = false;        // a "Final:" row (or the unlabelled row of -f) was seen
  std::optional<double> mb_per_s;  // overall bandwidth of the Final row, else of the last row
  int rows = 0;
  std::optional<double> gb_per_s() const;  // MB/s / 1000
};

// ucx_perftest's client table in all three layouts (pre-2020, 2020 "typical", current
// percentile), with "[thread N]", "Final:" or unlabelled rows and log lines interleaved.
PerftestResult parse_ucx_perftest(std::string_view output);

// What the NIXL Python transfer script (nixl_python_script.hpp) printed on one or both sides.
struct NixlPythonCorruption {
  std::string side;  // "decode" (checked after the WRITE) or "prefill" (after the READ back)
  std::string op;    // WRITE | READ
  long long block = 0;
  long long offset = 0;  // first bad byte, from the start of the test buffer
  std::string expected, got;
};

struct NixlPythonMemory {
  std::string kind;  // VRAM | DRAM
  std::string via;   // CUDA, cupy, torch, host
  std::optional<int> gpu;
  long long bytes = 0;
  std::string why;  // DRAM: why no GPU memory could be had
};

struct NixlPythonResult {
  bool connected = false;
  std::optional<double> gb_per_s;  // repeated WRITEs of the whole buffer
  long long bytes = 0;             // moved by those WRITEs
  long long block_bytes = 0;
  int blocks = 0;
  std::vector<std::string> verified;               // "decode WRITE", "prefill READ"
  std::optional<NixlPythonCorruption> corruption;  // the first one seen
  std::string skipped;                             // why a side did not run the test
  std::vector<NixlPythonMemory> memory;            // one per side that allocated
  // Connections to the test port, or answers from it, without this run's seed: closed and
  // waited past ("strangers side=decode refused=N first=IP why=...").
  std::string stranger_side;  // the side that refused them: decode | prefill
  int strangers = 0;
  std::string stranger_peer;  // the first one's address
  std::string stranger_why;   // why the first one was refused
  // The decode side checked the WRITE and the prefill side the READ back.
  bool verified_both() const;
};

// Lines "icheck-nixl: KIND key=value ..." (log prefixes allowed); other lines are ignored.
NixlPythonResult parse_nixl_python(std::string_view output);

}  // namespace icheck::probe
