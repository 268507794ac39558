// SPDX-License-Identifier: MIT
// Result<T>: a value or an Error. Core functions report failures through it and never throw
// across the core boundary.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace pbx {

enum class ErrorCode {
    InvalidArgument, ///< a parameter outside its valid range (ε ≤ 0, δ ≥ 1, NaN, …)
    Parse,           ///< malformed text: predicate, CSV, JSON
    NotFound,        ///< unknown column, dataset or file
    BudgetExceeded,  ///< the privacy filter refused a request
    Io,              ///< reading or writing failed
    Unsupported,     ///< the operation does not apply (e.g. pure-DP composition of a Gaussian)
    Cancelled,       ///< a progress callback asked to stop
    ResourceLimit,   ///< the computation would exceed a memory or time limit (message: how much)
};

struct Error
{
    ErrorCode code = ErrorCode::InvalidArgument;
    std::string message; ///< one line, meant for the user: says what is wrong and where
};

inline Error makeError(ErrorCode code, std::string message)
{
    return Error{code, std::move(message)};
}

template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_state(std::move(value)) {}
    Result(Error error) : m_state(std::move(error)) {}

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<0>(m_state); }
    T &value() & { return std::get<0>(m_state); }
    T &&value() && { return std::get<0>(std::move(m_state)); }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }

    const Error &error() const { return std::get<1>(m_state); }

private:
    std::variant<T, Error> m_state;
};

template<>
class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)), m_ok(false) {}

    bool ok() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const Error &error() const { return m_error; }

private:
    Error m_error;
    bool m_ok = true;
};

} // namespace pbx
