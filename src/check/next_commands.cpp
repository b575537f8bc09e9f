#include "check/next_commands.hpp"

#include "rules/pair/pairing.hpp"
#include "util/text.hpp"

#include <array>
#include <string_view>
#include <utility>

namespace icheck::check {
namespace {

// Tools the rules' next steps run inside the worker pod.
constexpr std::array<std::string_view, 10> kPodTools{
    "nvidia-smi", "ucx_info", "ibv_devinfo", "ibstat",  "ls",
    "cat",        "grep",     "ip",          "fi_info", "python3"};

std::vector<std::string> split_segments(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (auto semi = text.find("; "); semi != std::string::npos; semi = text.find("; ", at)) {
    out.push_back(text.substr(at, semi - at));
    at = semi + 2;
  }
  out.push_back(text.substr(at));
  return out;
}

bool starts_with_word(std::string_view text, std::string_view word) {
  return text.starts_with(word) && (text.size() == word.size() || text[word.size()] == ' ');
}

bool runs_in_pod(std::string_view text) {
  for (const auto tool : kPodTools) {
    if (starts_with_word(text, tool))
      return true;
  }
  return false;
}

// Where the command of a segment starts: at its beginning, or after a lead-in such as
// "under load: " or "..., then "; npos when the segment is prose.
std::size_t command_start(const std::string& segment) {
  if (runs_in_pod(segment))
    return 0;
  for (const std::string_view lead : {": ", ", then "}) {
    const auto at = segment.find(lead);
    if (at != std::string::npos && !segment.starts_with("on node ") &&
        runs_in_pod(std::string_view(segment).substr(at + lead.size()))) {
      return at + lead.size();
    }
  }
  return std::string::npos;
}

// "ucx_info -d | grep -A4 x (why)" -> the pod runs `ucx_info -d`, grep runs here; the reason
// goes to the comment. A glob or variable needs the pod's shell.
std::string in_pod(const std::string& command, const PodPlace& place, std::string& comment) {
  std::string cmd = command;
  if (const auto paren = cmd.find(" ("); paren != std::string::npos) {
    comment = cmd.substr(paren + 1);
    cmd.resize(paren);
  }
  if (cmd.ends_with(" in the pod"))
    cmd.resize(cmd.size() - std::string_view(" in the pod").size());
  std::string local;
  if (const auto pipe = cmd.find(" | "); pipe != std::string::npos) {
    local = cmd.substr(pipe);
    cmd.resize(pipe);
  }
  std::vector<std::string> argv = place.kubectl;
  argv.insert(argv.end(), {"exec", place.pod, "-n", place.namespace_});
  if (!place.container.empty())
    argv.insert(argv.end(), {"-c", place.container});
  argv.push_back("--");
  std::string line = rules::shell_line(argv) + " ";
  line += cmd.find_first_of("*?$;&<>`") == std::string::npos ? cmd
                                                             : rules::shell_line({"sh", "-c", cmd});
  return line + local;
}

// "under load: " -> "under load:", "..., then " -> "..., then"
std::string trimmed_lead(std::string lead) {
  while (!lead.empty() && lead.back() == ' ')
    lead.pop_back();
  return lead;
}

std::string fill_placeholders(std::string next, const PodPlace& place) {
  if (!place.node.empty()) {
    next = text::replace_all(next, "<node>", place.node);
    next = text::replace_all(next, "on the node", "on node " + place.node);
  }
  next = text::replace_all(next, "<pod>", place.pod);
  return text::replace_all(next, "<namespace>", place.namespace_);
}

// `kubectl debug|get|logs ...` carry the user's context and flags; `kubectl dynamo-icheck`
// cannot (kubectl takes no flag before a plugin's name).
std::string with_kubectl_flags(const std::string& segment, const PodPlace& place) {
  const bool has_flags = segment.starts_with("kubectl -");  // built from them already
  if (!starts_with_word(segment, "kubectl") || has_flags ||
      segment.starts_with("kubectl dynamo-icheck") || place.kubectl.empty()) {
    return segment;
  }
  return rules::shell_line(place.kubectl) + segment.substr(std::string_view("kubectl").size());
}

// "... advertises: kubectl get node n -o jsonpath=...)": a kubectl command inside prose carries
// the user's flags too, as the step's own commands do.
std::string with_embedded_flags(std::string text, const PodPlace& place) {
  if (place.kubectl.empty())
    return text;
  const std::string kubectl = rules::shell_line(place.kubectl);
  for (auto at = text.find("kubectl ", 1); at != std::string::npos;
       at = text.find("kubectl ", at + 1)) {
    const std::string_view rest = std::string_view(text).substr(at + 8);
    if ((text[at - 1] == ' ' || text[at - 1] == '(') && !rest.starts_with("dynamo-icheck") &&
        !rest.starts_with("-")) {
      text.replace(at, std::string_view("kubectl").size(), kubectl);
      at += kubectl.size() - std::string_view("kubectl").size();
    }
  }
  return text;
}

// "kubectl dynamo-icheck node -o wide lists the GIDs", "kubectl get node -o yaml: the resource
// under allocatable": a kubectl command that prose goes on after (a row's next step) -> the
// command, and the prose for the comment. Never cuts inside quotes-free flags or values.
std::pair<std::string, std::string> command_and_prose(const std::string& segment) {
  std::size_t cut = std::string::npos;
  for (const std::string_view lead :
       {" (", ": ", " shows ", " lists ", " compares ", " names ", " tests ", " and ", ", "}) {
    cut = std::min(cut, segment.find(lead));
  }
  if (cut == std::string::npos)
    return {segment, ""};
  auto prose = segment.substr(cut);
  while (!prose.empty() && (prose.front() == ' ' || prose.front() == ':' || prose.front() == ','))
    prose.erase(0, 1);
  if (prose.starts_with("(") && prose.ends_with(")"))
    prose = prose.substr(1, prose.size() - 2);
  return {segment.substr(0, cut), prose};
}

}  // namespace

std::string runnable_next(const std::string& next, const PodPlace& place) {
  const std::string filled = with_embedded_flags(fill_placeholders(next, place), place);
  std::vector<std::string> commands, comments;
  for (const auto& segment : split_segments(filled)) {
    if (starts_with_word(segment, "kubectl")) {
      auto [command, prose] = command_and_prose(segment);
      commands.push_back(with_kubectl_flags(command, place));
      if (!prose.empty())
        comments.push_back(prose);
      continue;
    }
    const auto start = command_start(segment);
    if (start == std::string::npos) {
      comments.push_back(segment);
      continue;
    }
    std::string why;
    commands.push_back(in_pod(segment.substr(start), place, why));
    std::string comment = start > 0 ? trimmed_lead(segment.substr(0, start)) : std::string();
    comment += (comment.empty() || why.empty() ? "" : " ") + why;
    if (!comment.empty())
      comments.push_back(comment);
  }
  if (commands.empty())
    return filled;
  std::string out;
  for (const auto& c : commands)
    out += (out.empty() ? "" : "; ") + c;
  if (!comments.empty()) {
    out += "  #";
    for (const auto& c : comments)
      out += " " + c + (&c == &comments.back() ? "" : ";");
  }
  return out;
}

std::string plugin_command(const std::string& words, const Options& options) {
  std::vector<std::string> argv;
  const auto add = [&](const char* flag, const std::string& value) {
    if (!value.empty())
      argv.insert(argv.end(), {flag, value});
  };
  for (const auto& pod : options.targets.pods)
    add("--pod", pod);
  add("--deployment", options.targets.deployment);
  add("--recipe", options.targets.recipe);
  add("-l", options.targets.selector);
  const auto& kube = options.kube;
  if (kube.all_namespaces)
    argv.push_back("-A");
  add("-n", kube.namespace_.value_or(""));
  add("--context", kube.context.value_or(""));
  add("--kubeconfig", kube.kubeconfig.value_or(""));
  add("-c", options.targets.container.value_or(""));
  return "kubectl dynamo-icheck " + words + (argv.empty() ? "" : " " + rules::shell_line(argv));
}

void make_runnable(report::Target& target, const PodPlace& place) {
  for (auto& f : target.findings) {
    if (!f.next.empty())
      f.next = runnable_next(f.next, place);
  }
}

}  // namespace icheck::check
