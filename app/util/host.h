// Host: the seams to the operating system, bundled so data structs carry one reference.
#pragma once

#include "app/util/clock.h"
#include "app/util/file_system.h"
#include "app/util/init_system.h"
#include "app/util/machine.h"

namespace kkadm::util {

struct Host {
  FileSystem& fs;
  InitSystem& init;
  Clock& clock;
  Machine& machine;
};

}  // namespace kkadm::util
