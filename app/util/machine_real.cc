// RealMachine: machine facts from syscalls, /proc and getifaddrs.
#include "app/util/machine_real.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <vector>

namespace kkadm::util {
namespace {

std::string ErrnoText(int err) { return std::strerror(err); }

// A socket fd closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Binds a listener on the wildcard address of `family`; returns errno, or 0 on success.
int ListenOnWildcard(int family, int port) {
  Fd fd(::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) return errno;
  int one = 1;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  int rc;
  if (family == AF_INET6) {
    int zero = 0;  // dual-stack, as Go's ":port" listener
    ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
    sockaddr_in6 addr{};
    addr.sin6_family = AF_INET6;
    addr.sin6_addr = in6addr_any;
    addr.sin6_port = htons(static_cast<std::uint16_t>(port));
    rc = ::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr));
  } else {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    rc = ::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr));
  }
  if (rc != 0 || ::listen(fd.get(), 1) != 0) return errno;
  return 0;
}

bool IsExecutableFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  return ::access(path.c_str(), X_OK) == 0;
}

std::vector<std::string> Fields(std::string_view line) {
  std::istringstream in{std::string(line)};
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  return fields;
}

unsigned long Hex(const std::string& text) { return std::strtoul(text.c_str(), nullptr, 16); }

// Picks the first address of `family` on `iface` that is neither loopback nor link-local.
std::optional<std::string> InterfaceAddress(const std::string& iface, int family) {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return std::nullopt;
  std::optional<std::string> found;
  for (ifaddrs* it = list; it != nullptr && !found; it = it->ifa_next) {
    if (it->ifa_addr == nullptr || it->ifa_addr->sa_family != family) continue;
    if (iface != it->ifa_name) continue;
    char text[INET6_ADDRSTRLEN] = {};
    if (family == AF_INET) {
      const auto* a = reinterpret_cast<const sockaddr_in*>(it->ifa_addr);
      std::uint32_t host = ntohl(a->sin_addr.s_addr);
      if ((host >> 24) == 127 || (host >> 16) == 0xA9FE) continue;  // loopback, 169.254/16
      ::inet_ntop(AF_INET, &a->sin_addr, text, sizeof(text));
    } else {
      const auto* a = reinterpret_cast<const sockaddr_in6*>(it->ifa_addr);
      if (IN6_IS_ADDR_LINKLOCAL(&a->sin6_addr) || IN6_IS_ADDR_LOOPBACK(&a->sin6_addr)) continue;
      ::inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof(text));
    }
    found = text;
  }
  ::freeifaddrs(list);
  return found;
}

}  // namespace

std::optional<std::string> DefaultRouteInterfaceV4(std::string_view proc_net_route) {
  std::istringstream in{std::string(proc_net_route)};
  std::string line;
  std::getline(in, line);  // header
  std::optional<std::string> best;
  unsigned long best_metric = std::numeric_limits<unsigned long>::max();
  while (std::getline(in, line)) {
    // Iface Destination Gateway Flags RefCnt Use Metric Mask MTU Window IRTT
    auto f = Fields(line);
    if (f.size() < 8 || f[1] != "00000000" || f[7] != "00000000") continue;
    if ((Hex(f[3]) & RTF_UP) == 0) continue;
    unsigned long metric = std::strtoul(f[6].c_str(), nullptr, 10);
    if (!best || metric < best_metric) {
      best = f[0];
      best_metric = metric;
    }
  }
  return best;
}

std::optional<std::string> DefaultRouteInterfaceV6(std::string_view proc_net_ipv6_route) {
  std::istringstream in{std::string(proc_net_ipv6_route)};
  std::optional<std::string> best;
  unsigned long best_metric = std::numeric_limits<unsigned long>::max();
  const std::string kZero(32, '0');
  for (std::string line; std::getline(in, line);) {
    // dst dst_len src src_len next_hop metric refcnt use flags iface
    auto f = Fields(line);
    if (f.size() < 10 || f[0] != kZero || f[1] != "00") continue;
    unsigned long flags = Hex(f[8]);
    if ((flags & RTF_UP) == 0 || (flags & RTF_REJECT) != 0 || f[9] == "lo") continue;
    unsigned long metric = Hex(f[5]);
    if (!best || metric < best_metric) {
      best = f[9];
      best_metric = metric;
    }
  }
  return best;
}

unsigned RealMachine::EffectiveUid() const { return ::geteuid(); }

int RealMachine::NumCpus() const {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0) return count;
  }
  long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<int>(online) : 1;
}

std::uint64_t RealMachine::MemoryBytes() const {
  struct sysinfo info {};
  if (::sysinfo(&info) != 0) return 0;
  return static_cast<std::uint64_t>(info.totalram) * info.mem_unit;
}

std::string RealMachine::Hostname() const {
  char name[256] = {};  // HOST_NAME_MAX is 64 on Linux
  if (::gethostname(name, sizeof(name) - 1) != 0) return "";
  return name;
}

Status RealMachine::CheckPortFree(int port) const {
  int err = ListenOnWildcard(AF_INET6, port);
  if (err == EAFNOSUPPORT) err = ListenOnWildcard(AF_INET, port);
  if (err == 0) return Status();
  return FailedPrecondition("port " + std::to_string(port) + ": " + ErrnoText(err));
}

std::optional<std::string> RealMachine::LookPath(const std::string& binary) const {
  if (binary.empty()) return std::nullopt;
  if (binary.find('/') != std::string::npos) {
    if (IsExecutableFile(binary)) return binary;
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    // Relative entries (and "" meaning ".") are refused, as Go's exec.LookPath does (ErrDot).
    if (dir.empty() || dir.front() != '/') continue;
    std::string candidate = dir + (dir.back() == '/' ? "" : "/") + binary;
    if (IsExecutableFile(candidate)) return candidate;
  }
  return std::nullopt;
}

Result<std::string> RealMachine::ReadSystemFile(const std::string& path) const {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT) return NotFound(path + ": no such file");
    return Unavailable(path + ": " + ErrnoText(err));
  }
  Fd guard(fd);
  std::string data;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Unavailable(path + ": " + ErrnoText(errno));
    if (n == 0) break;
    data.append(buf, static_cast<std::size_t>(n));
  }
  return data;
}

Result<std::string> RealMachine::DefaultRouteAddress() const {
  struct Candidate {
    const char* table;
    int family;
  };
  Status failure =
      FailedPrecondition("no default route found in /proc/net/route or /proc/net/ipv6_route");
  for (Candidate c :
       {Candidate{"/proc/net/route", AF_INET}, Candidate{"/proc/net/ipv6_route", AF_INET6}}) {
    auto table = ReadSystemFile(c.table);
    if (!table) continue;
    auto iface =
        c.family == AF_INET ? DefaultRouteInterfaceV4(*table) : DefaultRouteInterfaceV6(*table);
    if (!iface) continue;
    if (auto address = InterfaceAddress(*iface, c.family)) return *address;
    failure = FailedPrecondition("interface \"" + *iface +
                                 "\" holding the default route has no global unicast address");
  }
  return failure;
}

Status RealMachine::CheckUnixSocket(const std::string& path) const {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT) return NotFound(path + " does not exist");
    return Unavailable(path + ": " + ErrnoText(err));
  }
  if (!S_ISSOCK(st.st_mode)) return FailedPrecondition(path + " is not a socket");
  return Status();
}

bool RealMachine::PathExists(const std::string& path) const {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::optional<std::string> RealMachine::Getenv(const std::string& name) const {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

}  // namespace kkadm::util
