// Confirmation and root check before `kkadm reset` changes anything.
#include "app/phases/preflight/confirm_reset.h"

#include <string>

#include "app/phases/preflight/checks_system.h"
#include "app/phases/preflight/run_checks.h"

namespace kkadm::phases::preflight {
namespace {

std::string Trimmed(const std::string& text) {
  const char* blanks = " \t\r\n";
  std::size_t begin = text.find_first_not_of(blanks);
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(blanks) - begin + 1);
}

}  // namespace

Status ConfirmReset(util::Terminal& terminal, util::Printer& out) {
  out.Line(
      "reset",
      "WARNING: Changes made to this host by 'kubeadm init' or 'kubeadm join' will be reverted.");
  // As kubeadm, the answer is read from standard input whatever it is, so `echo y | kkadm reset`
  // confirms; an empty or closed one (</dev/null, cloud-init, systemd) ends the wait at once.
  out.Raw("[reset] Are you sure you want to proceed? [y/N]: ");
  out.stream().flush();
  Result<std::string> answer = terminal.ReadLine();
  if (!answer) out.Raw("\n");
  std::string text = answer ? Trimmed(*answer) : "";
  if (text == "y" || text == "Y") return Status();
  if (!terminal.StdinIsTerminal() && !answer) {
    return FailedPrecondition(
        "won't proceed: standard input is not a terminal and gave no answer; use --force (-f) to "
        "reset without prompting");
  }
  return FailedPrecondition("won't proceed; the user didn't answer (Y|y) in order to continue");
}

}  // namespace kkadm::phases::preflight
