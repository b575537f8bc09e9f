#pragma once
// Versions with known KV-transfer trouble, one table (known_trouble.cpp), each row with its
// public source, judged against the versions the probes read (NIXL's wheel or versions file,
// ucx_info -v). README lists the table. Pure.

#include <string>
#include <string_view>
#include <vector>

namespace icheck::rules {

struct KnownTrouble {
  std::string_view package;  // "nixl" (any NIXL build or wheel), "nixl-cu13" (that wheel), "ucx"
  std::string_view from;     // first version affected
  std::string_view below;    // first version not affected, as far as the source says
  std::string_view what;
  std::string_view source;
};

const std::vector<KnownTrouble>& known_trouble();

// The rows a package at a version falls in ("nixl_cu13" and "nixl-cu13" are one name; a "nixl"
// row applies to every NIXL package). Versions compare by their dotted numbers; one that does
// not start with a number matches nothing.
std::vector<const KnownTrouble*> troubles(std::string_view package, std::string_view version);

// "UCX 1.16.0 < 1.19: <what> (<source>)" (a row from 0), else "NIXL 0.10.0: <what> (<source>)".
std::string trouble_text(std::string_view shown_name, std::string_view version,
                         const KnownTrouble& row);

}  // namespace icheck::rules
