// Status and Result<T>: how every kkadm function reports failure. Exceptions from libraries
// (yaml-cpp, nlohmann_json, CLI11) are caught at the adapter that calls them and become a Status.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace kkadm {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,     // bad input: a flag, a config field, a file's content
  kNotFound,            // a file, object or member that is not there
  kAlreadyExists,       // something exists that must not (a conflicting file)
  kFailedPrecondition,  // the machine is not in a state to do this (preflight, wrong CA)
  kUnavailable,         // a service did not answer (API server, etcd, systemd); retrying may help
  kInternal,            // a bug or an unexpected library failure
  kPermissionDenied,    // the server refused the caller (HTTP 403 Forbidden)
  kUnauthenticated,     // the server did not know the caller (HTTP 401)
  kAborted,             // a write lost a race (HTTP 409 Conflict on resourceVersion); retry
};

// The configuration field an error is about: the document the value was read from
// ("kubeadm.yaml: InitConfiguration (document 1)", "InitConfiguration (defaults and flags)"), the
// field's path ("networking.serviceSubnet") and what is wrong with it ("invalid value ...").
struct FieldError {
  std::string origin;
  std::string path;
  std::string problem;
};

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  // InvalidArgument about one configuration field, worded "<origin>: <path>: <problem>" (the one
  // shape of every config field error). Callers read the parts back with field(), e.g. to say
  // which flag set the value, instead of parsing the message.
  static Status Field(FieldError field);

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // The field this error is about (kept by Wrap), or nullptr when it is about none.
  const FieldError* field() const { return field_.get(); }

  // Prefixes the message with context, keeping the code: Wrap("writing ca.crt") turns
  // "Permission denied" into "writing ca.crt: Permission denied". OK stays OK.
  Status Wrap(std::string_view context) const&;
  Status Wrap(std::string_view context) &&;

  // "OK" or the message; the code's name is for logs, not for users.
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  std::shared_ptr<const FieldError> field_;  // shared: a Status is copied along error paths
};

const char* StatusCodeName(StatusCode code);

inline Status InvalidArgument(std::string message) {
  return Status(StatusCode::kInvalidArgument, std::move(message));
}
inline Status NotFound(std::string message) {
  return Status(StatusCode::kNotFound, std::move(message));
}
inline Status AlreadyExists(std::string message) {
  return Status(StatusCode::kAlreadyExists, std::move(message));
}
inline Status FailedPrecondition(std::string message) {
  return Status(StatusCode::kFailedPrecondition, std::move(message));
}
inline Status Unavailable(std::string message) {
  return Status(StatusCode::kUnavailable, std::move(message));
}
inline Status PermissionDenied(std::string message) {
  return Status(StatusCode::kPermissionDenied, std::move(message));
}
inline Status Unauthenticated(std::string message) {
  return Status(StatusCode::kUnauthenticated, std::move(message));
}
inline Status Aborted(std::string message) {
  return Status(StatusCode::kAborted, std::move(message));
}
inline Status Internal(std::string message) {
  return Status(StatusCode::kInternal, std::move(message));
}

// A value or the Status saying why there is none. Named like std::expected (C++23, not in g++ 12's
// C++20 mode) so a later switch is mechanical.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}         // NOLINT: implicit on purpose
  Result(Status status) : v_(std::move(status)) {}  // NOLINT: must not be OK

  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Status& error() const& { return std::get<1>(v_); }
  Status error() && { return std::get<1>(std::move(v_)); }

  // OK when there is a value, else the error: for KKADM_RETURN_IF_ERROR(result.status()).
  Status status() const { return has_value() ? Status() : error(); }

  template <class U>
  T value_or(U&& fallback) const& {
    return has_value() ? value() : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  std::variant<T, Status> v_;
};

}  // namespace kkadm

#define KKADM_RETURN_IF_ERROR(expr)                \
  do {                                             \
    ::kkadm::Status kkadm_status_ = (expr);        \
    if (!kkadm_status_.ok()) return kkadm_status_; \
  } while (false)
