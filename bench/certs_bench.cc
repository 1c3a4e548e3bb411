// certs_bench: times the whole PKI (`certs` work) against generating its 11 RSA keys one after
// another, for RSA-2048 and ECDSA-P256, and prints the peak RSS of this process.
//
//   certs_bench [rounds] [dir]   (dir: where temp PKIs are written; $TMPDIR or /tmp by default)
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "app/phases/certs/certs.h"
#include "app/util/file_system_real.h"
#include "app/util/pki/key.h"

namespace {

using Clock = std::chrono::steady_clock;
using kkadm::config::EncryptionAlgorithm;

double Millis(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double SequentialRsaKeys(int count) {
  auto start = Clock::now();
  for (int i = 0; i < count; ++i) {
    auto key = kkadm::util::pki::PrivateKey::Generate(kkadm::util::pki::KeyType::kRsa2048);
    if (!key) std::fprintf(stderr, "keygen failed: %s\n", key.error().message().c_str());
  }
  return Millis(Clock::now() - start);
}

double WholePki(EncryptionAlgorithm algorithm, const std::string& parent) {
  std::string pattern = parent + "/kkadm-bench-XXXXXX";
  std::string root = ::mkdtemp(pattern.data());
  kkadm::util::RealFileSystem fs(root);
  kkadm::config::InitConfiguration cfg;
  cfg.node_registration.name = "node-1";
  cfg.local_api_endpoint.advertise_address = "192.0.2.10";
  cfg.cluster.etcd.local.emplace();
  cfg.cluster.encryption_algorithm = algorithm;
  std::ostringstream sink;
  kkadm::util::Printer printer(sink);
  kkadm::phases::certs::CertsEnv env{cfg, fs, printer, kkadm::util::RealClock(), false, nullptr};
  auto start = Clock::now();
  kkadm::Status s = kkadm::phases::certs::CreatePKIAssets(env);
  double ms = Millis(Clock::now() - start);
  if (!s.ok()) std::fprintf(stderr, "certs failed: %s\n", s.message().c_str());
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = argc > 2 ? argv[2] : (tmp ? tmp : "/tmp");
  std::vector<double> seq, rsa, ec;
  for (int r = 0; r < rounds; ++r) {
    seq.push_back(SequentialRsaKeys(11));
    rsa.push_back(WholePki(EncryptionAlgorithm::kRsa2048, dir));
    ec.push_back(WholePki(EncryptionAlgorithm::kEcdsaP256, dir));
  }
  std::printf("rounds: %d, PKI written under %s\n", rounds, dir.c_str());
  std::printf("(a) 11 sequential RSA-2048 keygens: median %.1f ms\n", Median(seq));
  std::printf("(b) whole PKI, RSA-2048:            median %.1f ms\n", Median(rsa));
  std::printf("(c) whole PKI, ECDSA-P256:          median %.1f ms\n", Median(ec));
  std::printf("ratio (b)/(a): %.2f (target <= 0.60); per-round ratios:", Median(rsa) / Median(seq));
  for (int r = 0; r < rounds; ++r) std::printf(" %.2f", rsa[r] / seq[r]);
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("\npeak RSS of this process: %.1f MB\n",
              static_cast<double>(usage.ru_maxrss) / 1024.0);
  return 0;
}
