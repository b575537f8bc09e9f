#include "help.hpp"

#include "flags.hpp"
#include "help_pages.hpp"
#include "outside/text.hpp"
#include "words.hpp"
#include "wrap.hpp"

#include <algorithm>

namespace icheck::plugin {
namespace {

const std::string k_program = "kubectl dynamo-icheck";

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

// The value after '=': kubectl's spelling of a default (false, [], '', or the value).
std::string default_text(const CLI::Option& opt) {
  if (!takes_value(opt)) {
    return "false";
  }
  if (opt.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll) {
    return "[]";
  }
  const std::string value = opt.get_default_str();
  return value.empty() ? "''" : value;
}

std::string option_paragraphs(std::vector<const CLI::Option*> opts, std::size_t width) {
  std::sort(opts.begin(), opts.end(), [](const CLI::Option* a, const CLI::Option* b) {
    return a->get_lnames().front() < b->get_lnames().front();
  });
  std::string out;
  for (const auto* opt : opts) {
    out += "    " + flag_label(*opt) + "=" + default_text(*opt) + ":\n" +
           wrap(opt->get_description(), width, std::string(8, ' ')) + "\n";
  }
  return out;
}

// The flags listed on a page: named ones (no positional, no --help/--version), of one scope.
std::vector<const CLI::Option*> listed_options(const CLI::App& app, bool kube) {
  return app.get_options([&](const CLI::Option* o) {
    return !o->get_positional() && !o->get_lnames().empty() && o->get_lnames().front() != "help" &&
           o->get_lnames().front() != "version" && (o->get_group() == k_kube_group) == kube;
  });
}

std::string examples_text(const CommandPage& page) {
  std::string out = "Examples:\n";
  for (std::size_t i = 0; i < page.examples.size(); ++i) {
    const auto& e = page.examples[i];
    out += (i > 0 ? "\n" : "") + (e.comment.empty() ? "" : "  " + e.comment + "\n") + "  " +
           e.command + "\n";
  }
  return out + "\n";
}

std::string exit_codes_text(std::size_t width) {
  std::string out = "Exit codes:\n";
  for (const auto& [code, meaning] : exit_codes()) {
    const std::string label = "  " + code + std::string(7 - code.size(), ' ');
    out += label + wrap(meaning, width, std::string(label.size(), ' ')).substr(label.size());
  }
  return out + "\n";
}

std::string commands_text(const CLI::App& app) {
  std::string out = "Commands:\n";
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    out += "  " + sub->get_name() + std::string(10 - sub->get_name().size(), ' ') +
           sub->get_description() + "\n";
  }
  return out + "\n";
}

std::string footer(const CLI::App& app, const CommandPage& page, std::size_t width) {
  const bool top = app.get_parent() == nullptr;
  const std::string path = top ? k_program : k_program + " " + app.get_name();
  std::string out =
      "Usage:\n" + wrap(path + (page.usage.empty() ? "" : " " + page.usage), width, "  ") + "\n";
  if (top) {
    out += wrap("Use \"" + k_program +
                    " <command> --help\" for more information about a given command.",
                width);
  }
  return out + wrap("Use \"" + k_program +
                        " options\" for a list of global command-line options (applies to all "
                        "commands).",
                    width);
}

}  // namespace

std::string HelpFormatter::make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const {
  return help_text(*app, width_);
}

std::string help_text(const CLI::App& app, std::size_t width) {
  const bool top = app.get_parent() == nullptr;
  const CommandPage page = command_page(top ? "" : app.get_name());
  std::string out = wrap(app.get_description() + ".", width) + "\n";
  if (!page.about.empty()) {
    out += wrap(page.about, width, " ") + "\n";
  }
  if (top) {
    out += commands_text(app);
  }
  if (!page.examples.empty()) {
    out += examples_text(page);
  }
  if (const auto opts = listed_options(app, false); !top && !opts.empty()) {
    out += "Options:\n" + option_paragraphs(opts, width);
  }
  if (page.checks) {
    out += exit_codes_text(width);
  }
  return out + footer(app, page, width);
}

std::string global_options_text(const CLI::App& app, std::size_t width) {
  const CLI::App& top = app.get_parent() ? *app.get_parent() : app;
  return "The following options can be passed to any command:\n\n" +
         option_paragraphs(listed_options(top, true), width);
}

std::optional<std::string> unknown_command(const CLI::App& app,
                                           const std::vector<std::string>& args) {
  const auto i = first_command_word(app, args);
  if (!i || find_subcommand(app, args)) {
    return std::nullopt;
  }
  const std::string& word = args[*i];
  // The word may come from a script's variable (a pod name): quoted, never raw to the terminal.
  std::string text =
      "unknown command \"" + outside::terminal_safe(word) + "\" for \"" + k_program + "\"";
  const auto close = suggestions(app, word);
  if (!close.empty()) {
    text += "\n\nDid you mean this?";
  }
  for (const auto& s : close) {
    text += "\n\t" + s;
  }
  return text;
}

}  // namespace icheck::plugin
