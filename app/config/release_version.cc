// Kubernetes version labels resolved over an injected fetch (see release_version.h).
#include "app/config/release_version.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <optional>
#include <string_view>
#include <utility>

#include "app/util/ascii.h"
#include "app/util/version_numbers.h"
#include "build_info.h"

namespace kkadm::config {
namespace {

// Lookups of one resolution. kubeadm sets no limit: a mirror whose stable-1.32.txt named a newer
// minor would send it back to stable-1.32.txt for ever.
constexpr int kMaxLookups = 4;
// Go's http.Client follows up to 10 redirects; dl.k8s.io answers with one (to cdn.dl.k8s.io).
constexpr int kMaxRedirects = 10;

constexpr bool IsOneToNine(char c) { return c >= '1' && c <= '9'; }
constexpr bool IsBuildSuffixChar(char c) {
  return util::IsAsciiAlnum(c) || c == '-' || c == '_' || c == '.' || c == '+';
}
constexpr bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// (0|[1-9][0-9]*)
bool ConsumeNumber(util::Scanner& in) {
  return in.Consume('0') || !in.Run(IsOneToNine, util::IsAsciiDigit).empty();
}

// kubeadm's normalizedBuildVersion: `version` with a leading "v" when it matches
// ^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)([-0-9a-zA-Z_\.+]*)?$, else nullopt.
std::optional<std::string> NormalizedBuildVersion(std::string_view version) {
  util::Scanner in(version);
  const bool has_v = in.Consume('v');
  if (!ConsumeNumber(in) || !in.Consume('.') || !ConsumeNumber(in) || !in.Consume('.') ||
      !ConsumeNumber(in) || !util::AllOf(in.rest(), IsBuildSuffixChar)) {
    return std::nullopt;
  }
  return has_v ? std::string(version) : "v" + std::string(version);
}

struct Label {
  std::string_view bucket_dir;  // "release", "ci" or "ci-cross"
  std::string_view name;        // "stable-1.31"
};

// kubeadm's kubeBucketPrefixes and kubeReleaseLabelRegex (without its "(latest|stable)+"
// repetition, which only admits names like "stablestable").
std::optional<Label> ParseLabel(std::string_view version) {
  util::Scanner in(version);
  Label label{"release", {}};
  for (std::string_view dir : {"release", "ci-cross", "ci"}) {
    if (in.Consume(std::string(dir) + "/")) {
      label.bucket_dir = dir;
      break;
    }
  }
  label.name = in.rest();
  if (!in.Consume("stable") && !in.Consume("latest")) return std::nullopt;
  if (in.Consume('-')) {
    if (in.Fixed(1, IsOneToNine).empty()) return std::nullopt;  // major
    if (in.Consume('.')) {
      if (in.Fixed(1, IsOneToNine).empty()) return std::nullopt;  // minor: [1-9][0-9]?
      if (!in.AtEnd()) in.Fixed(1, util::IsAsciiDigit);
    }
  }
  if (!in.AtEnd()) return std::nullopt;
  return label;
}

struct MajorMinor {
  int major = 0;
  int minor = 0;
};

// k8s.io/apimachinery's version.ParseGeneric, as far as kubeadm uses it: \s*v?N.N[.N...] and
// anything after.
Result<MajorMinor> ParseGeneric(std::string_view text) {
  util::Scanner in(text);
  in.Span(IsSpace);
  in.Consume('v');
  const std::string_view major = in.Span(util::IsAsciiDigit);
  if (major.empty()) return InvalidArgument(fmt::format("could not parse \"{}\" as version", text));
  const std::string_view minor = in.Consume('.') ? in.Span(util::IsAsciiDigit) : std::string_view();
  MajorMinor out;
  std::optional<int> major_value = util::DigitsToInt(major);
  std::optional<int> minor_value = util::DigitsToInt(minor);
  if (!major_value || !minor_value) {
    return InvalidArgument(fmt::format("illegal version string \"{}\"", text));
  }
  return MajorMinor{*major_value, *minor_value};
}

// kubeadm's validateStableVersion: a remote version of a newer minor than the client's is
// replaced by the label of the client's minor.
Result<std::string> ValidateStableVersion(const std::string& remote, const std::string& client) {
  auto remote_version = ParseGeneric(remote);
  if (!remote_version) return remote_version.error().Wrap("remote version error");
  auto client_version = ParseGeneric(client);
  if (!client_version) return client_version.error().Wrap("client version error");
  if (client_version->major < remote_version->major ||
      (client_version->major == remote_version->major &&
       client_version->minor < remote_version->minor)) {
    std::string estimated =
        fmt::format("stable-{}.{}", client_version->major, client_version->minor);
    // kubeadm says this at klog's default level; kkadm's default shows warnings only.
    spdlog::warn("remote version is much newer: {}; falling back to: {}", remote, estimated);
    return estimated;
  }
  return remote;
}

Result<std::string> Resolve(const std::string& version, const ReleaseVersionSource& source,
                            int lookups);

// Fetches a label file; on failure falls back to the client version, as kubeadm does for
// air-gapped machines.
Result<std::string> LookUp(const Label& label, const ReleaseVersionSource& source, int lookups) {
  auto client = ClientVersion(build_info::kKubernetesVersion);
  if (!client) return Internal(client.error().Wrap("kubeadm version error").message());
  const std::string bucket = label.bucket_dir == "release"
                                 ? source.release_bucket + "/release"
                                 : source.ci_bucket + "/" + std::string(label.bucket_dir);
  const std::string url = bucket + "/" + std::string(label.name) + ".txt";
  spdlog::info("fetching Kubernetes version from URL: {}", url);
  Result<std::string> body = source.fetch ? source.fetch(url, kReleaseVersionTimeout)
                                          : Unavailable("no HTTP client to fetch " + url);
  if (!body) {
    spdlog::warn("could not fetch a Kubernetes version from the internet: {}",
                 body.error().message());
    spdlog::warn("falling back to the local client version: {}", *client);
    return Resolve(*client, source, lookups);
  }
  auto chosen = ValidateStableVersion(*body, *client);
  if (!chosen) return chosen.error();
  return Resolve(*chosen, source, lookups);
}

Result<std::string> Resolve(const std::string& version, const ReleaseVersionSource& source,
                            int lookups) {
  if (auto build = NormalizedBuildVersion(version)) return *build;
  auto label = ParseLabel(version);
  if (!label) {
    return InvalidArgument(
        fmt::format("version \"{}\" doesn't match patterns for neither "
                    "semantic version nor labels (stable, latest, ...)",
                    version));
  }
  if (lookups >= kMaxLookups) {
    return InvalidArgument(
        fmt::format("version label \"{}\": no version after {} lookups", version, kMaxLookups));
  }
  return LookUp(*label, source, lookups + 1);
}

std::string TrimSpace(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return std::string(text);
}

// Go's http.Response.Status ("404 Not Found") for the codes a release bucket answers with.
std::string StatusText(long code) {
  static constexpr std::pair<long, const char*> kReasons[] = {
      {400, "Bad Request"}, {401, "Unauthorized"},        {403, "Forbidden"},
      {404, "Not Found"},   {429, "Too Many Requests"},   {500, "Internal Server Error"},
      {502, "Bad Gateway"}, {503, "Service Unavailable"}, {504, "Gateway Timeout"}};
  for (const auto& [known, reason] : kReasons) {
    if (known == code) return std::to_string(code) + " " + reason;
  }
  return std::to_string(code);
}

bool IsRedirect(long code) {
  return code == 301 || code == 302 || code == 303 || code == 307 || code == 308;
}

// The absolute URL of a Location header: "scheme://host[:port]" of `from` for a path.
std::string RedirectTarget(const std::string& from, const std::string& location) {
  if (location.empty() || location.front() != '/') return location;
  const size_t host = from.find("://");
  const size_t path = host == std::string::npos ? std::string::npos : from.find('/', host + 3);
  return from.substr(0, path) + location;
}

}  // namespace

bool IsVersionLabel(const std::string& version) { return ParseLabel(version).has_value(); }

Result<std::string> ResolveVersionLabel(const std::string& version,
                                        const ReleaseVersionSource& source) {
  const std::string label = version.empty() ? kDefaultKubernetesVersion : version;
  if (!IsVersionLabel(label)) return version;
  return Resolve(label, source, 0);
}

Result<std::string> ClientVersion(const std::string& build_version) {
  util::Scanner in(build_version);
  in.Consume('v');
  auto numbers = util::ConsumeVersionNumbers(in);
  std::string pre = in.Consume('-') ? std::string(in.Span([](char c) { return c != '+'; })) : "";
  if (!numbers || (!in.AtEnd() && !in.Consume('+'))) {
    return InvalidArgument(fmt::format("could not parse \"{}\" as a version", build_version));
  }
  std::optional<int> patch = util::DigitsToInt(numbers->patch);
  if (!patch) return InvalidArgument(fmt::format("illegal version \"{}\"", build_version));
  if (!pre.empty() && *patch > 0) {
    // A pre-release of x.y.z: the newest stable release before it is x.y.(z-1).
    --*patch;
    pre.clear();
  } else if (!pre.empty()) {
    // "alpha.1.206" -> "alpha.1", "alpha" -> "alpha.0": the tags images are published with.
    const size_t first_dot = pre.find('.');
    const size_t second_dot =
        first_dot == std::string::npos ? first_dot : pre.find('.', first_dot + 1);
    if (first_dot == std::string::npos)
      pre += ".0";
    else if (second_dot != std::string::npos)
      pre.erase(second_dot);
    pre = "-" + pre;
  }
  return fmt::format("v{}.{}.{}{}", numbers->major, numbers->minor, *patch, pre);
}

FetchUrl HttpFetch(util::HttpClient& client) {
  return
      [&client](const std::string& url, std::chrono::milliseconds timeout) -> Result<std::string> {
        util::HttpRequest request;
        request.url = url;
        request.timeout = timeout;
        for (int redirects = 0;; ++redirects) {
          auto response = client.Do(request);
          if (!response) {
            return Unavailable(
                fmt::format("unable to get URL \"{}\": {}", url, response.error().message()));
          }
          if (IsRedirect(response->status) && redirects < kMaxRedirects &&
              !response->headers["location"].empty()) {
            request.url = RedirectTarget(request.url, response->headers["location"]);
            continue;
          }
          if (response->status != 200) {
            return Unavailable(fmt::format("unable to fetch file. URL: \"{}\", status: {}", url,
                                           StatusText(response->status)));
          }
          return TrimSpace(response->body);
        }
      };
}

}  // namespace kkadm::config
