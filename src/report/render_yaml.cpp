// YAML from the JSON document, through yaml-cpp's emitter.
#include "report/render.hpp"

#include <boost/json.hpp>
#include <yaml-cpp/yaml.h>

#include <regex>

namespace icheck::report {
namespace {

// Strings that a YAML reader would take for another type must be quoted.
bool needs_quotes(const std::string& s) {
  static const std::regex other_type(
      R"(^$|^[-+]?(\.?[0-9][0-9_.eE+-]*|0x[0-9a-fA-F]+|\.inf|\.Inf|\.nan|\.NaN)$|^(true|false|yes|no|on|off|null|y|n|True|False|Yes|No|On|Off|Null|NULL|TRUE|FALSE|YES|NO|Y|N|~)$)");
  return std::regex_match(s, other_type);
}

void emit(YAML::Emitter& out, const boost::json::value& v) {
  switch (v.kind()) {
  case boost::json::kind::object:
    out << YAML::BeginMap;
    for (const auto& [key, value] : v.get_object()) {
      out << YAML::Key << std::string(key) << YAML::Value;
      emit(out, value);
    }
    out << YAML::EndMap;
    break;
  case boost::json::kind::array:
    out << YAML::BeginSeq;
    for (const auto& item : v.get_array()) {
      emit(out, item);
    }
    out << YAML::EndSeq;
    break;
  case boost::json::kind::string: {
    const std::string s(v.get_string());
    if (needs_quotes(s)) {
      out << YAML::DoubleQuoted;
    }
    out << s;
    break;
  }
  case boost::json::kind::bool_: out << v.get_bool(); break;
  case boost::json::kind::int64: out << v.get_int64(); break;
  case boost::json::kind::uint64: out << v.get_uint64(); break;
  case boost::json::kind::double_: out << v.get_double(); break;
  case boost::json::kind::null: out << YAML::Null; break;
  }
}

}  // namespace

std::string to_yaml(const boost::json::value& document) {
  YAML::Emitter out;
  out.SetIndent(2);
  out.SetBoolFormat(YAML::TrueFalseBool);
  out.SetSeqFormat(YAML::Block);
  emit(out, document);
  return std::string(out.c_str()) + "\n";
}

}  // namespace icheck::report
