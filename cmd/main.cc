// kkadm's entry point: builds the command tree, parses, runs, and maps the outcome to an exit code.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "cmd/root.h"

int main(int argc, char** argv) {
  try {
    return kkadm::cmd::Main(argc, argv);
  } catch (const std::exception& e) {
    // Last resort: every library exception should have become a Status long before here.
    std::cerr << "kkadm: internal error: " << e.what() << '\n';
    return kkadm::cmd::kExitInternal;
  }
}
