// Small string helpers written once: joining, Go's %v of a []string, splitting at commas.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kkadm::util {

// The items with `separator` between them (Go's strings.Join); "" for none.
std::string Join(const std::vector<std::string>& items, std::string_view separator);

// Go's fmt %v of a []string, as kubeadm prints lists: "[a b c]", "[]" for none.
std::string GoList(const std::vector<std::string>& items);

// Splits at every comma, keeping empty parts and spaces (Go's strings.Split(text, ",")): "" gives
// one empty part.
std::vector<std::string> SplitComma(std::string_view text);

}  // namespace kkadm::util
