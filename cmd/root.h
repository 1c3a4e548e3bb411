// The kkadm command tree and its exit codes.
#pragma once

namespace kkadm::cmd {

// Exit codes (docs/exit-codes.md). kubeadm uses 1, 2 and 3 the same way.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;       // a phase or command failed
inline constexpr int kExitPreflight = 2;   // preflight found fatal errors
inline constexpr int kExitValidation = 3;  // bad flags, config file or arguments; nothing was done
inline constexpr int kExitInternal = 4;    // a bug in kkadm

// Builds the command tree, parses argv, runs the chosen command, returns the exit code.
int Main(int argc, char** argv);

}  // namespace kkadm::cmd
