// Fuzz target: a kubeconfig as kkadm reads one (admin.conf and kubelet.conf on a node, a
// --discovery-file, the kubeconfig inside cluster-info), and the base64 of its *-data fields.
// Beyond not crashing: what kkadm writes for a decoded kubeconfig reads back as the same config.
#include "app/util/kubeconfig.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kkadm::fuzz::AsText(data, size);
  if (auto bytes = kkadm::util::Base64Decode(text)) {
    auto again = kkadm::util::Base64Decode(kkadm::util::Base64Encode(*bytes));
    kkadm::fuzz::Check(again.has_value() && *again == *bytes,
                       "base64 of decoded bytes does not decode to them");
  }
  auto config = kkadm::util::DecodeKubeconfig(text);
  if (!config) return 0;
  (void)config->CurrentUser();
  (void)config->CurrentCluster();
  const std::string written = kkadm::util::EncodeKubeconfig(*config);
  auto read_back = kkadm::util::DecodeKubeconfig(written);
  kkadm::fuzz::Check(read_back.has_value(), "a written kubeconfig does not read back",
                     read_back ? written : read_back.error().message() + "\n" + written);
  kkadm::fuzz::Check(kkadm::util::EncodeKubeconfig(*read_back) == written,
                     "a written kubeconfig reads back as a different one", written);
  return 0;
}
