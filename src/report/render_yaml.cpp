// YAML from the JSON document, through yaml-cpp's emitter.
#include "report/render.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <set>
#include <string_view>
#include <yaml-cpp/yaml.h>

namespace icheck::report {
namespace {

// Strings that a YAML reader would take for another type must be quoted: empty, a number (sign,
// digits, '.', '_', exponent; hex; .inf/.nan) or a YAML 1.1 boolean or null word.
bool needs_quotes(std::string_view s) {
  static const std::set<std::string_view> words{
      "true", "false", "yes", "no",   "on",   "off",  "null",  "y",   "n",  "True", "False", "Yes",
      "No",   "On",    "Off", "Null", "NULL", "TRUE", "FALSE", "YES", "NO", "Y",    "N",     "~"};
  if (s.empty() || words.contains(s))
    return true;
  auto digit = [](char ch) { return ch >= '0' && ch <= '9'; };
  auto t = s;
  if (t.front() == '-' || t.front() == '+')
    t.remove_prefix(1);
  if (t == ".inf" || t == ".Inf" || t == ".nan" || t == ".NaN")
    return true;
  if (t.size() > 2 && t.starts_with("0x") && std::all_of(t.begin() + 2, t.end(), [&](char ch) {
        return digit(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
      }))
    return true;
  if (!t.empty() && t.front() == '.')
    t.remove_prefix(1);
  return !t.empty() && digit(t.front()) && std::all_of(t.begin() + 1, t.end(), [&](char ch) {
    return digit(ch) || std::string_view("_.eE+-").find(ch) != std::string_view::npos;
  });
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
