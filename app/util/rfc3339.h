// RFC 3339 times ("2006-01-02T15:04:05Z", "2006-01-02T15:04:05.5+02:00"), as bootstrap token
// expirations are written in configuration files and Secrets: reading them, and writing them as
// Go's time.RFC3339 layout does for a UTC time.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kkadm::util {

// Whether "t" and "z" stand for "T" and "Z". Configuration files accept both; Secrets only the
// upper case.
enum class Rfc3339Case { kUpper, kAny };

// The time `text` names when it is exactly
//   dddd-dd-ddTdd:dd:dd[.d+](Z|+dd:dd|-dd:dd)
// with ASCII digits; the fraction is dropped and the fields are not range-checked (timegm
// normalises "2024-13-01" to January 2025). nullopt when the text has another form.
// system_clock counts nanoseconds in 64 bits, so it holds the years 1678 to 2261 only (Go's time
// holds 0000 to 9999): a time outside saturates to the clock's first or last instant, which
// compares with now as the real time would (converting it was signed overflow, found by UBSan).
std::chrono::system_clock::time_point TimeFromSeconds(std::int64_t seconds_since_epoch);

std::optional<std::chrono::system_clock::time_point> ParseRfc3339(std::string_view text,
                                                                  Rfc3339Case letters);

// Go's t.UTC().Format(time.RFC3339): "2026-11-23T10:00:00Z", fractions of a second dropped.
std::string FormatRfc3339(std::chrono::system_clock::time_point time);
// The same with milliseconds (Go's time.RFC3339Nano cut to three digits): "...T10:00:00.042Z".
std::string FormatRfc3339Milli(std::chrono::system_clock::time_point time);

}  // namespace kkadm::util
