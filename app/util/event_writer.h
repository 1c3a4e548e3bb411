// EventWriter: the EventSink behind `-o json` and `--events FILE`: each event one JSON object on
// one line (JSON Lines), with the fields every event has (docs/events.md, docs/events.schema.json).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/clock.h"
#include "app/util/events.h"
#include "app/util/secret_words.h"
#include "app/util/status.h"

namespace kkadm::util {

inline constexpr const char* kEventApiVersion = "output.kkadm.io/v1alpha1";

class EventWriter final : public EventSink {
 public:
  // `command` is the command's name ("init"); `show_secrets` writes secret fields as they are.
  EventWriter(const Clock& clock, std::string command, bool show_secrets);

  // Every later event goes to `out` too (not owned; it must outlive the writer).
  void AddStream(std::ostream& out) { streams_.push_back(&out); }

  // Writes {"apiVersion", "kind", "time", "command", then the fields} and flushes each stream, so
  // a reader sees the event as it happens and a killed run leaves whole lines. Unless secrets are
  // shown, a secret field's string becomes "<redacted>" and the free text of the "error",
  // "message" and "reason" fields has its bootstrap tokens and certificate keys redacted (an error
  // may quote one).
  void Emit(std::string_view kind, nlohmann::json fields,
            const std::vector<std::string>& secrets) override;

 private:
  const Clock& clock_;
  std::string command_;
  bool show_secrets_;
  std::vector<std::ostream*> streams_;
};

// Creates or truncates the event file at `path` (a path of this machine, not of the node), mode
// 0600 when it is created: with --show-secrets it holds the join token. Unavailable naming the
// path when it cannot be opened.
Result<std::unique_ptr<std::ostream>> OpenEventFile(const std::string& path);

}  // namespace kkadm::util
