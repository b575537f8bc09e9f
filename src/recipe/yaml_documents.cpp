#include "recipe/yaml_documents.hpp"

#include <optional>
#include <sstream>
#include <string>
#include <yaml-cpp/eventhandler.h>

namespace icheck::recipe::detail {

namespace {

// Records where a document starts; every other event is ignored.
class DocumentStart : public YAML::EventHandler {
public:
  std::optional<YAML::Mark> mark;

  void OnDocumentStart(const YAML::Mark& m) override { mark = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Where the reader stops making progress (a document starting where the previous one did), if
// it does; a pass over the events only, no nodes built.
std::optional<YAML::Mark> stuck_at(const std::string& text) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  std::optional<int> previous_start;
  for (;;) {
    DocumentStart start;
    if (!parser.HandleNextDocument(start)) {
      return std::nullopt;
    }
    if (!start.mark || (previous_start && start.mark->pos <= *previous_start)) {
      return start.mark.value_or(YAML::Mark());
    }
    previous_start = start.mark->pos;
  }
}

}  // namespace

Expected<std::vector<YAML::Node>> load_documents(std::string_view text) {
  const std::string owned(text);
  if (const auto stuck = stuck_at(owned)) {
    return Error{std::to_string(stuck->line + 1) + ":" + std::to_string(stuck->column + 1) +
                 ": the YAML reader cannot get past this point (a token no document can start "
                 "with, such as a stray ','); the file is not read"};
  }
  return YAML::LoadAll(owned);
}

}  // namespace icheck::recipe::detail
