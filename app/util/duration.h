// Go time.Duration text: parsing ("24h", "1h30m", "500ms", "1.5s") and Go's String() form ("24h0m0s").
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util {

// Parses Go's duration syntax: an optional sign, then one or more <decimal><unit> with units
// ns, us, µs, ms, s, m, h ("0" alone is allowed). Precision is milliseconds: smaller parts are
// truncated. InvalidArgument with `time: invalid duration "<text>"` on bad input.
Result<std::chrono::milliseconds> ParseDuration(std::string_view text);

// Go's Duration.String(): "24h0m0s", "4m0s", "1.5s", "500ms", "0s", "-1m0s".
std::string FormatDuration(std::chrono::milliseconds duration);

}  // namespace kkadm::util
