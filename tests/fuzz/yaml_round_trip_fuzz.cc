// Fuzz target: kkadm's one YAML reader and its emitter. Beyond not crashing: every document read
// is written (Emit) as text that reads back as the same value, and writing that value again gives
// the same text; a string written as one scalar (StringScalar) reads back as itself.
#include "app/util/yaml/yaml.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

template <class Json>
void CheckRoundTrip(const Json& value) {
  const std::string text = kkadm::util::yaml::Emit(value);
  auto read = kkadm::util::yaml::ReadDocumentsInFileOrder(text);
  kkadm::fuzz::Check(read.has_value(), "emitted YAML does not read back",
                     read ? text : read.error().message() + "\n" + text);
  const Json again = read->empty() ? Json() : Json(read->front().value);
  kkadm::fuzz::Check(read->size() <= 1, "emitted YAML reads back as several documents", text);
  kkadm::fuzz::Check(again == value, "emitted YAML reads back as a different value", text);
  kkadm::fuzz::Check(kkadm::util::yaml::Emit(again) == text, "emitting is not stable", text);
}

void CheckStringScalars(const nlohmann::ordered_json& value) {
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    const std::string text = kkadm::util::yaml::StringScalar(s);
    auto read = kkadm::util::yaml::Read(text);
    kkadm::fuzz::Check(read.has_value() && read->is_string() && *read == s,
                       "a string scalar does not read back as the string", text);
    return;
  }
  if (value.is_array()) {
    for (const auto& item : value) CheckStringScalars(item);
  } else if (value.is_object()) {
    for (const auto& item : value.items()) {
      CheckStringScalars(nlohmann::ordered_json(item.key()));
      CheckStringScalars(item.value());
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto documents = kkadm::util::yaml::ReadDocumentsInFileOrder(kkadm::fuzz::AsText(data, size));
  if (!documents) return 0;
  for (const auto& document : *documents) {
    CheckRoundTrip(document.value);
    CheckRoundTrip(nlohmann::json(document.value));
    CheckStringScalars(document.value);
  }
  (void)kkadm::util::yaml::ReadDocuments(kkadm::fuzz::AsText(data, size));
  return 0;
}
