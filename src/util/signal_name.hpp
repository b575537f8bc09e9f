#pragma once
// The name a signal is reported by ("interrupted by SIGHUP"), for the four that interrupt a run.

#include <csignal>
#include <string>

namespace icheck {

inline std::string signal_name(int signal) {
  switch (signal) {
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  case SIGHUP:
    return "SIGHUP";
  case SIGQUIT:
    return "SIGQUIT";
  default:
    return "signal " + std::to_string(signal);
  }
}

}  // namespace icheck
