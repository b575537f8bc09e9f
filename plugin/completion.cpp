#include "completion.hpp"

#include "flags.hpp"
#include "words.hpp"

#include <map>

namespace icheck::plugin {
namespace {

using check::NameKind;

const std::map<std::string, NameKind>& cluster_values() {
  static const std::map<std::string, NameKind> kinds = {
      {"namespace", NameKind::namespaces},
      {"context", NameKind::contexts},
      {"deployment", NameKind::deployments},
      {"pod", NameKind::worker_pods},
  };
  return kinds;
}

// Options whose value is a file or folder: the shell completes those.
bool takes_path(const std::string& name) {
  return name == "recipe" || name == "kubeconfig" || name == "cache-dir" ||
         name == "certificate-authority" || name == "client-certificate" || name == "client-key";
}

std::vector<std::string> with_prefix(const std::vector<std::string>& all, const std::string& prefix,
                                     const std::string& glue = "") {
  std::vector<std::string> out;
  for (const auto& v : all) {
    if (v.rfind(prefix, 0) == 0) {
      out.push_back(glue + v);
    }
  }
  return out;
}

// The --deployment already typed, so --pod offers that deployment's workers.
std::string deployment_on_line(const std::vector<std::string>& words) {
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == "--deployment") {
      return words[i + 1];
    }
    if (words[i].rfind("--deployment=", 0) == 0) {
      return words[i].substr(13);
    }
  }
  return "";
}

Completion values_of(const CLI::Option& opt, const std::string& prefix, const std::string& glue,
                     const std::vector<std::string>& words, const NameLookup& lookup) {
  const std::string name = opt.get_lnames().empty() ? "" : opt.get_lnames().front();
  if (const auto fixed = flag_choices().find(name); fixed != flag_choices().end()) {
    return {with_prefix(fixed->second, prefix, glue)};
  }
  if (const auto kind = cluster_values().find(name); kind != cluster_values().end()) {
    return {with_prefix(lookup(kind->second, deployment_on_line(words)), prefix, glue)};
  }
  return {{}, takes_path(name) ? k_complete_files : k_complete_no_files};
}

std::vector<std::string> flag_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const auto* opt : app.get_options()) {
    for (const auto& l : opt->get_lnames()) {
      names.push_back("--" + l);
    }
    for (const auto& s : opt->get_snames()) {
      names.push_back("-" + s);
    }
  }
  return names;
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

bool has_positional(const CLI::App& sub) {
  return !sub.get_options([](const CLI::Option* o) { return o->get_positional(); }).empty();
}

// True when the words after the subcommand already hold its positional argument.
bool positional_given(const CLI::App& app, const CLI::App& sub,
                      const std::vector<std::string>& before) {
  const auto start = *first_command_word(app, before) + 1;
  for (std::size_t i = start; i < before.size(); ++i) {
    if (before[i].empty() || before[i][0] != '-') {
      return true;
    }
    if (wants_value(app, &sub, before[i])) {
      ++i;
    }
  }
  return false;
}

}  // namespace

Completion complete(const CLI::App& app, const std::vector<std::string>& words,
                    const NameLookup& lookup) {
  const std::string cur = words.empty() ? "" : words.back();
  const std::vector<std::string> before(words.begin(), words.end() - (words.empty() ? 0 : 1));
  const CLI::App* sub = find_subcommand(app, before);
  if (const auto eq = cur.find('='); cur.rfind("--", 0) == 0 && eq != std::string::npos) {
    if (const auto* opt = find_option(app, sub, cur)) {
      return values_of(*opt, cur.substr(eq + 1), cur.substr(0, eq + 1), words, lookup);
    }
  }
  if (!before.empty() && wants_value(app, sub, before.back())) {
    return values_of(*find_option(app, sub, before.back()), cur, "", words, lookup);
  }
  if (cur.rfind("-", 0) == 0) {
    auto names = sub ? flag_names(*sub) : std::vector<std::string>{};
    const auto inherited = flag_names(app);
    names.insert(names.end(), inherited.begin(), inherited.end());
    return {with_prefix(names, cur)};
  }
  if (!sub) {
    return {with_prefix(subcommand_names(app), cur)};
  }
  const bool wants_path = has_positional(*sub) && !positional_given(app, *sub, before);
  return {{}, wants_path ? k_complete_files : k_complete_no_files};
}

std::string render_completion(const Completion& c) {
  std::string out;
  for (const auto& candidate : c.candidates) {
    out += candidate + "\n";
  }
  return out + ":" + std::to_string(c.directive) + "\n";
}

}  // namespace icheck::plugin
