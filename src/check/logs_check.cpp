#include "check/logs_check.hpp"

#include "knowledge/load.hpp"
#include "probe/logs/log_lines.hpp"
#include "probe/logs/pod_events.hpp"
#include "rules/logs/signatures.hpp"
#include "util/read_file.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace icheck::check {
namespace {

namespace fs = std::filesystem;

bool looks_binary(const std::string& text) {
  return text.substr(0, 4096).find('\0') != std::string::npos;
}

// What -o json says was read, and the one line a file without a hit shows instead of an ok.
std::string lines_read(const boost::json::object& facts) {
  std::size_t lines = 0;
  for (const char* c : {"current", "previous"}) {
    if (const auto* log = facts.if_contains(c))
      lines += log->as_object().at("lines").to_number<std::size_t>();
  }
  if (const auto* events = facts.if_contains("events"))
    return std::to_string(events->to_number<std::size_t>()) + " events read";
  return std::to_string(lines) + " lines read";
}

std::vector<fs::path> files_below(const fs::path& dir, std::vector<std::string>& errors) {
  std::vector<fs::path> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && files.size() < kMaxSavedLogs)
      files.push_back(it->path());
  }
  if (ec)
    errors.push_back(dir.string() + ": " + ec.message());
  if (files.size() == kMaxSavedLogs)
    errors.push_back(dir.string() + ": only the first " + std::to_string(kMaxSavedLogs) +
                     " files were read");
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

report::Target judge_saved_log(const std::string& name, const std::string& text) {
  report::Target t;
  t.name = name;
  t.kind = report::TargetKind::log;
  t.node = name;
  rules::WorkerEvidence evidence;
  const auto start = text.find_first_not_of(" \t\r\n");
  auto events = start != std::string::npos && text[start] == '{'
                    ? probe::parse_events_json(text)
                    : Expected<std::vector<probe::PodEvent>>(Error{"not JSON"});
  if (events) {
    evidence.events = std::move(*events);
    evidence.events_read = true;
    t.summary = "events list";
  } else {
    const bool previous = fs::path(name).filename().string().find("previous") != std::string::npos;
    evidence.logs.push_back(
        {previous ? "previous" : "current", probe::parse_log(text, true), false});
    t.summary = previous ? "log of a previous container" : "log";
  }
  t.findings = rules::signature_findings(knowledge::signature_rows(), evidence);
  t.facts["logs"] = rules::evidence_facts(evidence, t.findings);
  if (t.findings.empty())
    t.summary += ": " + lines_read(t.facts["logs"].as_object()) + ", no known signature";
  return t;
}

Expected<report::Report> check_logs(const std::string& path, std::istream& in) {
  report::Report r;
  r.mode = "logs";
  std::vector<std::pair<std::string, std::string>> texts;  // name, text
  if (path == "-") {
    std::string text;
    char buffer[65536];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
      text.append(buffer, static_cast<std::size_t>(in.gcount()));
      if (text.size() > kMaxSavedLog)
        return Error{"stdin: more than the 64 MiB a saved log may be"};
    }
    texts.emplace_back("-", std::move(text));
  } else {
    std::error_code ec;
    const bool dir = fs::is_directory(path, ec);
    const auto files = dir ? files_below(path, r.errors) : std::vector<fs::path>{fs::path(path)};
    for (const auto& file : files) {
      auto text = read_regular_file(file, kMaxSavedLog, "saved log");
      const auto name = dir ? fs::relative(file, path, ec).string() : file.string();
      if (!text)
        r.errors.push_back(name + ": " + text.error().message);
      else if (!looks_binary(*text))
        texts.emplace_back(name, std::move(*text));
    }
  }
  for (const auto& [name, text] : texts)
    r.targets.push_back(judge_saved_log(name, text));
  if (r.targets.empty())
    return Error{r.errors.empty() ? path + ": no text file to read" : r.errors.front()};
  r.header.push_back(std::to_string(r.targets.size()) + " saved log" +
                     (r.targets.size() == 1 ? "" : "s"));
  r.limitations.push_back(
      "a saved log shows only what it says: no known signature is not proof "
      "that the transport works (kubectl dynamo-icheck node and nixl probe it)");
  return r;
}

}  // namespace icheck::check
