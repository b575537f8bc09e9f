#include "rules/transfer/matrix.hpp"

#include "dynamo/transport_vars.hpp"
#include "rules/node/node_view.hpp"

#include <algorithm>
#include <set>

namespace icheck::rules {
namespace {

void add_once(std::vector<std::string>& to, std::string value) {
  if (!value.empty() && std::find(to.begin(), to.end(), value) == to.end())
    to.push_back(std::move(value));
}

// SGLang names devices (mlx5_0); UCX_NET_DEVICES wants a port: its Active one, else port 1.
std::string with_port(const node::NodeView& view, const std::string& device) {
  if (view.devices)
    for (const auto& d : *view.devices)
      for (const auto& p : d.ports)
        if (d.name == device && node::is_active(p))
          return node::port_id(p);
  return device + ":1";
}

bool is_port_flag(const std::string& a) {
  return a == "-p" || a == "--port" || a == "--asio_port";
}

bool pinnable(TestTool t) {
  return t == TestTool::ucx_perftest || t == TestTool::nixl_python || t == TestTool::nixlbench_asio;
}

}  // namespace

int argv_port(const std::vector<std::string>& argv) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i)
    if (is_port_flag(argv[i]))
      return std::atoi(argv[i + 1].c_str());
  return 0;
}

std::vector<std::string> with_port(const std::vector<std::string>& argv, int port) {
  auto out = argv;
  for (std::size_t i = 0; i + 1 < out.size(); ++i)
    if (is_port_flag(out[i])) {
      out[i + 1] = std::to_string(port);
      break;
    }
  return out;
}

EngineNics engine_nics(const probe::NodeFacts& facts, const NodeContext& ctx,
                       const std::vector<std::string>& ib_devices) {
  auto view = node::make_view(facts, ctx);
  EngineNics out;
  if (auto entries = node::net_device_entries(view); !entries.empty()) {
    out.source = std::string(dynamo::kUcxNetDevicesVar);
    for (auto& e : entries)
      add_once(out.nics, std::move(e));
    return out;
  }
  if (!ib_devices.empty()) {
    out.source = "--disaggregation-ib-device";
    for (const auto& d : ib_devices)
      add_once(out.nics, with_port(view, d));
    return out;
  }
  out.source = "Active GPU-facing ports";
  if (!view.devices)
    return out;
  for (const auto& dev : *view.devices) {
    if (!node::nic_role(view, dev).traffic)
      continue;
    for (const auto& p : dev.ports)
      if (node::is_active(p))
        add_once(out.nics, node::port_id(p));
  }
  return out;
}

std::vector<std::string> pin_argv(const std::vector<std::string>& argv, const std::string& device,
                                  int port) {
  auto dashes = std::find(argv.begin(), argv.end(), "--");
  if (dashes == argv.end() || argv.end() - dashes < 4 || dashes[1] != "timeout")
    return {};
  std::vector<std::string> out(argv.begin(), dashes + 3);
  out.insert(out.end(), {"env", std::string(dynamo::kUcxNetDevicesVar) + "=" + device});
  for (auto it = dashes + 3; it != argv.end(); ++it) {
    out.push_back(*it);
    if (is_port_flag(*it) && it + 1 != argv.end()) {
      out.push_back(std::to_string(port));
      ++it;
    }
  }
  return out;
}

std::vector<MatrixCell> plan_matrix_cells(const TransferPlan& pair,
                                          const std::vector<std::string>& prefill_nics,
                                          const std::vector<std::string>& decode_nics) {
  std::vector<MatrixCell> cells;
  const int base = argv_port(pair.listener_argv);
  for (std::size_t r = 0; r < prefill_nics.size(); ++r) {
    for (std::size_t c = 0; c < decode_nics.size(); ++c) {
      MatrixCell cell{r, c, prefill_nics[r], decode_nics[c], 0, pair, {}};
      cell.port = base + static_cast<int>(cells.size());
      if (!pair.runnable)
        cell.not_pinnable = "the pair's test cannot run: " + pair.tool_note;
      else if (!pinnable(pair.tool) || base == 0)
        cell.not_pinnable = std::string(to_string(pair.tool)) +
                            " cannot be pinned to one NIC per side (ucx_perftest, the NIXL "
                            "Python test or nixlbench with ASIO can)";
      if (cell.not_pinnable.empty()) {
        cell.plan.listener_argv = pin_argv(pair.listener_argv, cell.decode_nic, cell.port);
        cell.plan.initiator_argv = pin_argv(pair.initiator_argv, cell.prefill_nic, cell.port);
      }
      cells.push_back(std::move(cell));
    }
  }
  return cells;
}

std::vector<std::vector<std::size_t>> matrix_waves(const std::vector<MatrixCell>& cells,
                                                   std::size_t parallel) {
  struct Wave {
    std::set<std::string> nics;
    std::vector<std::size_t> members;
  };
  std::vector<Wave> waves;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    // On one node (a same-node pair) a NIC may be both a row and a column: names are shared.
    const bool one_node = cells[i].plan.prefill_node == cells[i].plan.decode_node;
    const std::string p = (one_node ? "" : "p:") + cells[i].prefill_nic;
    const std::string d = (one_node ? "" : "d:") + cells[i].decode_nic;
    auto fits = [&](const Wave& w) {
      return w.members.size() < std::max<std::size_t>(parallel, 1) && !w.nics.count(p) &&
             !w.nics.count(d);
    };
    auto it = std::find_if(waves.begin(), waves.end(), fits);
    if (it == waves.end())
      it = waves.insert(waves.end(), Wave{});
    it->nics.insert({p, d});
    it->members.push_back(i);
  }
  std::vector<std::vector<std::size_t>> out;
  for (auto& w : waves)
    out.push_back(std::move(w.members));
  return out;
}

}  // namespace icheck::rules
