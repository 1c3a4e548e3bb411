// Go time.Duration text: parsing ("24h", "1h30m", "500ms", "1.5s"), Go's String() form ("24h0m0s")
// and apimachinery's ShortHumanDuration ("23h", "6d"), the one home of durations in kkadm.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util {

// Go's time.ParseDuration, as kubeadm reads every duration flag and field: an optional sign, then
// one or more <decimal><unit> ("1.5h", ".5s", "5.s") with units ns, us, µs, μs, ms, s, m, h, or
// "0" alone; at most what an int64 of nanoseconds holds. InvalidArgument with Go's message
// (`time: invalid duration "<text>"`, `time: missing unit ...`, `time: unknown unit ...`).
// The result is in milliseconds, smaller parts truncated, except that a non-zero duration shorter
// than a millisecond becomes one millisecond of its sign: kubeadm gives a token with any TTL > 0
// an expiration ("1us" expires at once) while 0 means never, so the sign must survive.
Result<std::chrono::milliseconds> ParseDuration(std::string_view text);

// Go's Duration.String(): "24h0m0s", "4m0s", "1.5s", "500ms", "0s", "-1m0s".
std::string FormatDuration(std::chrono::milliseconds duration);

// apimachinery's ShortHumanDuration, as `token list` shows a TTL: whole seconds, minutes, hours,
// days or years ("59s", "23h", "6d", "2y"); "0s" for -1s, "<invalid>" for anything earlier.
std::string ShortHumanDuration(std::chrono::milliseconds duration);

}  // namespace kkadm::util
