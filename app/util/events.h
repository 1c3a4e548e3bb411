// Events: what a run tells machines besides its human lines (`-o json`, `--events FILE`): a kind
// and named fields, written one JSON object per line by an EventWriter (docs/events.md). Phases
// reach a sink through their data; without one, emitting does nothing.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kkadm::util {

class EventSink {
 public:
  virtual ~EventSink() = default;
  // `fields` is a JSON object of the event's own fields. `secrets` names the fields that hold a
  // secret (a bootstrap token, a certificate key, a command carrying them): the sink writes them
  // redacted unless the user asked to see secrets.
  virtual void Emit(std::string_view kind, nlohmann::json fields,
                    const std::vector<std::string>& secrets) = 0;
};

// A sink or none, as phases hold it: copyable, and a no-op when no sink was given.
class Events {
 public:
  Events() = default;
  explicit Events(EventSink* sink) : sink_(sink) {}

  void Emit(std::string_view kind, nlohmann::json fields,
            const std::vector<std::string>& secrets = {}) const {
    if (sink_ != nullptr) sink_->Emit(kind, std::move(fields), secrets);
  }
  bool enabled() const { return sink_ != nullptr; }

 private:
  EventSink* sink_ = nullptr;
};

}  // namespace kkadm::util
