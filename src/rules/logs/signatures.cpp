#include "rules/logs/signatures.hpp"

#include "knowledge/evaluate.hpp"
#include "knowledge/facts.hpp"
#include "knowledge/finding.hpp"

#include <algorithm>
#include <map>

namespace icheck::rules {
namespace {

struct Fired {
  knowledge::Hit hit;
  long more = 0;              // further lines or events of the same row
  std::string evidence;       // where the shown one came from, e.g. "log (current container, T)"
  std::string shown;          // the line or message, cut around the match
  std::string what = "line";  // "line" | "event"
};

bool is_text_fact(const std::string& fact) {
  return fact == "log.line" || fact == "event.message";
}

// Where the row's text condition matched (RE2's leftmost match), to cut the shown line around it.
std::string shown_match(const knowledge::Row& row, const std::string& text,
                        const std::string& fact) {
  for (const auto& c : row.when) {
    if (c.fact != fact || !is_text_fact(c.fact))
      continue;
    if (auto span = knowledge::match_span(c, text))
      return shown_around(text, span->at, span->length);
  }
  return shown_around(text, 0, 0);
}

void take(std::map<std::string, Fired>& fired, std::vector<std::string>& order, knowledge::Hit hit,
          long weight, std::string evidence, std::string shown, std::string what) {
  const auto& id = hit.row->id;
  auto it = fired.find(id);
  if (it == fired.end()) {
    order.push_back(id);
    fired.emplace(id, Fired{std::move(hit), weight - 1, std::move(evidence), std::move(shown),
                            std::move(what)});
    return;
  }
  // The latest line says most about now: it replaces the shown one; earlier ones are counted.
  it->second.more += weight;
  it->second.evidence = std::move(evidence);
  it->second.shown = std::move(shown);
  it->second.hit = std::move(hit);
}

}  // namespace

std::string engine_words(const std::string& line) {
  // Where an engine starts echoing a request, the rest of the line is the user's text:
  // vLLM's request logger ("Received request cmpl-…: prompt: '…'", vllm/entrypoints/logger.py;
  // newer "Request … details: prompt: …"), SGLang's ("Receive: obj=GenerateReqInput(text='…'",
  // sglang/srt/managers/tokenizer_manager.py) and any "prompt"/"messages" field printed after it.
  static constexpr std::string_view markers[] = {
      "Received request ", "Receive: obj=", " details: prompt", "prompt: ",    "prompt=",
      "'prompt':",         "\"prompt\":",   "\"messages\":",    "'messages':", "messages=["};
  std::size_t cut = line.size();
  for (auto m : markers)
    if (auto at = line.find(m); at != std::string::npos)
      cut = std::min(cut, at);
  return line.substr(0, cut);
}

namespace {

std::string with_time(std::string where, const std::string& time) {
  return time.empty() ? where : where + ", " + time;
}

std::string plural(long n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::string shown_around(const std::string& line, std::size_t at, std::size_t length,
                         std::size_t most) {
  if (line.size() <= most)
    return line;
  const std::size_t room = most > length ? most - length : 0;
  std::size_t begin = at > room / 3 ? at - room / 3 : 0;
  std::size_t end = std::min(line.size(), begin + most);
  if (end == line.size() && end - begin < most)
    begin = line.size() > most ? line.size() - most : 0;
  auto continuation = [&](std::size_t i) {
    return i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80;
  };
  while (continuation(begin))
    ++begin;
  while (end < line.size() && continuation(end))
    --end;
  return (begin > 0 ? "…" : "") + line.substr(begin, end - begin) + (end < line.size() ? "…" : "");
}

std::vector<report::Finding> signature_findings(const std::vector<knowledge::Row>& rows,
                                                const WorkerEvidence& evidence) {
  std::map<std::string, Fired> fired;
  std::vector<std::string> order;
  for (const auto& source : evidence.logs) {
    for (const auto& line : source.text.lines) {
      knowledge::FactMap facts;
      const auto words = engine_words(line.text);
      if (words.empty())
        continue;
      facts.set("log.line", words);
      facts.set("log.container", source.container);
      for (auto& hit : knowledge::evaluate(rows, facts)) {
        auto shown = shown_match(*hit.row, words, "log.line");
        take(fired, order, std::move(hit), 1,
             with_time("log, " + source.container + " container", line.time), std::move(shown),
             "line");
      }
    }
  }
  for (const auto& event : evidence.events) {
    knowledge::FactMap facts;
    facts.set("event.reason", event.reason);
    facts.set("event.message", event.message);
    facts.set("event.type", event.type);
    for (auto& hit : knowledge::evaluate(rows, facts)) {
      auto shown = shown_match(*hit.row, event.message, "event.message");
      auto where = "event " + event.type + " " + event.reason +
                   (event.count > 1 ? " ×" + std::to_string(event.count) : "");
      take(fired, order, std::move(hit), 1, with_time(where, event.time), std::move(shown),
           "event");
    }
  }
  std::vector<report::Finding> out;
  for (const auto& id : order) {
    const auto& f = fired.at(id);
    auto finding = knowledge::to_finding(f.hit);
    finding.detail += "; " + f.evidence + ": \"" + f.shown + "\"";
    if (f.more > 0)
      finding.detail += " (and " + plural(f.more, "more " + f.what) + ")";
    out.push_back(std::move(finding));
  }
  return out;
}

namespace {

// The seconds-precision prefix of an RFC 3339 time ("2026-12-03T10:04:31"), "" when it is not
// one: the two times compare as strings only where both have it.
std::string_view second_of(std::string_view t) {
  if (t.size() < 19 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':')
    return {};
  return t.substr(0, 19);
}

}  // namespace

void drop_history(WorkerEvidence& evidence, const std::string& started_at) {
  const auto start = second_of(started_at);
  if (start.empty() || !started_at.ends_with('Z'))
    return;
  auto& events = evidence.events;
  const auto before = std::stable_partition(events.begin(), events.end(), [&](const auto& e) {
    const auto at = second_of(e.time);
    return at.empty() || !e.time.ends_with('Z') || at >= start;
  });
  evidence.events_before_start += static_cast<std::size_t>(events.end() - before);
  events.erase(before, events.end());
}

boost::json::object evidence_facts(const WorkerEvidence& evidence,
                                   const std::vector<report::Finding>& found) {
  boost::json::object o;
  for (const auto& source : evidence.logs) {
    boost::json::object log;
    log["lines"] = source.text.lines.size();
    log["linesCut"] = source.text.cut;
    log["truncated"] = source.truncated;
    o[source.container] = std::move(log);
  }
  if (evidence.events_read) {
    o["events"] = evidence.events.size();
    if (evidence.events_before_start > 0)
      o["eventsBeforeStart"] = evidence.events_before_start;
  }
  o["signatures"] = found.size();
  return o;
}

}  // namespace icheck::rules
