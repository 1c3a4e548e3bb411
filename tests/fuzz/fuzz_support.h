// What the fuzz targets share: the input as text, and the one way a target reports a broken
// property (a crash libFuzzer records, and the regression driver turns into a failed test).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace kkadm::fuzz {

inline std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Stops the process when a property the target checks does not hold: abort() is what libFuzzer
// and the sanitizers catch, with the input saved as the reproducer.
[[noreturn]] inline void PropertyFailed(std::string_view what, std::string_view detail = {}) {
  const std::string message =
      "fuzz property failed: " + std::string(what) + "\n" + std::string(detail) + "\n";
  std::fputs(message.c_str(), stderr);
  std::abort();
}

inline void Check(bool holds, std::string_view what, std::string_view detail = {}) {
  if (!holds) PropertyFailed(what, detail);
}

}  // namespace kkadm::fuzz
