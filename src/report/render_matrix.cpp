#include "report/text_table.hpp"
#include "report/transfer_matrix.hpp"

#include <boost/json/array.hpp>
#include <cstdio>

namespace icheck::report {
namespace {

std::string str(const boost::json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::vector<std::string> strs(const boost::json::object& o, const char* key) {
  std::vector<std::string> out;
  if (const auto* v = o.if_contains(key); v && v->is_array())
    for (const auto& s : v->get_array())
      out.push_back(s.is_string() ? std::string(s.get_string()) : std::string());
  return out;
}

std::string cell_text(const boost::json::value& cell) {
  if (!cell.is_object())
    return "?";
  const auto& c = cell.get_object();
  if (str(c, "state") == "not run")
    return "-";
  const auto* g = c.if_contains("gbps");
  if (!g || !g->is_number())
    return "x";
  char buf[32];
  const double v = g->to_number<double>();
  std::snprintf(buf, sizeof buf, v < 1e6 ? "%.1f" : "%.3g", v);
  return buf;
}

std::string side(const std::string& role, const boost::json::object& m, const char* pod,
                 const char* node, const char* source) {
  const auto n = str(m, node);
  return role + " " + str(m, pod) + (n.empty() ? "" : " (node " + n + ")") + ", NICs from " +
         str(m, source);
}

std::string render_one(const boost::json::object& m) {
  std::string out = "TRANSFER MATRIX  " + str(m, "tool") + ", GB/s: rows " +
                    side("prefill", m, "prefill", "prefillNode", "prefillNicSource") +
                    "; columns " + side("decode", m, "decode", "decodeNode", "decodeNicSource") +
                    "\n";
  const auto rows = strs(m, "prefillNics");
  const auto cols = strs(m, "decodeNics");
  const auto* cells = m.if_contains("cells");
  TextTable table("  ");
  std::vector<Cell> head = {{"PREFILL \\ DECODE", ""}};
  for (const auto& d : cols)
    head.push_back({d, ""});
  table.add_row(std::move(head));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::vector<Cell> row = {{rows[r], ""}};
    for (std::size_t c = 0; c < cols.size(); ++c) {
      const auto i = r * cols.size() + c;
      const bool have = cells && cells->is_array() && i < cells->get_array().size();
      row.push_back({have ? cell_text(cells->get_array()[i]) : "?", ""});
    }
    table.add_row(std::move(row));
  }
  return out + table.render(false) +
         "  legend: a figure = GB/s moved, x = did not connect, - = not run\n";
}

// Nodes by nodes: a cell per tested node pair, '.' where none was planned (the same node on
// both sides, or a pair the cap left out).
std::string render_nodes(const boost::json::object& m) {
  const auto rows = strs(m, "prefillNodes");
  const auto cols = strs(m, "decodeNodes");
  const auto* cells = m.if_contains("cells");
  auto find = [&](const std::string& p, const std::string& d) -> const boost::json::value* {
    if (cells && cells->is_array())
      for (const auto& c : cells->get_array())
        if (c.is_object() && str(c.get_object(), "prefillNode") == p &&
            str(c.get_object(), "decodeNode") == d)
          return &c;
    return nullptr;
  };
  TextTable table("  ");
  std::vector<Cell> head = {{"PREFILL \\ DECODE", ""}};
  for (const auto& d : cols)
    head.push_back({d, ""});
  table.add_row(std::move(head));
  for (const auto& p : rows) {
    std::vector<Cell> row = {{p, ""}};
    for (const auto& d : cols) {
      const auto* c = find(p, d);
      row.push_back({c ? cell_text(*c) : ".", ""});
    }
    table.add_row(std::move(row));
  }
  return "TRANSFER MATRIX  node by node, GB/s: rows prefill nodes, columns decode nodes\n" +
         table.render(false) +
         "  legend: a figure = GB/s moved, x = did not connect, - = not run, . = no pair "
         "planned\n";
}

}  // namespace

std::string render_matrices(const Report& report) {
  std::string out;
  if (!report.transfer_node_matrix.empty())
    out += render_nodes(report.transfer_node_matrix) + "\n";
  for (const auto& t : report.targets) {
    const auto* m = t.facts.if_contains("transferMatrix");
    if (m && m->is_object() && str(m->get_object(), "prefill") == t.name)
      out += render_one(m->get_object()) + "\n";
  }
  return out;
}

namespace {

boost::json::array string_array(const std::vector<std::string>& v) {
  boost::json::array a;
  for (const auto& s : v)
    a.emplace_back(s);
  return a;
}

}  // namespace

boost::json::object matrix_json(const TransferMatrix& m) {
  boost::json::array cells;
  for (const auto& c : m.cells) {
    boost::json::object o{{"prefillNic", c.prefill_nic},
                          {"decodeNic", c.decode_nic},
                          {"state", c.state},
                          {"status", c.status},
                          {"detail", c.detail}};
    if (c.gbps)
      o["gbps"] = *c.gbps;
    cells.emplace_back(std::move(o));
  }
  return {{"prefill", m.prefill},
          {"decode", m.decode},
          {"prefillNode", m.prefill_node},
          {"decodeNode", m.decode_node},
          {"tool", m.tool},
          {"prefillNics", string_array(m.prefill_nics)},
          {"decodeNics", string_array(m.decode_nics)},
          {"prefillNicSource", m.prefill_source},
          {"decodeNicSource", m.decode_source},
          {"cells", std::move(cells)}};
}

boost::json::object node_matrix_json(const NodeTransferMatrix& m) {
  boost::json::array cells;
  for (const auto& c : m.cells) {
    boost::json::object o{{"prefillNode", c.prefill_node},
                          {"decodeNode", c.decode_node},
                          {"prefill", c.prefill},
                          {"decode", c.decode},
                          {"tool", c.tool},
                          {"state", c.state},
                          {"status", c.status},
                          {"detail", c.detail}};
    if (c.gbps)
      o["gbps"] = *c.gbps;
    cells.emplace_back(std::move(o));
  }
  return {{"prefillNodes", string_array(m.prefill_nodes)},
          {"decodeNodes", string_array(m.decode_nodes)},
          {"cells", std::move(cells)}};
}

}  // namespace icheck::report
