#include "report/render.hpp"

#include "report/shown.hpp"

namespace icheck::report {

std::string render(const Report& raw, const Verdict& raw_verdict, const RenderOptions& options) {
  const bool document = options.format == Format::json || options.format == Format::yaml;
  const Medium medium = document ? Medium::document : Medium::terminal;
  const Report report = shown_report(raw, medium);
  const Verdict verdict = shown_verdict(raw_verdict, medium);
  switch (options.format) {
  case Format::json:
    return to_pretty_json(to_json(report, verdict));
  case Format::yaml:
    return to_yaml(to_json(report, verdict));
  case Format::wide:
    return render_table(report, verdict, options);
  case Format::table:
    break;
  }
  return render_table(report, verdict, options);
}

} // namespace icheck::report
