// ProcessRunner: starting a program of the user's (a hook) and waiting for it, bounded in time and
// in the output kept, injected so that what starts programs is testable without running any.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util {

enum class ProcessStream { kStdout, kStderr };

struct ProcessRequest {
  std::string path;               // the program's host path, run as it is (no $PATH search)
  std::vector<std::string> args;  // after argv[0], which is `path`
  std::vector<std::string> env;   // NAME=value: the program's whole environment
  // Written to the program's stdin, which is then at its end (at most 64 KiB).
  std::string input;
  // When set, `input` is also in a file only this user can read, its path in this environment
  // variable; the file is removed when the program ends.
  std::string input_file_env;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  // Between SIGTERM and SIGKILL to the program's process group once the timeout passed.
  std::chrono::milliseconds kill_grace{std::chrono::seconds(3)};
  // Of each stream, the last this many bytes are kept in the outcome.
  std::size_t keep_bytes = 64 * 1024;
  // Called with each line (without its newline; a line longer than 4 KiB in pieces) as it comes.
  std::function<void(ProcessStream stream, std::string_view line)> on_line;
};

struct ProcessOutcome {
  bool exited = false;                    // it called exit: exit_code holds the status
  int exit_code = -1;                     // 0-255 when exited
  int signal = 0;                         // the signal that ended it, when it did not exit
  bool timed_out = false;                 // the timeout passed and its process group was killed
  std::string out, err;                   // the last keep_bytes of each stream
  bool out_cut = false, err_cut = false;  // earlier bytes were dropped

  bool succeeded() const { return exited && exit_code == 0 && !timed_out; }
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  // Runs the program in a process group of its own, stdin fed `input`, stdout and stderr read
  // until it ends. At the timeout its whole group gets SIGTERM, then after kill_grace SIGKILL, so
  // nothing it started in its group is left. Processes it leaves behind in its group after ending
  // by itself keep running (a hook may start a service). An error only when it could not be
  // started (no such file, not executable): how it ended is in the outcome.
  virtual Result<ProcessOutcome> Run(const ProcessRequest& request) = 0;
};

}  // namespace kkadm::util
