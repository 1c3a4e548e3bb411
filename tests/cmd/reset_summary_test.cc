// kubeadm's closing text (with and without the CNI paragraph) and the left-behind report.
#include "cmd/reset_summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kkadm::cmd {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(CleanupInstructionsTest, KubeadmsTextVerbatim) {
  EXPECT_EQ(
      CleanupInstructions(false),
      "\n"
      "The reset process does not clean CNI configuration. To do so, you must remove "
      "/etc/cni/net.d\n"
      "\n"
      "The reset process does not reset or clean up iptables rules or IPVS tables.\n"
      "If you wish to reset iptables, you must do so manually by using the \"iptables\" command.\n"
      "\n"
      "If your cluster was setup to utilize IPVS, run ipvsadm --clear (or similar)\n"
      "to reset your system's IPVS tables.\n"
      "\n"
      "The reset process does not clean your kubeconfig files and you must remove them manually.\n"
      "Please, check the contents of the $HOME/.kube/config file.\n");
}

TEST(CleanupInstructionsTest, NoCniSentenceWhenCniWasCleaned) {
  std::string text = CleanupInstructions(true);
  EXPECT_THAT(text, Not(HasSubstr("CNI")));
  EXPECT_THAT(
      text,
      HasSubstr("The reset process does not reset or clean up iptables rules or IPVS tables.\n"));
  EXPECT_EQ(text.rfind("\nThe reset process does not reset", 0), 0u);
}

TEST(LeftBehindReportTest, EmptyWhenNothingIsLeft) { EXPECT_EQ(LeftBehindReport({}), ""); }

TEST(LeftBehindReportTest, OneLinePerItem) {
  EXPECT_EQ(
      LeftBehindReport({{"/etc/kubernetes/pki", "is a symbolic link (to /x); not followed"},
                        {"kubelet.service", "could not be stopped: bus down"}}),
      "\n[reset] The reset is incomplete: 2 item(s) could not be cleaned up:\n"
      "\t/etc/kubernetes/pki: is a symbolic link (to /x); not followed\n"
      "\tkubelet.service: could not be stopped: bus down\n"
      "[reset] Fix these and run 'kkadm reset' again: it only does what is still left to do.\n");
}

}  // namespace
}  // namespace kkadm::cmd
