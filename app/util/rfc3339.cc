// RFC 3339 time parsing and formatting (see rfc3339.h).
#include "app/util/rfc3339.h"

#include <cstdio>
#include <ctime>

#include "app/util/ascii.h"

namespace kkadm::util {
namespace {

// `digits` is a run of at most four ASCII digits.
int Number(std::string_view digits) { return DigitsToInt(digits).value_or(0); }

// Consumes `upper` or, with Rfc3339Case::kAny, its lower-case form.
bool ConsumeLetter(Scanner& in, char upper, Rfc3339Case letters) {
  return in.Consume(upper) ||
         (letters == Rfc3339Case::kAny && in.Consume(static_cast<char>(upper - 'A' + 'a')));
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> ParseRfc3339(std::string_view text,
                                                                  Rfc3339Case letters) {
  Scanner in(text);
  std::string_view year = in.Fixed(4, IsAsciiDigit);
  if (year.empty() || !in.Consume('-')) return std::nullopt;
  std::string_view month = in.Fixed(2, IsAsciiDigit);
  if (month.empty() || !in.Consume('-')) return std::nullopt;
  std::string_view day = in.Fixed(2, IsAsciiDigit);
  if (day.empty() || !ConsumeLetter(in, 'T', letters)) return std::nullopt;
  std::string_view hour = in.Fixed(2, IsAsciiDigit);
  if (hour.empty() || !in.Consume(':')) return std::nullopt;
  std::string_view minute = in.Fixed(2, IsAsciiDigit);
  if (minute.empty() || !in.Consume(':')) return std::nullopt;
  std::string_view second = in.Fixed(2, IsAsciiDigit);
  if (second.empty()) return std::nullopt;
  if (in.Consume('.') && in.Span(IsAsciiDigit).empty()) return std::nullopt;
  long offset = 0;  // seconds east of UTC
  if (!ConsumeLetter(in, 'Z', letters)) {
    const int sign = in.Consume('+') ? 1 : in.Consume('-') ? -1 : 0;
    std::string_view offset_hours = sign != 0 ? in.Fixed(2, IsAsciiDigit) : std::string_view();
    if (offset_hours.empty() || !in.Consume(':')) return std::nullopt;
    std::string_view offset_minutes = in.Fixed(2, IsAsciiDigit);
    if (offset_minutes.empty()) return std::nullopt;
    offset = sign * (Number(offset_hours) * 3600L + Number(offset_minutes) * 60L);
  }
  if (!in.AtEnd()) return std::nullopt;
  std::tm tm{};
  tm.tm_year = Number(year) - 1900;
  tm.tm_mon = Number(month) - 1;
  tm.tm_mday = Number(day);
  tm.tm_hour = Number(hour);
  tm.tm_min = Number(minute);
  tm.tm_sec = Number(second);
  return TimeFromSeconds(timegm(&tm) - offset);
}

std::chrono::system_clock::time_point TimeFromSeconds(std::int64_t seconds_since_epoch) {
  using Clock = std::chrono::system_clock;
  constexpr std::int64_t kFirst =
      std::chrono::duration_cast<std::chrono::seconds>(Clock::time_point::min().time_since_epoch())
          .count();
  constexpr std::int64_t kLast =
      std::chrono::duration_cast<std::chrono::seconds>(Clock::time_point::max().time_since_epoch())
          .count();
  if (seconds_since_epoch <= kFirst) return Clock::time_point::min();
  if (seconds_since_epoch >= kLast) return Clock::time_point::max();
  return Clock::time_point(std::chrono::seconds(seconds_since_epoch));
}

std::string FormatRfc3339(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(
      std::chrono::time_point_cast<std::chrono::seconds>(time));
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string FormatRfc3339Milli(std::chrono::system_clock::time_point time) {
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                          time.time_since_epoch() % std::chrono::seconds(1))
                          .count();
  std::string text = FormatRfc3339(time);
  char fraction[8];
  std::snprintf(fraction, sizeof fraction, ".%03d", static_cast<int>((millis + 1000) % 1000));
  return text.insert(text.size() - 1, fraction);
}

}  // namespace kkadm::util
