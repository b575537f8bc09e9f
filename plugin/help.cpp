#include "help.hpp"

#include "outside/text.hpp"
#include "words.hpp"

#include <algorithm>

namespace icheck::plugin {
namespace {

// Edit distance, for "Did you mean": cobra suggests within 2 edits or on a shared prefix.
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> suggestions(const CLI::App& app, const std::string& word) {
  std::vector<std::string> out;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const auto& name = sub->get_name();
    if (distance(word, name) <= 2 || (!word.empty() && name.rfind(word, 0) == 0)) {
      out.push_back(name);
    }
  }
  return out;
}

}  // namespace

std::string HelpFormatter::make_help(const CLI::App* app, std::string name,
                                     CLI::AppFormatMode mode) const {
  std::string help = CLI::Formatter::make_help(app, name, mode);
  const CLI::App* parent = app->get_parent();
  if (!parent || mode != CLI::AppFormatMode::Normal) {
    return help;
  }
  help += inherited_flags(*parent);
  if (const auto ex = examples_.find(app->get_name()); ex != examples_.end()) {
    help += "\nExamples:\n";
    for (const auto& line : ex->second) {
      help += "  " + line + "\n";
    }
  }
  return help;
}

// The top-level options a subcommand accepts too, in the top level's groups.
std::string HelpFormatter::inherited_flags(const CLI::App& parent) const {
  std::vector<std::string> groups;
  for (const auto* opt : parent.get_options()) {
    if (opt->get_group() != "Options" &&  // CLI11's group of --help and --version
        std::find(groups.begin(), groups.end(), opt->get_group()) == groups.end()) {
      groups.push_back(opt->get_group());
    }
  }
  std::string text = "\nInherited flags:\n";
  for (const auto& group : groups) {
    const auto opts =
        parent.get_options([&](const CLI::Option* o) { return o->get_group() == group; });
    text += make_group(group, false, opts);
  }
  return text;
}

std::optional<std::string> unknown_command(const CLI::App& app,
                                           const std::vector<std::string>& args) {
  const auto i = first_command_word(app, args);
  if (!i || find_subcommand(app, args)) {
    return std::nullopt;
  }
  const std::string& word = args[*i];
  // The word may come from a script's variable (a pod name): quoted, never raw to the terminal.
  std::string text = "error: unknown command \"" + outside::terminal_safe(word) +
                     "\" for \"kubectl dynamo-icheck\"\n";
  for (const auto& s : suggestions(app, word)) {
    text += "Did you mean " + s + "?\n";
  }
  return text + "Run 'kubectl dynamo-icheck --help' for usage.\n";
}

}  // namespace icheck::plugin

namespace icheck::plugin {

std::map<std::string, std::vector<std::string>> subcommand_examples() {
  const std::string k = "kubectl dynamo-icheck ";
  const std::string recipe = "recipes/llama-3-70b/vllm/disagg-multi-node";
  return {
      {"env",
       {k + "env " + recipe, k + "env recipes/llama-3-70b/vllm --recursive",
        k + "env " + recipe + " --live -n dynamo"}},
      {"node",
       {k + "node --deployment llama-70b-disagg", k + "node -A -o wide | grep fail",
        k + "node --local"}},
      {"nixl",
       {k + "nixl --deployment llama-70b-disagg",
        k + "nixl --deployment llama-70b-disagg --transfer",
        k + "nixl --transfer --pair PREFILL_POD,DECODE_POD -o json"}},
      {"all", {k + "all " + recipe, k + "all " + recipe + " --transfer -o yaml"}},
      {"version", {k + "version", k + "--version"}},
  };
}

}  // namespace icheck::plugin
