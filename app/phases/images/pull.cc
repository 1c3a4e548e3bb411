// Image pulls with retries (pull.h).
#include "app/phases/images/pull.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <regex>

#include "app/util/duration.h"

namespace kkadm::phases::images {
namespace {

// The registry's own failures as containerd words them: "... failed with status code [manifests
// 3.10]: 503 Service Unavailable", "unexpected status code ...: 502 Bad Gateway", "read tcp ...:
// connection reset by peer", "... EOF", "i/o timeout".
bool RegistrySaysTryAgain(const std::string& message) {
  static const std::regex kServerError(R"((status|code)[^:]*: 5\d\d\b|: 5\d\d [A-Z])");
  static const char* const kBrokenConnection[] = {"connection reset by peer",
                                                  "connection refused",
                                                  ": EOF",
                                                  "unexpected EOF",
                                                  "i/o timeout",
                                                  "TLS handshake timeout",
                                                  "broken pipe",
                                                  "server misbehaving"};
  for (const char* words : kBrokenConnection) {
    if (message.find(words) != std::string::npos) return true;
  }
  return std::regex_search(message, kServerError);
}

std::chrono::milliseconds PauseBefore(const RetryPolicy& retry, int attempt) {
  std::chrono::milliseconds pause = retry.first_pause;
  for (int i = 1; i < attempt && pause < retry.max_pause; ++i) pause *= 2;
  return std::min(pause, retry.max_pause);
}

void ReportRetry(const PullContext& ctx, const std::string& image, int attempt, const Status& error,
                 std::chrono::milliseconds pause) {
  spdlog::warn("pulling image \"{}\" failed (attempt {} of {}), retrying in {}: {}", image, attempt,
               ctx.retry.attempts, util::FormatDuration(pause), error.message());
  ctx.events.Emit("Retry", {{"what", "image-pull"},
                            {"attempt", attempt},
                            {"reason", image + ": " + error.message()},
                            {"delaySeconds", std::chrono::duration<double>(pause).count()}});
}

// A pull the runtime itself could not take (UNAVAILABLE: its socket gone or refusing) is retried
// only while the runtime still answers a Version call: a registry it cannot reach for a moment is
// worth the pauses, a dead runtime is not (5 tries' pauses, 15 s an image, for one answer).
bool RuntimeIsDown(util::ContainerRuntime& runtime, const Status& error) {
  if (error.code() != StatusCode::kUnavailable) return false;
  Result<util::CriVersion> version = runtime.Version();
  if (version) return false;
  spdlog::debug("the container runtime does not answer either: {}", version.error().message());
  return true;
}

}  // namespace

bool IsTransientPullError(const Status& error) {
  switch (error.code()) {
    case StatusCode::kUnavailable:
    case StatusCode::kAborted:
      return true;
    case StatusCode::kInternal:
      return error.message().find("not found") == std::string::npos &&
             RegistrySaysTryAgain(error.message());
    default:
      return false;
  }
}

Status PullWithRetries(const PullContext& ctx, const std::string& image) {
  for (int attempt = 1;; ++attempt) {
    Result<std::string> pulled = ctx.runtime.PullImage(image);
    if (pulled) {
      spdlog::debug("pulled image {} as {}", image, *pulled);
      return Status();
    }
    const Status& error = pulled.error();
    if (RuntimeIsDown(ctx.runtime, error)) {
      return Status(error.code(), "container runtime is not running: " + error.message());
    }
    if (attempt >= ctx.retry.attempts || !IsTransientPullError(error)) {
      if (attempt == 1) return error;
      return Status(error.code(), fmt::format("{} (after {} attempts)", error.message(), attempt));
    }
    const std::chrono::milliseconds pause = PauseBefore(ctx.retry, attempt);
    ReportRetry(ctx, image, attempt, error, pause);
    ctx.clock.Sleep(pause);
  }
}

Status PullImages(const PullContext& ctx, const std::vector<std::string>& images,
                  util::Printer& out) {
  for (const std::string& image : images) {
    Result<std::optional<std::string>> present = ctx.runtime.ImageStatus(image);
    if (!present)
      return present.error().Wrap(fmt::format("failed to check if image {} exists", image));
    if (present->has_value()) {
      out.Line("config/images", "Image " + image + " already present on machine");
      ctx.events.Emit("ImagePull", {{"image", image}, {"result", "present"}});
      continue;
    }
    Status pulled = PullWithRetries(ctx, image);
    if (!pulled.ok()) return pulled.Wrap(fmt::format("failed to pull image \"{}\"", image));
    out.Line("config/images", "Pulled " + image);
    ctx.events.Emit("ImagePull", {{"image", image}, {"result", "pulled"}});
  }
  return Status();
}

std::vector<std::string> PullForPreflight(const PullContext& ctx,
                                          const std::vector<std::string>& images,
                                          const std::string& pull_policy) {
  std::vector<std::string> errors;
  spdlog::debug("using image pull policy: {}", pull_policy);
  if (pull_policy == "Never") return errors;
  for (const std::string& image : images) {
    if (pull_policy == "IfNotPresent") {
      Result<std::optional<std::string>> present = ctx.runtime.ImageStatus(image);
      if (present && present->has_value()) {
        spdlog::debug("image exists: {}", image);
        continue;
      }
      if (!present) {
        // The runtime did not answer: a pull would not either, and its retries would only add
        // their pauses (15 s an image) to a pre-flight that already reports the runtime.
        errors.push_back(fmt::format("failed to check if image {} exists: {}", image,
                                     present.error().message()));
        continue;
      }
    }
    spdlog::debug("pulling: {}", image);
    Status pulled = PullWithRetries(ctx, image);
    if (!pulled.ok())
      errors.push_back(fmt::format("failed to pull image {}: {}", image, pulled.message()));
  }
  return errors;
}

}  // namespace kkadm::phases::images
