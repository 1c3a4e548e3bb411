// Small string helpers (see strings.h).
#include "app/util/strings.h"

namespace kkadm::util {

std::string Join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

std::string GoList(const std::vector<std::string>& items) { return "[" + Join(items, " ") + "]"; }

std::vector<std::string> SplitComma(std::string_view text) {
  std::vector<std::string> out;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    out.emplace_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

}  // namespace kkadm::util
