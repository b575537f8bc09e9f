#pragma once
#include "report/model.hpp"

#include <boost/json/value.hpp>

#include <string>

namespace icheck::report {

enum class Format { table, wide, json, yaml };

struct RenderOptions {
  Format format = Format::table;
  bool color = false;
  bool no_headers = false;      // tables without their column headings (kubectl's --no-headers)
  bool all_namespaces = false;  // -A: tables lead with a NAMESPACE column
  // The terminal's columns: table rows longer than it get their DETAIL cut with "…" (the whole
  // text stays in -o wide, json and yaml); 0 never cuts (a pipe, a file).
  std::size_t width = 0;
};

// The versioned document of DESIGN.md (apiVersion dynamo-icheck/v1, kind Report).
boost::json::value to_json(const Report& report, const Verdict& verdict);

std::string render(const Report& report, const Verdict& verdict, const RenderOptions& options);

// The pieces render() dispatches to, exposed for tests.
std::string render_table(const Report& report, const Verdict& verdict,
                         const RenderOptions& options);
std::string to_pretty_json(const boost::json::value& document);
std::string to_yaml(const boost::json::value& document);

}  // namespace icheck::report
