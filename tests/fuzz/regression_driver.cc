// The fuzz targets without libFuzzer: feeds every file of the given directories (or the given
// files) to one target's LLVMFuzzerTestOneInput, in name order, so that the seed corpus and every
// input that once crashed or hung run as a plain ctest case in each build (no clang needed).
// Usage: kkadm_fuzz_regressions TARGET PATH... ; a missing directory holds no input.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_registry.h"

namespace {

// An input that takes longer than the fuzzers' -timeout (scripts/fuzz.sh) counts as a hang.
constexpr std::chrono::seconds kHang{10};

std::vector<std::filesystem::path> InputsOf(const std::vector<std::string>& paths) {
  std::vector<std::filesystem::path> inputs;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
      inputs.emplace_back(path);
      continue;
    }
    if (!std::filesystem::is_directory(path, ec)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path, ec)) {
      if (entry.is_regular_file(ec)) inputs.push_back(entry.path());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s TARGET PATH...\n", argv[0]);
    return 2;
  }
  const kkadm::fuzz::FuzzTarget* target = kkadm::fuzz::FindFuzzTarget(argv[1]);
  if (target == nullptr) {
    std::fprintf(stderr, "unknown fuzz target \"%s\"\n", argv[1]);
    return 2;
  }
  const auto inputs = InputsOf(std::vector<std::string>(argv + 2, argv + argc));
  if (inputs.empty()) {
    std::fprintf(stderr, "no input found for fuzz target \"%s\"\n", argv[1]);
    return 1;
  }
  int hangs = 0;
  for (const auto& input : inputs) {
    // Named before it runs: when an input crashes, the last name printed is the reproducer.
    std::fprintf(stderr, "%s\n", input.c_str());
    std::fflush(stderr);
    std::ifstream file(input, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(file), {}};
    const auto start = std::chrono::steady_clock::now();
    target->run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    const auto took = std::chrono::steady_clock::now() - start;
    if (took > kHang) {
      ++hangs;
      std::fprintf(stderr, "  took %lld ms: a hang\n",
                   static_cast<long long>(
                       std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));
    }
  }
  std::fprintf(stderr, "%zu inputs of fuzz target \"%s\" run, %d hung\n", inputs.size(), argv[1],
               hangs);
  return hangs == 0 ? 0 : 1;
}
