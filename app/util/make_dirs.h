// Creating directories with exact modes: what RealFileSystem (and anything else that makes
// directories on this machine) uses instead of std::filesystem::create_directories, whose modes
// depend on the umask (umask 000 made /etc/kubernetes and its pki directory 0777).
#pragma once

#include <string>

#include "app/util/node_root.h"
#include "app/util/status.h"

namespace kkadm::util {

// Creates `host_dir` and its missing parents, as `mkdir -p` would; each directory it creates gets
// exactly its mode whatever the umask: the last `mode`, the parents `parent_mode`. A directory
// that exists keeps its mode, as with kubeadm's os.MkdirAll (only a directory kkadm just made
// is chmod-ed). A symbolic link to a directory counts as one. FailedPrecondition naming the
// directory when one cannot be made or a component is not a directory.
Status MakeDirsWithModes(const std::string& host_dir, unsigned mode, unsigned parent_mode = 0755);

// MakeDirsWithModes for the node path `dir` under `root`: each component resolved inside the
// root (a link to a directory counts as one, its target taken in the root), each new directory
// made with mkdirat(2) in the descriptor of the one above it. The directory, opened (at least
// O_PATH: a descriptor for the *at calls).
Result<UniqueFd> MakeNodeDirs(const NodeRoot& root, const std::string& dir, unsigned mode,
                              unsigned parent_mode = 0755);

}  // namespace kkadm::util
