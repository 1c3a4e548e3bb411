// The image repository rule of kubeadm's validation (ValidateImageRepository):
// "<repository>/name:tag" must be an image reference of distribution/reference's grammar.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kkadm::config {

// Why `repository` ("registry.k8s.io", "localhost:5000/mirror", "[fd00::1]:5000") cannot prefix
// kubeadm's image names, or nullopt when it can. A repository is an optional registry
// (host[:port], the host a DNS name, an IPv4 address or a bracketed IPv6 address) followed by
// '/'-separated lower-case path components ([a-z0-9]+ joined by '.', '_', "__" or dashes); a single
// component may also be a registry alone. So no scheme, tag, digest, spaces, empty component
// ("//") or trailing slash.
std::optional<std::string> ImageRepositoryProblem(std::string_view repository);

}  // namespace kkadm::config
