// Pre-flight checks on machine facts (kubeadm's checks.go, checks_linux.go, checks_unix.go).
#include "app/phases/preflight/checks_system.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "app/util/ascii.h"
#include "app/util/version_numbers.h"

namespace kkadm::phases::preflight {

std::string PathCheckName(const std::string& kind, const std::string& path) {
  std::string name = kind + "-" + path;
  std::replace(name.begin() + static_cast<std::ptrdiff_t>(kind.size()) + 1, name.end(), '/', '-');
  return name;
}

namespace {

class IsPrivilegedUserCheck final : public Check {
 public:
  std::string Name() const override { return "IsPrivilegedUser"; }
  CheckResult Run(const util::Host& host) const override {
    if (host.machine.EffectiveUid() != 0) return {{}, {"user is not running as root"}};
    return {};
  }
};

class NumCpuCheck final : public Check {
 public:
  explicit NumCpuCheck(int min) : min_(min) {}
  std::string Name() const override { return "NumCPU"; }
  CheckResult Run(const util::Host& host) const override {
    int cpus = host.machine.NumCpus();
    if (cpus >= min_) return {};
    return {
        {},
        {fmt::format("the number of available CPUs {} is less than the required {}", cpus, min_)}};
  }

 private:
  int min_;
};

class MemCheck final : public Check {
 public:
  explicit MemCheck(std::uint64_t min_mb) : min_mb_(min_mb) {}
  std::string Name() const override { return "Mem"; }
  CheckResult Run(const util::Host& host) const override {
    std::uint64_t actual = host.machine.MemoryBytes() / 1024 / 1024;
    if (actual >= min_mb_) return {};
    return {
        {},
        {fmt::format("the system RAM ({} MB) is less than the minimum {} MB", actual, min_mb_)}};
  }

 private:
  std::uint64_t min_mb_;
};

class KubernetesVersionCheck final : public Check {
 public:
  KubernetesVersionCheck(std::string k8s, std::string tool)
      : k8s_(std::move(k8s)), tool_(std::move(tool)) {}
  std::string Name() const override { return "KubernetesVersion"; }
  CheckResult Run(const util::Host&) const override {
    auto tool = ParseSemVer(tool_);
    if (!tool) return {{}, {fmt::format("couldn't parse kubeadm version \"{}\"", tool_)}};
    auto k8s = ParseSemVer(k8s_);
    if (!k8s) return {{}, {fmt::format("couldn't parse Kubernetes version \"{}\"", k8s_)}};
    // Every release (pre-releases included) of the next minor is unsupported: x.(y+1).0-0.
    bool newer =
        k8s->major > tool->major || (k8s->major == tool->major && k8s->minor > tool->minor);
    if (!newer) return {};
    return {{fmt::format("Kubernetes version is greater than kubeadm version. Please consider to "
                         "upgrade kubeadm. Kubernetes version: {}. Kubeadm version: {}.{}.x",
                         k8s->ToString(), tool->major, tool->minor)},
            {}};
  }

 private:
  std::string k8s_;
  std::string tool_;
};

class PortOpenCheck final : public Check {
 public:
  explicit PortOpenCheck(int port) : port_(port) {}
  std::string Name() const override { return fmt::format("Port-{}", port_); }
  CheckResult Run(const util::Host& host) const override {
    if (host.machine.CheckPortFree(port_).ok()) return {};
    return {{}, {fmt::format("Port {} is in use", port_)}};
  }

 private:
  int port_;
};

class SwapCheck final : public Check {
 public:
  std::string Name() const override { return "Swap"; }
  CheckResult Run(const util::Host& host) const override {
    auto swaps = host.machine.ReadSystemFile("/proc/swaps");
    if (!swaps) return {};  // no /proc/swaps: nothing to warn about
    // Lines as bufio.Scanner counts them: a final newline does not start another line.
    std::string text = *swaps;
    if (!text.empty() && text.back() == '\n') text.pop_back();
    std::size_t lines = text.empty() ? 0 : std::count(text.begin(), text.end(), '\n') + 1;
    if (lines <= 1) return {};
    return {{"swap is supported for cgroup v2 only. The kubelet must be properly configured to "
             "use swap. Please refer to "
             "https://kubernetes.io/docs/concepts/architecture/nodes/#swap-memory, or disable "
             "swap on the node"},
            {}};
  }
};

class InPathCheck final : public Check {
 public:
  InPathCheck(std::string executable, bool mandatory)
      : executable_(std::move(executable)), mandatory_(mandatory) {}
  std::string Name() const override { return PathCheckName("FileExisting", executable_); }
  CheckResult Run(const util::Host& host) const override {
    if (host.machine.LookPath(executable_)) return {};
    std::string message = executable_ + " not found in system path";
    if (mandatory_) return {{}, {message}};
    return {{message}, {}};
  }

 private:
  std::string executable_;
  bool mandatory_;
};

class FileContentCheck final : public Check {
 public:
  FileContentCheck(std::string path, std::string content)
      : path_(std::move(path)), content_(std::move(content)) {}
  std::string Name() const override { return PathCheckName("FileContent", path_); }
  CheckResult Run(const util::Host& host) const override {
    auto data = host.machine.ReadSystemFile(path_);
    if (!data) {
      if (data.error().code() == StatusCode::kNotFound) return {{}, {path_ + " does not exist"}};
      return {{}, {path_ + " could not be read"}};
    }
    // kubeadm compares only the first len(content) bytes, so "1\n" matches "1".
    if (data->compare(0, content_.size(), content_) == 0) return {};
    return {{}, {path_ + " contents are not set to " + content_}};
  }

 private:
  std::string path_;
  std::string content_;
};

}  // namespace

std::unique_ptr<Check> NewIsPrivilegedUserCheck() {
  return std::make_unique<IsPrivilegedUserCheck>();
}
std::unique_ptr<Check> NewNumCpuCheck(int min_cpus) {
  return std::make_unique<NumCpuCheck>(min_cpus);
}
std::unique_ptr<Check> NewMemCheck(std::uint64_t min_mb) {
  return std::make_unique<MemCheck>(min_mb);
}
std::unique_ptr<Check> NewKubernetesVersionCheck(std::string kubernetes_version,
                                                 std::string tool_version) {
  return std::make_unique<KubernetesVersionCheck>(std::move(kubernetes_version),
                                                  std::move(tool_version));
}
std::unique_ptr<Check> NewPortOpenCheck(int port) { return std::make_unique<PortOpenCheck>(port); }
std::unique_ptr<Check> NewSwapCheck() { return std::make_unique<SwapCheck>(); }
std::unique_ptr<Check> NewInPathCheck(std::string executable, bool mandatory) {
  return std::make_unique<InPathCheck>(std::move(executable), mandatory);
}
std::unique_ptr<Check> NewFileContentCheck(std::string path, std::string content) {
  return std::make_unique<FileContentCheck>(std::move(path), std::move(content));
}

std::string SemVer::ToString() const {
  return fmt::format("{}.{}.{}{}", major, minor, patch, rest);
}

// ^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)((-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?)$
std::optional<SemVer> ParseSemVer(const std::string& text) {
  util::Scanner in(text);
  in.Consume('v');
  const auto numbers = util::ConsumeVersionNumbers(in);
  if (!numbers) return std::nullopt;
  const std::string_view rest = in.rest();
  auto in_identifier = [](char c) { return util::IsAsciiAlnum(c) || c == '.' || c == '-'; };
  if (in.Consume('-') && in.Span(in_identifier).empty()) return std::nullopt;
  if (in.Consume('+') && in.Span(in_identifier).empty()) return std::nullopt;
  if (!in.AtEnd()) return std::nullopt;
  SemVer version;
  version.rest = std::string(rest);
  const std::pair<std::string_view, int*> parts[] = {{numbers->major, &version.major},
                                                     {numbers->minor, &version.minor},
                                                     {numbers->patch, &version.patch}};
  for (const auto& [digits, part] : parts) {
    if (digits.size() > 1 && digits[0] == '0') return std::nullopt;  // no leading zeros
    const auto value = util::DigitsToInt(digits);
    if (!value) return std::nullopt;  // out of range
    *part = *value;
  }
  return version;
}

}  // namespace kkadm::phases::preflight
