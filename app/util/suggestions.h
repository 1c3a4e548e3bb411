// "Did you mean this?": the names close to a mistyped one, by cobra's rule, for every place that
// refuses a name from a list (commands, phases, --skip-phases, --ignore-preflight-errors).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kkadm::util {

// The candidates within a Levenshtein distance of 2 of `typed`, or that start with it, compared
// without case (cobra's SuggestionsFor), in the candidates' order.
std::vector<std::string> SuggestionsFor(std::string_view typed,
                                        const std::vector<std::string>& candidates);

// Cobra's block after an unknown command: "\n\nDid you mean this?\n\t<name>\n" per suggestion;
// "" when there is none.
std::string DidYouMeanBlock(const std::vector<std::string>& suggestions);

// The same inside a one-line error: " (did you mean \"a\" or \"b\"?)"; "" when there is none.
std::string DidYouMeanClause(const std::vector<std::string>& suggestions);

// DidYouMeanClause of the names of `valid` close to `typed`.
std::string DidYouMeanHint(const std::string& typed, const std::vector<std::string>& valid);

}  // namespace kkadm::util
