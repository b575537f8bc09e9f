#pragma once
// Errors as return values at the edges (DESIGN.md "Style"): a value or a one-line message.
// A minimal stand-in for C++23 std::expected.

#include <string>
#include <utility>
#include <variant>

namespace icheck {

struct Error {
  std::string message;
};

template <class T>
class Expected {
public:
  Expected(T value) : m_state(std::move(value)) {}
  Expected(Error error) : m_state(std::move(error)) {}

  bool has_value() const { return m_state.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(m_state); }
  const T& value() const& { return std::get<0>(m_state); }
  T&& value() && { return std::get<0>(std::move(m_state)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(m_state); }

private:
  std::variant<T, Error> m_state;
};

}  // namespace icheck
