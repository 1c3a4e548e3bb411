// Escaping outside text for messages (see printable.h).
#include "app/util/printable.h"

#include <fmt/format.h>

#include <cstdint>

namespace kkadm::util {
namespace {

// The code point of the valid sequence of `length` bytes at the start of `text`.
char32_t DecodeUtf8(std::string_view text, std::size_t length) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  if (length == 1) return byte(0);
  char32_t c = byte(0) & (0xff >> (length + 1));
  for (std::size_t i = 1; i < length; ++i) c = (c << 6) | (byte(i) & 0x3f);
  return c;
}

// Code points a terminal acts on or that change how the text around them looks.
bool IsNonPrintable(char32_t c) {
  return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029 ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff;
}

std::string Escaped(char32_t c) {
  switch (c) {
    case '\n':
      return "\\n";
    case '\t':
      return "\\t";
    case '\r':
      return "\\r";
    default:
      return c < 0x80 ? fmt::format("\\x{:02x}", static_cast<unsigned>(c))
                      : fmt::format("\\u{:04x}", static_cast<unsigned>(c));
  }
}

}  // namespace

std::size_t Utf8SequenceLength(std::string_view text) {
  if (text.empty()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  const std::size_t length = lead >= 0xc2 && lead <= 0xdf   ? 2
                             : lead >= 0xe0 && lead <= 0xef ? 3
                             : lead >= 0xf0 && lead <= 0xf4 ? 4
                                                            : 0;
  if (length == 0 || text.size() < length) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xc0) != 0x80) return 0;
  }
  // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
  const unsigned char second = byte(1);
  if ((lead == 0xe0 && second < 0xa0) || (lead == 0xed && second > 0x9f) ||
      (lead == 0xf0 && second < 0x90) || (lead == 0xf4 && second > 0x8f)) {
    return 0;
  }
  return length;
}

std::string EscapeNonPrintable(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const std::size_t length = Utf8SequenceLength(text);
    if (length == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[0]));
      text.remove_prefix(1);
      continue;
    }
    const char32_t c = DecodeUtf8(text, length);
    if (IsNonPrintable(c) && !(keep_newlines && c == '\n')) {
      out += Escaped(c);
    } else {
      out.append(text.substr(0, length));
    }
    text.remove_prefix(length);
  }
  return out;
}

std::string Quote(std::string_view text) {
  std::string raw;
  raw.reserve(text.size());
  for (char c : text) {
    if (c == '"' || c == '\\') raw += '\\';
    raw += c;
  }
  return "\"" + EscapeNonPrintable(raw) + "\"";
}

}  // namespace kkadm::util
