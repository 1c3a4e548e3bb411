// command_bench: runs a command several times, each with freshly emptied directories, and reports
// its wall time (min / median / max) and peak resident set size, measured by wait4's rusage.
//
//   command_bench RUNS [--exit=CODE] FRESH_DIR... -- PROGRAM ARGS...
//
// Every run must exit with CODE (default 0): a refusal is timed with --exit=3.
// Each FRESH_DIR is removed and recreated before every run (e.g. the --rootfs of `kkadm init`, or
// a node's /etc/kubernetes and /var/lib/kubelet).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

struct Sample {
  double wall_ms = 0;
  long max_rss_kb = 0;
  int status = 0;
};

Sample RunOnce(std::vector<char*>& argv) {
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    if (std::freopen("/dev/null", "w", stdout) == nullptr) _exit(127);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  Sample s;
  struct rusage usage {};
  wait4(pid, &s.status, 0, &usage);
  s.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  s.max_rss_kb = usage.ru_maxrss;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int first_dir = 2, expected_exit = 0;
  if (argc > 2 && std::strncmp(argv[2], "--exit=", 7) == 0) {
    expected_exit = std::atoi(argv[2] + 7);
    ++first_dir;
  }
  int dashes = first_dir;
  while (dashes < argc && std::strcmp(argv[dashes], "--") != 0) ++dashes;
  if (dashes <= first_dir || dashes + 1 >= argc) {
    std::fprintf(stderr, "usage: %s RUNS [--exit=CODE] FRESH_DIR... -- PROGRAM ARGS...\n", argv[0]);
    return 2;
  }
  const int runs = std::max(1, std::atoi(argv[1]));
  const std::vector<std::filesystem::path> fresh(argv + first_dir, argv + dashes);
  std::vector<char*> command(argv + dashes + 1, argv + argc);
  command.push_back(nullptr);

  std::vector<double> walls;
  long max_rss = 0;
  for (int i = 0; i < runs; ++i) {
    for (const auto& dir : fresh) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
      std::filesystem::create_directories(dir, ec);
    }
    Sample s = RunOnce(command);
    if (!WIFEXITED(s.status) || WEXITSTATUS(s.status) != expected_exit) {
      std::fprintf(stderr, "run %d failed (status %d)\n", i, s.status);
      return 1;
    }
    walls.push_back(s.wall_ms);
    max_rss = std::max(max_rss, s.max_rss_kb);
  }
  std::sort(walls.begin(), walls.end());
  std::printf("runs=%d min=%.1fms median=%.1fms max=%.1fms peak_rss=%.1fMB\n", runs, walls.front(),
              walls[walls.size() / 2], walls.back(), static_cast<double>(max_rss) / 1024.0);
  return 0;
}
