// Reading a file of this machine that kkadm takes as input (--config, --discovery-file, a patch),
// not a node path: bounded, and only when it is a regular file.
#pragma once

#include <cstddef>
#include <string>

#include "app/util/status.h"

namespace kkadm::util {

// The content of `path`, opened without blocking and checked to be a regular file before a byte
// is read: a directory, a FIFO (which would wait for a writer) or a device (/dev/zero never ends)
// is refused at once, and so is a file longer than `max_bytes` (after reading that much and one
// byte more, never the rest). InvalidArgument whose message is the reason alone: "a FIFO",
// "No such file or directory", "over the limit of 4194304 bytes".
Result<std::string> ReadInputFile(const std::string& path, std::size_t max_bytes);

}  // namespace kkadm::util
