// Printer: where user-facing lines go ("[certs] Generating "ca" certificate and key"). Nothing
// under app/ writes to std::cout itself; commands hand a Printer to their data.
#pragma once

#include <ostream>
#include <string_view>

namespace kkadm::util {

class Printer {
 public:
  explicit Printer(std::ostream& out) : out_(out) {}

  // Prints "[<prefix>] <message>\n" and flushes: progress must show as it happens, also when
  // stdout is a pipe (cloud-init logs, `| tee`).
  void Line(std::string_view prefix, std::string_view message) {
    out_ << '[' << prefix << "] " << message << '\n' << std::flush;
  }
  // Prints the text as it is (banners, manifests in dry-run, tables).
  void Raw(std::string_view text) { out_ << text; }
  std::ostream& stream() { return out_; }

 private:
  std::ostream& out_;
};

}  // namespace kkadm::util
