// How a string is written in YAML, as go-yaml v2 writes it (see scalar.h): encode.go's stringv
// picks plain, double-quoted or literal; the emitter's scalar analysis (libyaml's) falls back
// from plain to single-quoted to double-quoted when the text does not allow the style.
#include <cstdio>
#include <string>

#include "app/util/yaml/scalar.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::util::yaml {
namespace {

// The length of the UTF-8 sequence `lead` starts; 0 for a byte that starts none.
size_t SequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 0;
}

// One character: its bytes, or a single byte where the text is not valid UTF-8.
std::string_view CharAt(std::string_view s, size_t i) {
  const size_t n = SequenceLength(static_cast<unsigned char>(s[i]));
  if (n == 0 || i + n > s.size()) return s.substr(i, 1);
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return s.substr(i, 1);
  }
  return s.substr(i, n);
}

// libyaml's is_printable: line feed, printable ASCII and the BMP outside the surrogates, the
// byte order mark and U+FFFE/U+FFFF. Characters beyond the BMP are not printable to libyaml.
bool IsPrintable(std::string_view c) {
  const auto b = [c](size_t k) { return static_cast<unsigned char>(c[k]); };
  if (c.size() == 1) return b(0) == 0x0A || (b(0) >= 0x20 && b(0) <= 0x7E);
  if (c.size() == 2) return b(0) > 0xC2 || (b(0) == 0xC2 && b(1) >= 0xA0);
  if (c.size() != 3) return false;
  if (b(0) == 0xED) return b(1) < 0xA0;
  if (b(0) != 0xEF) return true;
  return !(b(1) == 0xBB && b(2) == 0xBF) && !(b(1) == 0xBF && b(2) >= 0xBE);
}

// libyaml's is_break: \r, \n, U+0085, U+2028, U+2029.
bool IsBreak(std::string_view c) {
  return c == "\r" || c == "\n" || c == "\u0085" || c == "\u2028" || c == "\u2029";
}

// What the emitter's analysis allows for a text in block context.
struct Allowed {
  bool multiline = false;
  bool plain = true;
  bool single_quoted = true;
  bool block = true;
  bool other_breaks = false;  // a break other than \n
};

// Indicators that stop a plain scalar: at the start, and anywhere.
bool StopsPlain(std::string_view s, size_t i, bool preceded_by_blank) {
  const bool followed_by_blank = i + 1 >= s.size() || s[i + 1] == ' ' || s[i + 1] == '\t';
  if (i == 0) {
    if (std::string_view("#,[]{}&*!|>'\"%@`").find(s[0]) != std::string_view::npos) return true;
    return (s[0] == '?' || s[0] == ':' || s[0] == '-') && followed_by_blank;
  }
  return (s[i] == ':' && followed_by_blank) || (s[i] == '#' && preceded_by_blank);
}

// yaml_emitter_analyze_scalar, for block context.
Allowed Analyze(std::string_view s) {
  Allowed a;
  if (s.empty()) return {.plain = true, .block = false};
  bool indicators = s.starts_with("---") || s.starts_with("...");
  bool special = false, space_break = false, break_space = false;
  bool previous_space = false, previous_break = false, preceded_by_blank = true;
  for (size_t i = 0; i < s.size();) {
    const std::string_view c = CharAt(s, i);
    indicators = indicators || StopsPlain(s, i, preceded_by_blank);
    special = special || !IsPrintable(c);
    const bool is_break = IsBreak(c);
    a.multiline = a.multiline || is_break;
    a.other_breaks = a.other_breaks || (is_break && c != "\n");
    space_break = space_break || (is_break && previous_space);
    break_space = break_space || (c == " " && previous_break);
    previous_space = c == " ";
    previous_break = is_break;
    preceded_by_blank = c == " " || c == "\t" || is_break;
    i += c.size();
  }
  // Leading and trailing breaks make the text multi-line, which rules plain out already.
  const bool edge_space = s.front() == ' ' || s.back() == ' ';
  a.plain = !edge_space && !break_space && !space_break && !special && !a.multiline && !indicators;
  a.single_quoted = !break_space && !space_break && !special;
  a.block = s.back() != ' ' && !space_break && !special;
  return a;
}

std::string Hex(unsigned value, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%0*X", digits, value);
  return buf;
}

// The code point of a valid UTF-8 sequence.
unsigned CodePoint(std::string_view c) {
  const auto b = [c](size_t k) { return static_cast<unsigned>(static_cast<unsigned char>(c[k])); };
  if (c.size() == 1) return b(0);
  unsigned v = b(0) & (0x7F >> c.size());
  for (size_t k = 1; k < c.size(); ++k) v = (v << 6) | (b(k) & 0x3F);
  return v;
}

// libyaml's escape of one character in a double-quoted scalar: a name where YAML has one, else
// \xXX, \uXXXX or \UXXXXXXXX. Not the names \N (U+0085) and \_ (U+00A0): yaml-cpp reads them
// back as lone bytes that are not UTF-8 (found by the yaml_round_trip fuzz target); \x85 and \xA0
// mean the same to every YAML reader.
std::string Escape(std::string_view c) {
  if (c.size() == 1 && SequenceLength(static_cast<unsigned char>(c[0])) != 1) {
    return "\\x" + Hex(static_cast<unsigned char>(c[0]), 2);  // not UTF-8: the byte itself
  }
  struct Named {
    unsigned code;
    char name;
  };
  static constexpr Named kNamed[] = {
      {0x00, '0'}, {0x07, 'a'}, {0x08, 'b'}, {0x09, 't'},  {0x0A, 'n'},   {0x0B, 'v'},  {0x0C, 'f'},
      {0x0D, 'r'}, {0x1B, 'e'}, {0x22, '"'}, {0x5C, '\\'}, {0x2028, 'L'}, {0x2029, 'P'}};
  const unsigned v = CodePoint(c);
  for (const Named& named : kNamed) {
    if (named.code == v) return std::string("\\") + named.name;
  }
  if (v <= 0xFF) return "\\x" + Hex(v, 2);
  if (v <= 0xFFFF) return "\\u" + Hex(v, 4);
  return "\\U" + Hex(v, 8);
}

std::string DoubleQuoted(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const std::string_view c = CharAt(s, i);
    const bool escape = !IsPrintable(c) || c == "\uFEFF" || IsBreak(c) || c == "\"" || c == "\\";
    out += escape ? Escape(c) : std::string(c);
    i += c.size();
  }
  return out + "\"";
}

std::string SingleQuoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// A literal block: the header with its indentation and chomping indicators, then each line at
// `indent` + 2 (empty lines stay empty); the final line break is the caller's.
std::string Literal(std::string_view s, int indent) {
  std::string out = "|";
  if (s.front() == ' ' || s.front() == '\n') out += '2';
  if (s.back() != '\n') {
    out += '-';
  } else if (s.size() == 1 || s[s.size() - 2] == '\n') {
    out += '+';
  }
  out += '\n';
  const std::string pad(static_cast<size_t>(indent) + 2, ' ');
  for (size_t start = 0; start <= s.size();) {
    const size_t end = std::min(s.find('\n', start), s.size());
    if (end > start) out += pad + std::string(s.substr(start, end - start));
    if (end == s.size()) break;
    out += '\n';
    start = end + 1;
  }
  if (out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace

std::string ScalarText(std::string_view text, ScalarPlace place, int indent) {
  enum class Style { kPlain, kSingle, kDouble, kLiteral };
  const Allowed allowed = Analyze(text);
  Style style = text.find('\n') != std::string_view::npos ? Style::kLiteral
                : ReadsAsNonString(text)                  ? Style::kDouble
                                                          : Style::kPlain;
  if (style == Style::kPlain && !allowed.plain) style = Style::kSingle;
  if (style == Style::kSingle && !allowed.single_quoted) style = Style::kDouble;
  if (style == Style::kLiteral && !allowed.block) style = Style::kDouble;
  // A simple key stays on one line. go-yaml keeps U+2028 and U+2029 raw in single quotes and
  // blocks, where YAML 1.1 readers take them for line breaks; escaped, they read back as written.
  if (allowed.other_breaks || (place == ScalarPlace::kKey && allowed.multiline)) {
    style = Style::kDouble;
  }
  switch (style) {
    case Style::kPlain:
      return std::string(text);
    case Style::kSingle:
      return SingleQuoted(text);
    case Style::kLiteral:
      return Literal(text, indent);
    case Style::kDouble:
      break;
  }
  return DoubleQuoted(text);
}

std::string StringScalar(std::string_view text) { return ScalarText(text, ScalarPlace::kKey, 0); }

}  // namespace kkadm::util::yaml
