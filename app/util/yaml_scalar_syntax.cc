// Plain YAML scalar forms (see yaml_scalar_syntax.h), written with util::Scanner.
#include "app/util/yaml_scalar_syntax.h"

#include "app/util/ascii.h"

namespace kkadm::util {
namespace {

// YAML 1.1 lets '_' separate digits.
constexpr bool IsDigitOrUnderscore(char c) { return IsAsciiDigit(c) || c == '_'; }
constexpr bool IsBinaryOrUnderscore(char c) { return c == '0' || c == '1' || c == '_'; }
constexpr bool IsOctalOrUnderscore(char c) { return (c >= '0' && c <= '7') || c == '_'; }
constexpr bool IsHexOrUnderscore(char c) { return IsHexDigit(c) || c == '_'; }

// ([eE][-+]?[0-9]+)? and then the end of the text.
bool OptionalExponentThenEnd(Scanner& in) {
  if (in.AtEnd()) return true;
  if (!in.ConsumeAnyOf("eE")) return false;
  in.ConsumeAnyOf("+-");
  return !in.Span(IsAsciiDigit).empty() && in.AtEnd();
}

// One or more characters of `cls`, up to the end.
bool NonEmptyRestOf(const Scanner& in, CharClass cls) {
  return !in.AtEnd() && AllOf(in.rest(), cls);
}

// [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?
bool IsYamlBase60Float(std::string_view s) {
  Scanner in(s);
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

}  // namespace

bool IsYaml11Int(std::string_view s) {
  Scanner in(s);
  in.ConsumeAnyOf("+-");
  if (in.Consume("0b")) return NonEmptyRestOf(in, IsBinaryOrUnderscore);
  if (in.Consume("0x")) return NonEmptyRestOf(in, IsHexOrUnderscore);
  if (in.Consume("0o")) return NonEmptyRestOf(in, IsOctalOrUnderscore);
  // 0[0-7_]+ (octal) is a case of [0-9][0-9_]*.
  return !in.Run(IsAsciiDigit, IsDigitOrUnderscore).empty() && in.AtEnd();
}

bool IsYaml11Float(std::string_view s) {
  return IsYamlDecimalFloat(s, Underscores::kAllowed) || IsYamlInfOrNan(s) || IsYamlBase60Float(s);
}

bool IsYamlDecimalFloat(std::string_view s, Underscores underscores) {
  const CharClass digit_or_mark =
      underscores == Underscores::kAllowed ? IsDigitOrUnderscore : IsAsciiDigit;
  Scanner in(s);
  in.ConsumeAnyOf("+-");
  if (in.Consume('.')) {
    if (in.Span(IsAsciiDigit).empty()) return false;
  } else {
    if (in.Run(IsAsciiDigit, digit_or_mark).empty()) return false;
    if (in.Consume('.')) in.Span(digit_or_mark);
  }
  return OptionalExponentThenEnd(in);
}

bool IsYamlInfOrNan(std::string_view s) {
  const bool sign = !s.empty() && (s[0] == '+' || s[0] == '-');
  const std::string_view word = sign ? s.substr(1) : s;
  if (word == ".inf" || word == ".Inf" || word == ".INF") return true;
  return !sign && (word == ".nan" || word == ".NaN" || word == ".NAN");
}

bool IsYamlDecimalInt(std::string_view s) {
  Scanner in(s);
  in.ConsumeAnyOf("+-");
  if (in.Consume('0')) return in.AtEnd();
  return !in.Run(IsAsciiDigit, IsDigitOrUnderscore).empty() && in.AtEnd();
}

bool IsYamlHexInt(std::string_view s) {
  Scanner in(s);
  return in.Consume("0x") && NonEmptyRestOf(in, IsHexOrUnderscore);
}

bool IsYamlPointOrExponentFloat(std::string_view s) {
  Scanner point(s);
  point.ConsumeAnyOf("+-");
  point.Run(IsAsciiDigit, IsDigitOrUnderscore);
  if (point.Consume('.')) {
    point.Span(IsAsciiDigit);
    return OptionalExponentThenEnd(point);
  }
  Scanner exponent(s);
  exponent.ConsumeAnyOf("+-");
  return !exponent.Span(IsAsciiDigit).empty() && !exponent.AtEnd() &&
         OptionalExponentThenEnd(exponent);
}

bool LooksLikeYamlTimestamp(std::string_view s) {
  Scanner in(s);
  if (in.Fixed(4, IsAsciiDigit).empty() || !in.Consume('-')) return false;
  std::string_view month = in.Span(IsAsciiDigit);
  if (month.empty() || month.size() > 2 || !in.Consume('-')) return false;
  std::string_view day = in.Span(IsAsciiDigit);
  if (day.empty() || day.size() > 2) return false;
  return in.AtEnd() || (in.ConsumeAnyOf("Tt ") && AllOf(in.rest(), IsNotLineBreak));
}

}  // namespace kkadm::util
