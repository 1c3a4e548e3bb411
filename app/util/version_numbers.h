// The numeric core of version strings, "<major>.<minor>.<patch>": the part kkadm's version checks
// share before each applies its own rules for a leading "v", leading zeros and what may follow.
#pragma once

#include <optional>
#include <string_view>

#include "app/util/ascii.h"

namespace kkadm::util {

struct VersionNumbers {
  std::string_view major;  // each a non-empty run of ASCII digits, as written
  std::string_view minor;
  std::string_view patch;
};

// Takes \d+\.\d+\.\d+ from `in` and returns the three runs; nullopt, with `in` unchanged, when the
// text does not continue so.
constexpr std::optional<VersionNumbers> ConsumeVersionNumbers(Scanner& in) {
  Scanner s = in;
  VersionNumbers v;
  v.major = s.Span(IsAsciiDigit);
  if (v.major.empty() || !s.Consume('.')) return std::nullopt;
  v.minor = s.Span(IsAsciiDigit);
  if (v.minor.empty() || !s.Consume('.')) return std::nullopt;
  v.patch = s.Span(IsAsciiDigit);
  if (v.patch.empty()) return std::nullopt;
  in = s;
  return v;
}

}  // namespace kkadm::util
