// EventWriter: one JSON object per line, secrets redacted unless shown.
#include "app/util/event_writer.h"

#include <algorithm>
#include <utility>

#include "app/util/rfc3339.h"

namespace kkadm::util {
namespace {

// The fields whose free text may quote a secret the code that wrote it did not know of.
constexpr const char* kFreeTextFields[] = {"error", "message", "reason"};

}  // namespace

EventWriter::EventWriter(const Clock& clock, std::string command, bool show_secrets)
    : clock_(clock), command_(std::move(command)), show_secrets_(show_secrets) {}

void EventWriter::Emit(std::string_view kind, nlohmann::json fields,
                       const std::vector<std::string>& secrets) {
  nlohmann::ordered_json event = {{"apiVersion", kEventApiVersion},
                                  {"kind", kind},
                                  {"time", FormatRfc3339Milli(clock_.Now())},
                                  {"command", command_}};
  if (fields.is_object()) {
    for (auto& [name, value] : fields.items()) {
      const bool secret = std::find(secrets.begin(), secrets.end(), name) != secrets.end();
      const bool free_text = std::find(std::begin(kFreeTextFields), std::end(kFreeTextFields),
                                       name) != std::end(kFreeTextFields);
      if (!show_secrets_ && secret && value.is_string() && !value.get<std::string>().empty()) {
        value = kRedacted;
      } else if (!show_secrets_ && free_text && value.is_string()) {
        value = RedactSecretWords(value.get<std::string>());
      }
      event[name] = std::move(value);
    }
  }
  // Text from files and servers may hold bytes that are not UTF-8: replaced, never thrown on.
  const std::string line =
      event.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  for (std::ostream* out : streams_) *out << line << '\n' << std::flush;
}

}  // namespace kkadm::util
