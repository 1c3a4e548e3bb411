// Go's text/tabwriter as kubeadm and kubectl print their tables (minwidth 10, padding 3,
// padchar ' '): the one table writer of kkadm's text outputs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kkadm::util {

// Each row is a line of cells. Every cell but a line's last is padded with spaces to its column's
// width: the widest such cell of that column plus 3, at least `min_width` (kubeadm's and
// kubectl's 10; kkadm status's own tables take 0). A line's last cell is written as it is, so a
// row may end in spaces only when that cell does. All rows form one block: a blank line between
// two tables means two calls.
std::string TabWrite(const std::vector<std::vector<std::string>>& rows, std::size_t min_width = 10);

}  // namespace kkadm::util
