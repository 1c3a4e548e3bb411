// ASCII character classes and a cursor that consumes text by them: what kkadm's syntax checks
// (tokens, versions, DNS names, YAML scalars, times) are written with.
//
// Hand-written rather than std::regex: libstdc++ compiles each bracket expression by asking the
// locale about all 256 characters, about a million instructions per pattern, and kkadm is a
// short-lived command that paid that on every run (a quarter of `kkadm init`'s instructions).
#pragma once

#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kkadm::util {

// Bytes >= 0x80 belong to no class, as with std::regex's [0-9] or \d in the "C" locale.
constexpr bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool IsAsciiLower(char c) { return c >= 'a' && c <= 'z'; }
constexpr bool IsAsciiUpper(char c) { return c >= 'A' && c <= 'Z'; }
constexpr bool IsAsciiAlpha(char c) { return IsAsciiLower(c) || IsAsciiUpper(c); }
constexpr bool IsAsciiAlnum(char c) { return IsAsciiAlpha(c) || IsAsciiDigit(c); }
constexpr bool IsLowerAlnum(char c) { return IsAsciiLower(c) || IsAsciiDigit(c); }
constexpr bool IsLowerHexDigit(char c) { return IsAsciiDigit(c) || (c >= 'a' && c <= 'f'); }
constexpr bool IsHexDigit(char c) { return IsLowerHexDigit(c) || (c >= 'A' && c <= 'F'); }
// What a regular expression's "." matches: every byte but a line break. Checks that replaced
// a pattern ending in ".*" keep rejecting a "\n" after the part they look at.
constexpr bool IsNotLineBreak(char c) { return c != '\n' && c != '\r'; }

// The value of `digits`, a non-empty run of ASCII digits; nullopt for any other text or a value
// beyond int.
inline std::optional<int> DigitsToInt(std::string_view digits) {
  int value = 0;
  const char* end = digits.data() + digits.size();
  if (digits.empty() || !IsAsciiDigit(digits.front())) return std::nullopt;
  const auto [stop, error] = std::from_chars(digits.data(), end, value);
  if (error != std::errc() || stop != end) return std::nullopt;
  return value;
}

// `text` with A-Z turned into a-z and every other byte kept.
inline std::string AsciiToLower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (IsAsciiUpper(c)) c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

// `text` without its leading and trailing ASCII whitespace (Go's strings.TrimSpace).
constexpr std::string_view TrimSpace(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const size_t begin = text.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(kSpace) - begin + 1);
}

using CharClass = bool (*)(char);

// True when every character of `text` is in `cls`, so also when `text` is empty.
constexpr bool AllOf(std::string_view text, CharClass cls) {
  for (char c : text) {
    if (!cls(c)) return false;
  }
  return true;
}

// Reads a text from the left. Each Consume either takes what it was asked for, or takes nothing
// and reports that, so a check is a chain of Consumes followed by AtEnd().
class Scanner {
 public:
  explicit constexpr Scanner(std::string_view text) : rest_(text) {}

  constexpr std::string_view rest() const { return rest_; }
  constexpr bool AtEnd() const { return rest_.empty(); }

  constexpr bool Consume(char c) {
    if (rest_.empty() || rest_.front() != c) return false;
    rest_.remove_prefix(1);
    return true;
  }
  constexpr bool Consume(std::string_view prefix) {
    if (rest_.substr(0, prefix.size()) != prefix) return false;
    rest_.remove_prefix(prefix.size());
    return true;
  }
  // Takes the next character when it is one of `chars` (a regex's [-+]).
  constexpr bool ConsumeAnyOf(std::string_view chars) {
    if (rest_.empty() || chars.find(rest_.front()) == std::string_view::npos) return false;
    rest_.remove_prefix(1);
    return true;
  }
  // Takes the longest run of characters in `cls`, possibly empty, and returns it.
  constexpr std::string_view Span(CharClass cls) {
    size_t n = 0;
    while (n < rest_.size() && cls(rest_[n])) ++n;
    std::string_view run = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return run;
  }
  // Takes one character in `first` and then the longest run in `then` (a regex's [0-9][0-9_]*),
  // and returns them; empty when the next character is not in `first`.
  constexpr std::string_view Run(CharClass first, CharClass then) {
    if (rest_.empty() || !first(rest_.front())) return {};
    const std::string_view start = rest_;
    rest_.remove_prefix(1);
    return start.substr(0, 1 + Span(then).size());
  }
  // Takes exactly `n` (> 0) characters in `cls` and returns them; empty when fewer follow.
  constexpr std::string_view Fixed(size_t n, CharClass cls) {
    if (rest_.size() < n || !AllOf(rest_.substr(0, n), cls)) return {};
    std::string_view run = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return run;
  }

 private:
  std::string_view rest_;
};

}  // namespace kkadm::util
