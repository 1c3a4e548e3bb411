// Go duration parse/format at millisecond precision.
#include "app/util/duration.h"

#include <cstdint>
#include <optional>

namespace kkadm::util {
namespace {

// Nanoseconds per unit, so that fractions like "1.5us" are handled exactly before truncation.
std::optional<double> UnitNanos(std::string_view unit) {
  if (unit == "ns") return 1.0;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  if (unit == "m") return 60e9;
  if (unit == "h") return 3600e9;
  return std::nullopt;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

Status Invalid(std::string_view text) {
  return InvalidArgument("time: invalid duration \"" + std::string(text) + "\"");
}

}  // namespace

Result<std::chrono::milliseconds> ParseDuration(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::milliseconds(0);
  if (s.empty()) return Invalid(text);
  long double total_ns = 0;
  while (!s.empty()) {
    size_t i = 0;
    long double value = 0;
    bool digits = false;
    while (i < s.size() && IsDigit(s[i])) value = value * 10 + (s[i++] - '0'), digits = true;
    if (i < s.size() && s[i] == '.') {
      ++i;
      long double scale = 0.1L;
      while (i < s.size() && IsDigit(s[i])) value += (s[i++] - '0') * scale, scale /= 10, digits = true;
    }
    if (!digits) return Invalid(text);
    size_t unit_start = i;
    while (i < s.size() && !IsDigit(s[i]) && s[i] != '.') ++i;
    auto unit = UnitNanos(s.substr(unit_start, i - unit_start));
    if (!unit) {
      if (unit_start == i) return InvalidArgument("time: missing unit in duration \"" + std::string(text) + "\"");
      return InvalidArgument("time: unknown unit \"" + std::string(s.substr(unit_start, i - unit_start)) +
                             "\" in duration \"" + std::string(text) + "\"");
    }
    total_ns += value * static_cast<long double>(*unit);
    s.remove_prefix(i);
  }
  if (total_ns > 9.2e18L) return Invalid(text);
  auto ms = static_cast<std::int64_t>(total_ns / 1e6L + 1e-9L);
  return std::chrono::milliseconds(negative ? -ms : ms);
}

std::string FormatDuration(std::chrono::milliseconds duration) {
  std::int64_t ms = duration.count();
  if (ms == 0) return "0s";
  std::string sign = ms < 0 ? "-" : "";
  std::uint64_t u = ms < 0 ? static_cast<std::uint64_t>(-(ms + 1)) + 1 : static_cast<std::uint64_t>(ms);
  if (u < 1000) return sign + std::to_string(u) + "ms";
  std::uint64_t hours = u / 3600000, minutes = (u / 60000) % 60, seconds = (u / 1000) % 60;
  std::uint64_t frac = u % 1000;
  std::string sec = std::to_string(seconds);
  if (frac != 0) {
    std::string f = std::to_string(frac);
    f = std::string(3 - f.size(), '0') + f;
    while (f.back() == '0') f.pop_back();
    sec += "." + f;
  }
  std::string out = sign;
  if (hours > 0) out += std::to_string(hours) + "h";
  if (hours > 0 || minutes > 0) out += std::to_string(minutes) + "m";
  return out + sec + "s";
}

}  // namespace kkadm::util
