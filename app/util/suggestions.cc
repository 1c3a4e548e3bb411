// Suggestions for mistyped names (cobra's SuggestionsFor, SuggestionsMinimumDistance 2).
#include "app/util/suggestions.h"

#include <algorithm>
#include <numeric>

#include "app/util/ascii.h"

namespace kkadm::util {
namespace {

constexpr std::size_t kMaxDistance = 2;

std::size_t Levenshtein(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> SuggestionsFor(std::string_view typed,
                                        const std::vector<std::string>& candidates) {
  const std::string lower = AsciiToLower(typed);
  std::vector<std::string> out;
  for (const std::string& candidate : candidates) {
    const std::string name = AsciiToLower(candidate);
    if (Levenshtein(lower, name) <= kMaxDistance || name.rfind(lower, 0) == 0) {
      out.push_back(candidate);
    }
  }
  return out;
}

std::string DidYouMeanBlock(const std::vector<std::string>& suggestions) {
  if (suggestions.empty()) return "";
  std::string out = "\n\nDid you mean this?\n";
  for (const std::string& name : suggestions) out += "\t" + name + "\n";
  return out;
}

std::string DidYouMeanClause(const std::vector<std::string>& suggestions) {
  if (suggestions.empty()) return "";
  std::string out = " (did you mean ";
  for (std::size_t i = 0; i < suggestions.size(); ++i) {
    if (i > 0) out += i + 1 == suggestions.size() ? " or " : ", ";
    out += "\"" + suggestions[i] + "\"";
  }
  return out + "?)";
}

std::string DidYouMeanHint(const std::string& typed, const std::vector<std::string>& valid) {
  return DidYouMeanClause(SuggestionsFor(typed, valid));
}

}  // namespace kkadm::util
