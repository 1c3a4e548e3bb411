// Host: every way out of the process, bundled so command data carries one reference. A command
// builds it once (cmd/host_factory), real or dry-run; tests build it over fakes.
#pragma once

#include "app/util/clock.h"
#include "app/util/file_system.h"
#include "app/util/init_system.h"
#include "app/util/machine.h"
#include "app/util/mounter.h"
#include "app/util/terminal.h"
#include "app/util/tree_remover.h"

namespace kkadm::util {

class Network;  // app/util/network.h: callers that make clients include it

struct Host {
  FileSystem& fs;        // the node's files, under --rootfs
  InitSystem& init;      // systemd
  Clock& clock;          // time and sleeping
  Machine& machine;      // this machine's facts and environment
  Mounter& mounter;      // mount points under the node's directories
  TreeRemover& remover;  // deleting node trees without following links (reset)
  Terminal& terminal;    // the user at the keyboard (reset's question)
  Network& net;          // HTTP(S), Kubernetes API and etcd clients
};

}  // namespace kkadm::util
