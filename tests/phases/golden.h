// Golden-file comparison for generated manifests: tests/phases/testdata/golden/<name>.
// KKADM_UPDATE_GOLDEN=1 rewrites the files instead (review the diff before committing).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/fakes/source_dir.h"

namespace kkadm::testing {

inline std::string GoldenPath(const std::string& name) {
  return (SourceDir() / "tests" / "phases" / "testdata" / "golden" / name).string();
}

inline void ExpectGolden(const std::string& name, const std::string& actual) {
  const std::string path = GoldenPath(name);
  const char* update = std::getenv("KKADM_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file " << path;
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(actual, expected.str()) << "golden file " << path << " differs";
}

}  // namespace kkadm::testing
