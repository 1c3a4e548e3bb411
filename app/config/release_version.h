// Kubernetes version labels ("stable-1", "stable-1.31", "latest", "ci/latest") resolved as kubeadm
// resolves them (its util/version.go): the label file is fetched from the release bucket, and when
// that fails kkadm warns as kubeadm does and falls back to its own version. The fetch is injected:
// this code never opens a connection itself.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "app/util/http_client.h"
#include "app/util/status.h"

namespace kkadm::config {

// kubeadm's default kubernetesVersion, looked up like any label.
inline constexpr const char* kDefaultKubernetesVersion = "stable-1";
inline constexpr const char* kReleaseBucketUrl = "https://dl.k8s.io";
inline constexpr const char* kCiBucketUrl = "https://storage.googleapis.com/k8s-release-dev";
// kubeadm's getReleaseVersionTimeout, for the whole request.
inline constexpr std::chrono::seconds kReleaseVersionTimeout{10};

// The trimmed body of `url` when it answers 200 within `timeout`; otherwise an error saying why
// (kubeadm's fetchFromURL texts).
using FetchUrl =
    std::function<Result<std::string>(const std::string& url, std::chrono::milliseconds timeout)>;

// Where labels are looked up: "<release_bucket>/release/<label>.txt" and, for "ci/" and
// "ci-cross/" labels, "<ci_bucket>/ci/<label>.txt". A source without `fetch` cannot look anything
// up: every label falls back to kkadm's version, with kubeadm's warnings.
struct ReleaseVersionSource {
  std::string release_bucket = kReleaseBucketUrl;
  std::string ci_bucket = kCiBucketUrl;
  FetchUrl fetch;
};

// True for "[release/|ci/|ci-cross/](stable|latest)[-<major>[.<minor>]]" (kubeadm's label
// patterns: major 1-9, minor 1-99).
bool IsVersionLabel(const std::string& version);

// kubeadm's KubernetesReleaseVersion for the kubernetesVersion of a user's configuration: "" is
// kDefaultKubernetesVersion; a label is fetched and its content resolved again (a file may name
// another label); anything else is returned unchanged for validation to judge. Through spdlog:
//   - a failed fetch warns "could not fetch a Kubernetes version from the internet: <why>" and
//     "falling back to the local client version: <kkadm's version>", and gives that version;
//   - a fetched version of a newer minor than kkadm's warns "remote version is much newer: <v>;
//     falling back to: stable-<kkadm's major.minor>" and resolves that label instead.
// InvalidArgument when a fetched file holds no version ("remote version error: ...", "version
// \"x\" doesn't match patterns for neither semantic version nor labels (stable, latest, ...)").
Result<std::string> ResolveVersionLabel(const std::string& version,
                                        const ReleaseVersionSource& source);

// kubeadm's client version for a build version ("v1.32.0" -> itself; "v1.33.0-alpha.1.206+abc"
// -> "v1.33.0-alpha.1"; "v1.32.1-rc.0" -> "v1.32.0"); InvalidArgument for anything else.
Result<std::string> ClientVersion(const std::string& build_version);

// A FetchUrl over `client` (which must outlive it): a GET with the given timeout; errors
// "unable to get URL \"<url>\": <why>" and "unable to fetch file. URL: \"<url>\", status: 404 Not
// Found".
FetchUrl HttpFetch(util::HttpClient& client);

}  // namespace kkadm::config
