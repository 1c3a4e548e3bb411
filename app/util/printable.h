// Text from outside (a config file, a join token, a server's reply) made safe to print: what
// cannot be shown as itself is escaped, so a message stays on one line and cannot drive the
// terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kkadm::util {

// The length of the valid UTF-8 sequence at the start of `text` (1 to 4), or 0 when it starts
// with an invalid or truncated one (overlong forms and surrogates are invalid).
std::size_t Utf8SequenceLength(std::string_view text);

// `text` with every character a terminal would act on instead of showing escaped, as Go's %q
// escapes them: C0 controls and DEL (\n, \t, \r, \x1b ...), C1 controls (\u009b), line and
// paragraph separators and bidirectional overrides (\u202e), and bytes that are not UTF-8 (\xff).
// Printable text, including non-ASCII letters, is kept. When `keep_newlines`, "\n" is kept (a
// message of several lines); nothing else is.
std::string EscapeNonPrintable(std::string_view text, bool keep_newlines = false);

// `text` in double quotes for a one-line message, escaped as EscapeNonPrintable does, with '"'
// and '\' escaped too: Go's %q for the characters kkadm meets.
std::string Quote(std::string_view text);

}  // namespace kkadm::util
