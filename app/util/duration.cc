// Go duration parse/format (see duration.h), parsing as Go's time.ParseDuration does: integer
// nanoseconds, with Go's overflow rules.
#include "app/util/duration.h"

#include <cstdint>
#include <optional>

#include "app/util/ascii.h"

namespace kkadm::util {
namespace {

// 1<<63: the magnitude of the most negative duration; positive ones stay below it.
constexpr std::uint64_t kMaxMagnitude = std::uint64_t{1} << 63;

std::optional<std::uint64_t> UnitNanos(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1000;  // u, µ, μ
  if (unit == "ms") return 1000 * 1000;
  if (unit == "s") return 1000 * 1000 * 1000;
  if (unit == "m") return std::uint64_t{60} * 1000 * 1000 * 1000;
  if (unit == "h") return std::uint64_t{3600} * 1000 * 1000 * 1000;
  return std::nullopt;
}

// Go's leadingInt: takes the digits at the front of `s` into `value`; false on overflow.
bool LeadingInt(std::string_view& s, std::uint64_t& value) {
  value = 0;
  for (; !s.empty() && IsAsciiDigit(s.front()); s.remove_prefix(1)) {
    if (value > kMaxMagnitude / 10) return false;
    value = value * 10 + static_cast<std::uint64_t>(s.front() - '0');
    if (value > kMaxMagnitude) return false;
  }
  return true;
}

// Go's leadingFraction: takes the digits at the front of `s`; the value is `digits / scale`.
// Digits past what a uint64 holds are read and dropped.
void LeadingFraction(std::string_view& s, std::uint64_t& digits, double& scale) {
  digits = 0;
  scale = 1;
  bool overflow = false;
  for (; !s.empty() && IsAsciiDigit(s.front()); s.remove_prefix(1)) {
    if (overflow) continue;
    const std::uint64_t next = digits * 10 + static_cast<std::uint64_t>(s.front() - '0');
    if (digits > (kMaxMagnitude - 1) / 10 || next > kMaxMagnitude) {
      overflow = true;
      continue;
    }
    digits = next;
    scale *= 10;
  }
}

std::string GoQuote(std::string_view text) { return "\"" + std::string(text) + "\""; }

Status InvalidDuration(std::string_view text) {
  return InvalidArgument("time: invalid duration " + GoQuote(text));
}

// One <decimal><unit> at the front of `s`, taken and added to `total` (nanoseconds).
Status AddPart(std::string_view& s, std::string_view text, std::uint64_t& total) {
  if (!IsAsciiDigit(s.front()) && s.front() != '.') return InvalidDuration(text);
  const size_t before = s.size();
  std::uint64_t whole = 0;
  if (!LeadingInt(s, whole)) return InvalidDuration(text);
  bool digits = s.size() != before;
  std::uint64_t fraction = 0;
  double scale = 1;
  if (!s.empty() && s.front() == '.') {
    s.remove_prefix(1);
    const size_t at = s.size();
    LeadingFraction(s, fraction, scale);
    digits = digits || s.size() != at;
  }
  if (!digits) return InvalidDuration(text);  // ".s"
  size_t n = 0;
  while (n < s.size() && s[n] != '.' && !IsAsciiDigit(s[n])) ++n;
  if (n == 0) return InvalidArgument("time: missing unit in duration " + GoQuote(text));
  const std::optional<std::uint64_t> unit = UnitNanos(s.substr(0, n));
  if (!unit) {
    return InvalidArgument("time: unknown unit " + GoQuote(s.substr(0, n)) + " in duration " +
                           GoQuote(text));
  }
  s.remove_prefix(n);
  if (whole > kMaxMagnitude / *unit) return InvalidDuration(text);
  whole *= *unit;
  // A double is exact enough here: fraction * unit / scale is below an hour in nanoseconds.
  whole += static_cast<std::uint64_t>(static_cast<double>(fraction) *
                                      (static_cast<double>(*unit) / scale));
  total += whole;
  if (whole > kMaxMagnitude || total > kMaxMagnitude) return InvalidDuration(text);
  return Status();
}

}  // namespace

Result<std::chrono::milliseconds> ParseDuration(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::milliseconds(0);
  if (s.empty()) return InvalidDuration(text);
  std::uint64_t nanos = 0;
  while (!s.empty()) KKADM_RETURN_IF_ERROR(AddPart(s, text, nanos));
  if (!negative && nanos == kMaxMagnitude) return InvalidDuration(text);
  auto ms = static_cast<std::int64_t>(nanos / 1000000);
  if (ms == 0 && nanos != 0) ms = 1;
  return std::chrono::milliseconds(negative ? -ms : ms);
}

std::string FormatDuration(std::chrono::milliseconds duration) {
  std::int64_t ms = duration.count();
  if (ms == 0) return "0s";
  std::string sign = ms < 0 ? "-" : "";
  std::uint64_t u =
      ms < 0 ? static_cast<std::uint64_t>(-(ms + 1)) + 1 : static_cast<std::uint64_t>(ms);
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

std::string ShortHumanDuration(std::chrono::milliseconds duration) {
  const long long s = std::chrono::duration_cast<std::chrono::seconds>(duration).count();
  if (s < -1) return "<invalid>";
  if (s < 0) return "0s";
  if (s < 60) return std::to_string(s) + "s";
  if (s < 3600) return std::to_string(s / 60) + "m";
  if (s < 86400) return std::to_string(s / 3600) + "h";
  if (s < 86400LL * 365) return std::to_string(s / 86400) + "d";
  return std::to_string(s / 86400 / 365) + "y";
}

}  // namespace kkadm::util
