// What a plain YAML scalar means, as go-yaml v2's resolve.go decides it (see scalar.h).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string>

#include "app/util/ascii.h"
#include "app/util/yaml/scalar.h"

namespace kkadm::util::yaml {
namespace {

using Kind = PlainValue::Kind;

template <size_t N>
bool OneOf(std::string_view s, const std::string_view (&words)[N]) {
  return std::find(std::begin(words), std::end(words), s) != std::end(words);
}

// resolve.go's resolveMap. Its "<<" (merge key) entry is never looked up: '<' starts no hint.
std::optional<PlainValue> Word(std::string_view s) {
  static constexpr std::string_view kTrue[] = {"y",    "Y",    "yes", "Yes", "YES", "true",
                                               "True", "TRUE", "on",  "On",  "ON"};
  static constexpr std::string_view kFalse[] = {"n",     "N",     "no",  "No",  "NO", "false",
                                                "False", "FALSE", "off", "Off", "OFF"};
  static constexpr std::string_view kNull[] = {"", "~", "null", "Null", "NULL"};
  static constexpr std::string_view kNonFinite[] = {".nan",  ".NaN",  ".NAN",  ".inf",
                                                    ".Inf",  ".INF",  "+.inf", "+.Inf",
                                                    "+.INF", "-.inf", "-.Inf", "-.INF"};
  if (OneOf(s, kTrue)) return PlainValue{.kind = Kind::kBool, .boolean = true};
  if (OneOf(s, kFalse)) return PlainValue{.kind = Kind::kBool, .boolean = false};
  if (OneOf(s, kNull)) return PlainValue{.kind = Kind::kNull};
  if (OneOf(s, kNonFinite)) return PlainValue{.kind = Kind::kNonFinite};
  return std::nullopt;
}

// strconv.ParseUint(s, 0, 64) of text without '_': 0x, 0o or 0b (either case) before a digit, or
// a leading 0 (octal), picks the base.
std::optional<std::uint64_t> ParseGoUint(std::string_view s) {
  if (s.empty()) return std::nullopt;
  unsigned base = 10;
  if (s[0] == '0') {
    const char prefix = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : '0';
    const bool named = prefix == 'x' || prefix == 'o' || prefix == 'b';
    base = prefix == 'x' ? 16 : prefix == 'b' ? 2 : 8;
    s.remove_prefix(named ? 2 : 1);
  }
  std::uint64_t value = 0;
  for (char c : s) {
    const unsigned digit = IsAsciiDigit(c)   ? static_cast<unsigned>(c - '0')
                           : IsAsciiAlpha(c) ? static_cast<unsigned>((c | 0x20) - 'a' + 10)
                                             : 99;
    if (digit >= base || value > (UINT64_MAX - digit) / base) return std::nullopt;
    value = value * base + digit;
  }
  return value;
}

// strconv.ParseInt(s, 0, 64) of text without '_'.
std::optional<std::int64_t> ParseGoInt(std::string_view s) {
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  const std::optional<std::uint64_t> u = ParseGoUint(s);
  constexpr std::uint64_t kMinMagnitude = std::uint64_t{1} << 63;
  if (!u || *u > kMinMagnitude || (!negative && *u == kMinMagnitude)) return std::nullopt;
  return negative ? static_cast<std::int64_t>(0 - *u) : static_cast<std::int64_t>(*u);
}

// strconv.ParseFloat of yamlStyleFloat text; nothing when it overflows (Go's ErrRange).
std::optional<double> FiniteFloat(const std::string& s) {
  if (!IsYamlStyleFloat(s)) return std::nullopt;
  const double value = std::strtod(s.c_str(), nullptr);
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

// Plain text starting with a digit or a sign: a timestamp, an integer (int64, then uint64) or a
// float. resolve.go's 0b and -0b cases add nothing to the base prefixes ParseInt reads; larger
// integers are text (sigs.k8s.io/yaml v1.4.0, kubeadm 1.32's, has no big-integer case).
PlainValue Number(std::string_view s) {
  if (IsTimestamp(s)) return {.kind = Kind::kTimestamp};
  std::string plain(s);
  std::erase(plain, '_');
  if (std::optional<std::int64_t> i = ParseGoInt(plain)) return {.kind = Kind::kInt, .integer = *i};
  if (std::optional<std::uint64_t> u = ParseGoUint(plain)) {
    return {.kind = Kind::kUint, .unsigned_integer = *u};
  }
  if (std::optional<double> f = FiniteFloat(plain)) return {.kind = Kind::kFloat, .real = *f};
  return {};
}

// Text starting with '.': strconv.ParseFloat(text), which takes '_' only between digits.
PlainValue PointFloat(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_' && (i + 1 == s.size() || !IsAsciiDigit(s[i - 1]) || !IsAsciiDigit(s[i + 1]))) {
      return {};
    }
  }
  std::string plain(s);
  std::erase(plain, '_');
  if (std::optional<double> f = FiniteFloat(plain)) return {.kind = Kind::kFloat, .real = *f};
  return {};
}

// ([eE][-+]?[0-9]+)? and then the end of the text.
bool OptionalExponentThenEnd(Scanner& in) {
  if (in.AtEnd()) return true;
  if (!in.ConsumeAnyOf("eE")) return false;
  in.ConsumeAnyOf("+-");
  return !in.Span(IsAsciiDigit).empty() && in.AtEnd();
}

constexpr bool IsDigitOrUnderscore(char c) { return IsAsciiDigit(c) || c == '_'; }

// Go's getnum(value, false) in time.Parse: two digits when two follow, else one.
std::optional<int> TimeNumber(Scanner& in) {
  std::string_view digits = in.Fixed(2, IsAsciiDigit);
  if (digits.empty()) digits = in.Fixed(1, IsAsciiDigit);
  if (digits.empty()) return std::nullopt;
  return DigitsToInt(digits);
}

bool ValidDate(int year, int month, int day) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

// 15:4:5 and an optional fraction (.999999999 takes any number of digits after '.' or ',').
bool TimeOfDay(Scanner& in) {
  const std::optional<int> hour = TimeNumber(in);
  if (!hour || *hour > 23 || !in.Consume(':')) return false;
  const std::optional<int> minute = TimeNumber(in);
  if (!minute || *minute > 59 || !in.Consume(':')) return false;
  const std::optional<int> second = TimeNumber(in);
  if (!second || *second > 59) return false;
  Scanner fraction = in;
  if (fraction.ConsumeAnyOf(".,") && !fraction.Span(IsAsciiDigit).empty()) in = fraction;
  return true;
}

// Z07:00: "Z", or a sign and hh:mm (Go lets the offset reach 24 hours and 60 minutes).
bool Zone(Scanner& in) {
  if (in.Consume('Z')) return true;
  const std::string_view z = in.rest();
  if (z.size() < 6 || (z[0] != '+' && z[0] != '-') || z[3] != ':') return false;
  const std::optional<int> hours = DigitsToInt(z.substr(1, 2));
  const std::optional<int> minutes = DigitsToInt(z.substr(4, 2));
  if (!hours || !minutes || *hours > 24 || *minutes > 60) return false;
  return in.Consume(z.substr(0, 6));
}

}  // namespace

bool IsYamlStyleFloat(std::string_view text) {
  Scanner in(text);
  in.ConsumeAnyOf("+-");
  if (in.Consume('.')) {
    if (in.Span(IsAsciiDigit).empty()) return false;
  } else {
    if (in.Span(IsAsciiDigit).empty()) return false;
    if (in.Consume('.')) in.Span(IsAsciiDigit);
  }
  return OptionalExponentThenEnd(in);
}

bool IsBase60Float(std::string_view text) {
  Scanner in(text);
  in.ConsumeAnyOf("+-");
  if (in.Run(IsAsciiDigit, IsDigitOrUnderscore).empty()) return false;
  int places = 0;
  for (; in.Consume(':'); ++places) {
    std::string_view place = in.Span(IsAsciiDigit);
    if (place.empty() || place.size() > 2 || (place.size() == 2 && place[0] > '5')) return false;
  }
  if (places == 0) return false;
  if (in.Consume('.')) in.Span(IsDigitOrUnderscore);
  return in.AtEnd();
}

bool IsTimestamp(std::string_view text) {
  Scanner in(text);
  const std::string_view year = in.Fixed(4, IsAsciiDigit);
  if (year.empty() || !in.Consume('-')) return false;
  const std::optional<int> month = TimeNumber(in);
  if (!month || !in.Consume('-')) return false;
  const std::optional<int> day = TimeNumber(in);
  if (!day || !ValidDate(*DigitsToInt(year), *month, *day)) return false;
  if (in.AtEnd()) return true;
  if (in.ConsumeAnyOf("Tt")) return TimeOfDay(in) && Zone(in) && in.AtEnd();
  // Go's time.Parse takes a layout's space as one or more spaces.
  if (in.Span([](char c) { return c == ' '; }).empty()) return false;
  return TimeOfDay(in) && in.AtEnd();
}

PlainValue ResolvePlain(std::string_view text) {
  if (std::optional<PlainValue> word = Word(text)) return *word;
  // resolve.go's hint: only text starting like a number can be one.
  const char first = text.front();  // not empty: "" is a Word
  if (first == '.') return PointFloat(text);
  if (first == '+' || first == '-' || IsAsciiDigit(first)) return Number(text);
  return {};
}

bool ReadsAsNonString(std::string_view text) {
  return ResolvePlain(text).kind != PlainValue::Kind::kString || IsBase60Float(text);
}

}  // namespace kkadm::util::yaml
