// kubectl-style indented JSON (Boost.JSON only serializes compactly).
#include "report/render.hpp"

#include <boost/json.hpp>

namespace icheck::report {
namespace {

void write(std::string& out, const boost::json::value& v, int depth) {
  const std::string pad(static_cast<std::size_t>(depth + 1) * 2, ' ');
  const std::string close_pad(static_cast<std::size_t>(depth) * 2, ' ');
  if (v.is_object() && !v.get_object().empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& [key, value] : v.get_object()) {
      out += (first ? "" : ",\n") + pad + boost::json::serialize(boost::json::string(key)) + ": ";
      write(out, value, depth + 1);
      first = false;
    }
    out += "\n" + close_pad + "}";
  } else if (v.is_array() && !v.get_array().empty()) {
    out += "[\n";
    bool first = true;
    for (const auto& item : v.get_array()) {
      out += (first ? "" : ",\n") + pad;
      write(out, item, depth + 1);
      first = false;
    }
    out += "\n" + close_pad + "]";
  } else {
    out += boost::json::serialize(v);
  }
}

}  // namespace

std::string to_pretty_json(const boost::json::value& document) {
  std::string out;
  write(out, document, 0);
  return out + "\n";
}

}  // namespace icheck::report
