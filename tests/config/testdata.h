// Test helper: the YAML fixtures under tests/config/testdata as ConfigSources.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/config/load.h"

namespace kkadm::testing {

inline config::ConfigSource Testdata(const std::string& name) {
  std::filesystem::path path = std::filesystem::path(__FILE__).parent_path() / "testdata" / name;
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return config::ConfigSource{name, text.str()};
}

}  // namespace kkadm::testing
