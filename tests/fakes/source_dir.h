// Where the kkadm source tree is, for tests that read files kept beside them (testdata, golden
// files, test servers, the schema validator).
#pragma once

#include <cstdlib>
#include <filesystem>

namespace kkadm::testing {

// ctest passes KKADM_SOURCE_DIR (tests/CMakeLists.txt). Without it, this header's own path says:
// absolute when CMake's absolute paths reach the compiler, but relative to the build directory
// when something rewrites them (ccache's base_dir does), hence the environment first.
inline std::filesystem::path SourceDir() {
  if (const char* env = std::getenv("KKADM_SOURCE_DIR"); env != nullptr && *env != '\0') return env;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
}

}  // namespace kkadm::testing
