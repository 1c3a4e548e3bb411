// Reading a file of this machine that kkadm takes as input (--config, --discovery-file, a patch):
// bounded, and only when it is a regular file. Node files are read the same way (ReadRegularFile).
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

// ReadInputFile's checks and bounded read, for a file the caller opened (O_NONBLOCK, so that
// opening a FIFO did not wait): RealFileSystem reads node files through it. `fd` stays open.
Result<std::string> ReadRegularFile(int fd, std::size_t max_bytes);

}  // namespace kkadm::util
