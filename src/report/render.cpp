#include "report/render.hpp"

namespace icheck::report {

std::string render(const Report& report, const Verdict& verdict, const RenderOptions& options) {
  switch (options.format) {
  case Format::json: return to_pretty_json(to_json(report, verdict));
  case Format::yaml: return to_yaml(to_json(report, verdict));
  case Format::wide: return render_table(report, verdict, true, options.color);
  case Format::table: break;
  }
  return render_table(report, verdict, false, options.color);
}

}  // namespace icheck::report
