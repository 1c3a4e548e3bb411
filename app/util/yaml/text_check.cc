// A YAML text's size and characters, checked before parsing (see text_check.h).
#include "app/util/yaml/text_check.h"

#include <fmt/format.h>

#include <algorithm>

#include "app/util/printable.h"

namespace kkadm::util::yaml {
namespace {

// go-yaml v2's is_printable, for one decoded character.
bool AllowedInYaml(char32_t c) {
  return c == 0x09 || c == 0x0a || c == 0x0d || (c >= 0x20 && c <= 0x7e) || c == 0x85 ||
         (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000;
}

char32_t CodePointOf(std::string_view sequence) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(sequence[i]); };
  if (sequence.size() == 1) return byte(0);
  char32_t c = byte(0) & (0xff >> (sequence.size() + 1));
  for (std::size_t i = 1; i < sequence.size(); ++i) c = (c << 6) | (byte(i) & 0x3f);
  return c;
}

TextProblem ProblemAt(std::string_view text, std::size_t offset, std::string reason) {
  const std::string_view before = text.substr(0, offset);
  const std::size_t line_start = before.rfind('\n');
  TextProblem problem;
  problem.line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
  problem.column =
      1 + static_cast<int>(line_start == std::string_view::npos ? offset : offset - line_start - 1);
  problem.reason = std::move(reason);
  return problem;
}

}  // namespace

std::optional<TextProblem> FindBadCharacter(std::string_view text) {
  if (text.starts_with("\xfe\xff") || text.starts_with("\xff\xfe")) return std::nullopt;
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {  // the common case, checked first
      ++i;
      continue;
    }
    const std::size_t length = Utf8SequenceLength(text.substr(i));
    if (length == 0) {
      return ProblemAt(text, i, fmt::format("invalid UTF-8 byte \\x{:02x}", byte));
    }
    const char32_t c = CodePointOf(text.substr(i, length));
    if (!AllowedInYaml(c)) {
      return ProblemAt(
          text, i,
          fmt::format("character U+{:04X} is not allowed in YAML", static_cast<unsigned>(c)));
    }
    i += length;
  }
  return std::nullopt;
}

bool IndentedWithTab(std::string_view text, int line) {
  std::size_t start = 0;
  for (int i = 0; i < line; ++i) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return false;
    ++start;
  }
  const std::size_t end = text.find_first_not_of(" \t", start);
  const std::string_view indent =
      text.substr(start, end == std::string_view::npos ? end : end - start);
  return indent.find('\t') != std::string_view::npos;
}

}  // namespace kkadm::util::yaml
