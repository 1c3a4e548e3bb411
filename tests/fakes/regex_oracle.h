// Test helper: checking a hand-written matcher against the std::regex it replaced, over
// hand-picked cases, every short string of a small alphabet and random near-misses of valid text.
#pragma once

#include <cstddef>
#include <random>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace kkadm::testing {

// Every string of length 0..max_length over `alphabet`.
inline std::vector<std::string> AllStrings(std::string_view alphabet, size_t max_length) {
  std::vector<std::string> out = {""};
  for (size_t begin = 0, length = 1; length <= max_length; ++length) {
    const size_t end = out.size();
    for (size_t i = begin; i < end; ++i) {
      for (char c : alphabet) out.push_back(out[i] + c);
    }
    begin = end;
  }
  return out;
}

// `count` strings from a fixed-seed generator: a seed with one to three characters replaced,
// inserted or removed (characters drawn from `alphabet`), or, one time in four, a random string
// over `alphabet` as long as a seed.
inline std::vector<std::string> Mutations(const std::vector<std::string>& seeds,
                                          std::string_view alphabet, size_t count) {
  std::mt19937 random(20240611);
  auto below = [&random](size_t n) { return n == 0 ? size_t{0} : size_t{random() % n}; };
  std::vector<std::string> out;
  while (out.size() < count) {
    std::string s = seeds[below(seeds.size())];
    if (below(4) == 0) {
      std::string fresh;
      for (size_t n = below(s.size() + 2); n > 0; --n) fresh += alphabet[below(alphabet.size())];
      out.push_back(fresh);
      continue;
    }
    for (size_t edits = 1 + below(3); edits > 0; --edits) {
      const size_t at = below(s.size() + 1);
      const char c = alphabet[below(alphabet.size())];
      switch (below(3)) {
        case 0:
          if (at < s.size()) s[at] = c;
          break;
        case 1:
          s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        default:
          if (at < s.size()) s.erase(at, 1);
      }
    }
    out.push_back(s);
  }
  return out;
}

// The hand-picked `cases`, every string up to `max_length` over `alphabet`, and `count` mutations
// of the cases.
inline std::vector<std::string> OracleInputs(const std::vector<std::string>& cases,
                                             std::string_view alphabet, size_t max_length,
                                             size_t count = 20000) {
  std::vector<std::string> out = cases;
  for (std::string& s : AllStrings(alphabet, max_length)) out.push_back(std::move(s));
  for (std::string& s : Mutations(cases, alphabet, count)) out.push_back(std::move(s));
  return out;
}

// The inputs (at most 10) where `matcher` and a whole-text match of `pattern` disagree.
template <class Matcher>
std::vector<std::string> RegexDisagreements(const std::string& pattern,
                                            const std::vector<std::string>& inputs,
                                            Matcher matcher) {
  const std::regex oracle(pattern);
  std::vector<std::string> out;
  for (const std::string& input : inputs) {
    if (static_cast<bool>(matcher(input)) != std::regex_match(input, oracle)) out.push_back(input);
    if (out.size() == 10) break;
  }
  return out;
}

}  // namespace kkadm::testing
