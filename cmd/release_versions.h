// Where kkadm's commands look Kubernetes version labels up: kubeadm's release buckets over HTTPS
// (libcurl), or the mirror named by $KKADM_RELEASE_URL.
#pragma once

#include <optional>
#include <string>

#include "app/config/release_version.h"
#include "app/util/machine.h"

namespace kkadm::cmd {

// The environment variable that replaces both bucket URLs (https://dl.k8s.io and
// https://storage.googleapis.com/k8s-release-dev): labels are then read from
// $KKADM_RELEASE_URL/release/<label>.txt and $KKADM_RELEASE_URL/ci/<label>.txt.
inline constexpr const char* kReleaseUrlVariable = "KKADM_RELEASE_URL";

// The source of labels for this process. `machine`'s environment (read here, not kept) answers
// for KKADM_RELEASE_URL and for SSL_CERT_FILE: a file of PEM certificates trusted instead of the
// system's store, as kubeadm's Go TLS stack trusts it (libcurl itself ignores the variable). The
// HTTPS client is made at the first lookup, with kubeadm's 10 s limit for the whole request; an
// unreadable SSL_CERT_FILE makes every lookup fail (and fall back, with kubeadm's warnings).
config::ReleaseVersionSource ReleaseVersionsFromEnvironment(const util::Machine& machine);

}  // namespace kkadm::cmd
