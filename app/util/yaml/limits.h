// The bounds on every YAML (and JSON) text util::yaml reads: a config, a kubeconfig, a patch or a
// manifest is refused at once, in milliseconds and small memory, when it passes one. Each is far
// above what a real file needs (every kubeadm and component config field set: about 740 values,
// 5 levels, 8 kB; a 1,000-line patch about 2,000 values) and far below what would hurt the host.
// Documented in docs/config.md ("Limits on input files").
#pragma once

#include <cstddef>

namespace kkadm::util::yaml {

// The size of the text, in bytes (4 MiB; the Kubernetes API takes 3 MiB requests at most).
inline constexpr std::size_t kMaxTextBytes = std::size_t{4} << 20;
// Documents in one text ("---" separated), empty ones included.
inline constexpr int kMaxDocuments = 1'000;
// Levels of nesting of maps and sequences.
inline constexpr int kMaxDepth = 200;
// Values (scalars, maps, sequences) in all the documents of a text, counting each copy an alias
// makes: what stops "billion laughs" aliases before they grow.
inline constexpr int kMaxValues = 100'000;
// Bytes of keys and scalars in all the documents of a text, counting each copy an alias makes.
inline constexpr std::size_t kMaxExpandedBytes = std::size_t{8} << 20;

}  // namespace kkadm::util::yaml
