// Go's text/tabwriter, for the tables kkadm prints (see tab_writer.h).
#include "app/util/tab_writer.h"

#include <algorithm>

namespace kkadm::util {

std::string TabWrite(const std::vector<std::vector<std::string>>& rows, std::size_t min_width) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    for (std::size_t i = 0; i + 1 < row.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      widths[i] = std::max({widths[i], row[i].size() + 3, min_width});
    }
  }
  std::string out;
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      out += row[i];
      if (i + 1 < row.size() && row[i].size() < widths[i]) {
        out.append(widths[i] - row[i].size(), ' ');
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace kkadm::util
