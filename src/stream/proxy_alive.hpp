#pragma once
// Whether the run's local kubectl proxy still answers at all. A stream through it (an exec, a
// log read) silent for kProxySilence makes the caller ask the proxy itself: a request its
// filter refuses, which kubectl proxy answers without the API server. A proxy that does not
// answer within kProxyAnswer has stopped (SIGSTOP, hung), and the run goes on over kubectl.

#include <chrono>
#include <string>

namespace icheck::stream {

inline constexpr std::chrono::milliseconds kProxySilence{5'000};
inline constexpr std::chrono::milliseconds kProxyAnswer{2'000};

// Any byte of an answer within kProxyAnswer.
bool proxy_answers(const std::string& socket_path);

// "the local kubectl proxy stopped answering (nothing within 2 s)"
std::string proxy_stopped_words();

}  // namespace icheck::stream
