// Checks of a YAML text before it is parsed: its size and its characters (go-yaml v2's reader
// refuses what is not UTF-8 and control characters). Internal to app/util/yaml.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kkadm::util::yaml {

// Where a text first breaks a rule and why; `line` and `column` are 1-based, the column counted
// in bytes.
struct TextProblem {
  int line = 1;
  int column = 1;
  std::string reason;
};

// The first problem of `text`: bytes that are not UTF-8, or characters YAML does not allow
// (controls other than tab, line feed and carriage return; DEL; C1 controls other than NEL;
// U+FFFE, U+FFFF). A UTF-8 byte order mark may start the text. Texts starting with a UTF-16 byte
// order mark are left to the parser, which decodes them.
std::optional<TextProblem> FindBadCharacter(std::string_view text);

// True when the `line`-th line (0-based) of `text` is indented with a tab: YAML indents with
// spaces only, and the parser's own message does not say so.
bool IndentedWithTab(std::string_view text, int line);

}  // namespace kkadm::util::yaml
