#pragma once
// The parts of an API server message that kubectl and the proxy relay: the RBAC denial's
// `User "U" cannot VERB resource "R"`, a word after a fixed lead (`current phase is Running`),
// the blank-free word between two fixed texts (`The connection to the server H was refused`).
// Scanned by hand in linear time: the text comes from outside (DESIGN.md).

#include <string>
#include <string_view>

namespace icheck::kube {

struct Denial {
  std::string user;      // between `User "` and the next `"`; "" when absent
  std::string verb;      // the word after the first `cannot ` that reads `cannot W resource "R"`
  std::string resource;  // R of that match
};

// `resource` empty: the first `cannot W resource "R"` of any R; otherwise the first with that R.
Denial denial(std::string_view message, std::string_view resource = {});

// The word characters ([A-Za-z0-9_]+) right after the first `lead` that has one; "" when none.
std::string word_after(std::string_view text, std::string_view lead);

// The blank-free run right after the first `lead` that `tail` follows; "" when none.
std::string token_between(std::string_view text, std::string_view lead, std::string_view tail);

}  // namespace icheck::kube
