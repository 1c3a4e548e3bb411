// Test helper: the YAML fixtures under tests/config/testdata as ConfigSources.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/config/load.h"
#include "tests/fakes/source_dir.h"

namespace kkadm::testing {

inline config::ConfigSource Testdata(const std::string& name) {
  std::filesystem::path path = SourceDir() / "tests" / "config" / "testdata" / name;
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return config::ConfigSource{name, text.str()};
}

}  // namespace kkadm::testing
