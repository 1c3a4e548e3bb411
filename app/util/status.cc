// Status helpers.
#include "app/util/status.h"

namespace kkadm {

Status Status::Field(FieldError field) {
  Status status(StatusCode::kInvalidArgument,
                field.origin + ": " + field.path + ": " + field.problem);
  status.field_ = std::make_shared<const FieldError>(std::move(field));
  return status;
}

Status Status::Wrap(std::string_view context) const& {
  if (ok()) return *this;
  Status wrapped(code_, std::string(context) + ": " + message_);
  wrapped.field_ = field_;
  return wrapped;
}

Status Status::Wrap(std::string_view context) && {
  if (ok()) return std::move(*this);
  message_ = std::string(context) + ": " + message_;
  return std::move(*this);
}

std::string Status::ToString() const { return ok() ? "OK" : message_; }

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kInvalidArgument:
      return "InvalidArgument";
    case StatusCode::kNotFound:
      return "NotFound";
    case StatusCode::kAlreadyExists:
      return "AlreadyExists";
    case StatusCode::kFailedPrecondition:
      return "FailedPrecondition";
    case StatusCode::kUnavailable:
      return "Unavailable";
    case StatusCode::kInternal:
      return "Internal";
    case StatusCode::kPermissionDenied:
      return "PermissionDenied";
    case StatusCode::kUnauthenticated:
      return "Unauthenticated";
    case StatusCode::kAborted:
      return "Aborted";
  }
  return "Unknown";
}

}  // namespace kkadm
