// YAML text to JSON values (see yaml.h): the one file that calls yaml-cpp's parser, and where its
// exceptions become a Status. The JSON values are built from the parser's events, so the bounds
// of limits.h are checked as the text is read, before anything grows.
#include <fmt/format.h>
#include <yaml-cpp/anchor.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "app/util/printable.h"
#include "app/util/yaml/limits.h"
#include "app/util/yaml/scalar.h"
#include "app/util/yaml/text_check.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::util::yaml {
namespace {

constexpr std::string_view kCoreTagPrefix = "tag:yaml.org,2002:";

// A refusal found while the events arrive: it leaves yaml-cpp's parser as its own errors do.
[[noreturn]] void Refuse(const YAML::Mark& mark, const std::string& reason) {
  throw YAML::ParserException(mark, reason);
}

std::string Located(const ReadOptions& options, int line, int column, const std::string& reason) {
  if (options.source.empty()) return fmt::format("line {}, column {}: {}", line, column, reason);
  return fmt::format("{}:{}:{}: {}", EscapeNonPrintable(options.source), line, column, reason);
}

Status ReadFailure(const ReadOptions& options, const std::string& reason) {
  return InvalidArgument(
      options.source.empty() ? reason : EscapeNonPrintable(options.source) + ": " + reason);
}

Status SyntaxError(std::string_view text, const ReadOptions& options, const YAML::Exception& e) {
  std::string reason = EscapeNonPrintable(e.msg);
  if (e.mark.is_null()) return ReadFailure(options, reason);
  if (IndentedWithTab(text, e.mark.line)) reason += " (YAML indents with spaces, not tabs)";
  return InvalidArgument(Located(options, e.mark.line + 1, e.mark.column + 1, reason));
}

// Refuses a text over the size limit or with characters YAML does not allow.
Status CheckText(std::string_view text, const ReadOptions& options) {
  if (text.size() > kMaxTextBytes) {
    return ReadFailure(options, fmt::format("{} bytes is over the limit of {} bytes (4 MiB)",
                                            text.size(), kMaxTextBytes));
  }
  if (std::optional<TextProblem> bad = FindBadCharacter(text)) {
    return InvalidArgument(Located(options, bad->line, bad->column, bad->reason));
  }
  return Status();
}

// What an anchor names, kept to be copied where an alias points at it.
template <class Json>
struct Anchored {
  Json value;
  std::optional<std::string> scalar;  // the text of a scalar, which may stand as a map key
  int values = 0;
  std::size_t bytes = 0;
};

// An open map or sequence.
template <class Json>
struct OpenCollection {
  Json value;
  YAML::Mark mark;
  YAML::anchor_t anchor = 0;
  int values_before = 0;
  std::size_t bytes_before = 0;
  std::optional<std::string> key;        // a map's key read, its value not yet
  std::unordered_set<std::string> keys;  // a map's keys: JSON objects in file order search slowly
};

// Adds a member whose key the map does not have yet, in constant or logarithmic time.
void AddMember(nlohmann::ordered_json& object, std::string key, nlohmann::ordered_json value) {
  using Members = nlohmann::ordered_json::object_t::Container;
  static_cast<Members&>(object.get_ref<nlohmann::ordered_json::object_t&>())
      .emplace_back(std::move(key), std::move(value));
}
void AddMember(nlohmann::json& object, std::string key, nlohmann::json value) {
  object.get_ref<nlohmann::json::object_t&>().emplace(std::move(key), std::move(value));
}

// Builds each document's JSON value from the parser's events, counting values, bytes, depth and
// documents against limits.h over the whole text.
template <class Json>
class JsonBuilder : public YAML::EventHandler {
 public:
  // The last document read; null when it was empty. `Line` is where its content starts.
  Json TakeDocument() { return std::move(document_); }
  int Line() const { return line_; }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > kMaxDocuments) {
      Refuse(mark, fmt::format("more than {} documents (the limit)", kMaxDocuments));
    }
    anchors_.clear();
    document_ = Json(nullptr);
    line_ = mark.line + 1;
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (InKeyPosition()) Refuse(mark, "map keys must be scalars");
    Count(mark, 1, 0, false);
    Remember(anchor, Json(nullptr), std::nullopt, 1, 0);
    Place(mark, Json(nullptr));
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& decoded) override {
    const std::string text = RepairNelAndNbspEscapes(decoded);
    if (Utf8Invalid(text)) Refuse(mark, "a scalar is not valid UTF-8");
    Count(mark, 1, text.size(), false);
    if (InKeyPosition()) {
      Remember(anchor, Json(text), text, 1, text.size());
      Key(mark, text);
      return;
    }
    Json value = ScalarValue(mark, tag, text);
    Remember(anchor, value, text, 1, text.size());
    Place(mark, std::move(value));
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) Refuse(mark, "an alias refers to a value that holds it");
    const Anchored<Json>& target = it->second;
    Count(mark, target.values, target.bytes, true);
    if (InKeyPosition()) {
      if (!target.scalar) Refuse(mark, "map keys must be scalars");
      Key(mark, *target.scalar);
      return;
    }
    Place(mark, Json(target.value));
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Push(mark, Json::array(), anchor);
  }
  void OnSequenceEnd() override { Pop(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Push(mark, Json::object(), anchor);
  }
  void OnMapEnd() override { Pop(); }

 private:
  // yaml-cpp decodes the escapes \N (U+0085) and \_ (U+00A0) to the lone bytes 0x85 and 0xA0,
  // not to their UTF-8 (its \x85 is right). The text was checked to be UTF-8 before parsing, so
  // such a byte where a character starts came from one of them: it becomes the character meant.
  static std::string RepairNelAndNbspEscapes(const std::string& text) {
    if (text.find_first_of("\x85\xA0") == std::string::npos) return text;  // the usual case
    std::string out;
    for (std::string_view rest = text; !rest.empty();) {
      std::size_t length = Utf8SequenceLength(rest);
      const char byte = rest.front();
      if (length == 0 && (byte == '\x85' || byte == '\xA0')) {
        out += '\xC2';
        length = 1;
      } else if (length == 0) {
        return text;  // not UTF-8 for another reason: refused as it is
      }
      out.append(rest.substr(0, length));
      rest.remove_prefix(length);
    }
    return out;
  }

  static bool Utf8Invalid(std::string_view text) {
    while (!text.empty()) {
      const std::size_t length = Utf8SequenceLength(text);
      if (length == 0) return true;
      text.remove_prefix(length);
    }
    return false;
  }

  bool InKeyPosition() const {
    return !open_.empty() && open_.back().value.is_object() && !open_.back().key;
  }

  // Adds a value (and the copies an alias makes) to the totals, refusing past a limit.
  void Count(const YAML::Mark& mark, int values, std::size_t bytes, bool alias) {
    const char* what = alias ? "aliases expand the text to" : "the text holds";
    if (values_ + values > kMaxValues) {
      Refuse(mark, fmt::format("{} more than {} values (the limit)", what, kMaxValues));
    }
    if (bytes_ + bytes > kMaxExpandedBytes) {
      Refuse(mark, fmt::format("{} more than {} bytes of keys and scalars (the limit)", what,
                               kMaxExpandedBytes));
    }
    values_ += values;
    bytes_ += bytes;
  }

  void Remember(YAML::anchor_t anchor, const Json& value, std::optional<std::string> scalar,
                int values, std::size_t bytes) {
    if (anchor == YAML::NullAnchor) return;
    anchors_[anchor] = Anchored<Json>{value, std::move(scalar), values, bytes};
  }

  // A map's key, refused when the map already has it (go-yaml v3 and kubeadm's strict decoding
  // refuse it too; a silent last-one-wins hides a mistake).
  void Key(const YAML::Mark& mark, const std::string& key) {
    if (!open_.back().keys.insert(key).second) Refuse(mark, "duplicate key " + Quote(key));
    open_.back().key = key;
  }

  void Place(const YAML::Mark& mark, Json value) {
    if (open_.empty()) {
      document_ = std::move(value);
      line_ = mark.line + 1;
    } else if (open_.back().value.is_array()) {
      open_.back().value.push_back(std::move(value));
    } else {
      AddMember(open_.back().value, std::move(*open_.back().key), std::move(value));
      open_.back().key.reset();
    }
  }

  void Push(const YAML::Mark& mark, Json value, YAML::anchor_t anchor) {
    if (InKeyPosition()) Refuse(mark, "map keys must be scalars");
    if (open_.size() >= static_cast<std::size_t>(kMaxDepth)) {
      Refuse(mark, fmt::format("nested more than {} levels deep (the limit)", kMaxDepth));
    }
    const int values_before = values_;
    const std::size_t bytes_before = bytes_;
    Count(mark, 1, 0, false);
    open_.push_back(
        OpenCollection<Json>{std::move(value), mark, anchor, values_before, bytes_before, {}, {}});
  }

  void Pop() {
    OpenCollection<Json> done = std::move(open_.back());
    open_.pop_back();
    Remember(done.anchor, done.value, std::nullopt, values_ - done.values_before,
             bytes_ - done.bytes_before);
    Place(done.mark, std::move(done.value));
  }

  // yaml-cpp tags a quoted scalar "!" and a plain one "?"; explicit tags keep their long form.
  // Plain scalars and core-schema tags other than !!str resolve; application tags keep the text.
  static Json ScalarValue(const YAML::Mark& mark, const std::string& tag, const std::string& text) {
    const bool core = tag.starts_with(kCoreTagPrefix) && tag != "tag:yaml.org,2002:str";
    if (tag != "?" && !core) return Json(text);
    const PlainValue v = ResolvePlain(text);
    switch (v.kind) {
      case PlainValue::Kind::kNull:
        return Json(nullptr);
      case PlainValue::Kind::kBool:
        return Json(v.boolean);
      case PlainValue::Kind::kInt:
        return Json(v.integer);
      case PlainValue::Kind::kUint:
        return Json(v.unsigned_integer);
      case PlainValue::Kind::kFloat:
        return Json(v.real);
      case PlainValue::Kind::kNonFinite:
        Refuse(mark, fmt::format("value {} cannot be represented in JSON", text));
      default:
        return Json(text);  // strings and timestamps keep their text
    }
  }

  std::vector<OpenCollection<Json>> open_;
  std::map<YAML::anchor_t, Anchored<Json>> anchors_;
  Json document_;
  int line_ = 1;
  int documents_ = 0;
  int values_ = 0;
  std::size_t bytes_ = 0;
};

// The non-empty documents of `text` with the lines they start on; only the first when
// `first_only` (then an empty first document gives one null value).
template <class Json>
Result<std::vector<std::pair<Json, int>>> ReadAll(std::string_view text, const ReadOptions& options,
                                                  bool first_only) {
  KKADM_RETURN_IF_ERROR(CheckText(text, options));
  std::vector<std::pair<Json, int>> out;
  try {
    std::istringstream in{std::string(text)};
    YAML::Parser parser(in);
    JsonBuilder<Json> builder;
    while (parser.HandleNextDocument(builder)) {
      Json value = builder.TakeDocument();
      if (first_only) return std::vector{std::pair{std::move(value), builder.Line()}};
      if (!value.is_null()) out.emplace_back(std::move(value), builder.Line());
    }
  } catch (const YAML::Exception& e) {
    return SyntaxError(text, options, e);
  }
  if (first_only) out.emplace_back(Json(nullptr), 1);
  return out;
}

}  // namespace

Result<std::vector<Document>> ReadDocumentsInFileOrder(std::string_view text,
                                                       const ReadOptions& options) {
  auto docs = ReadAll<nlohmann::ordered_json>(text, options, false);
  if (!docs) return docs.error();
  std::vector<Document> out;
  for (auto& [value, line] : *docs) out.push_back(Document{std::move(value), line});
  return out;
}

Result<std::vector<nlohmann::json>> ReadDocuments(std::string_view text,
                                                  const ReadOptions& options) {
  auto docs = ReadAll<nlohmann::json>(text, options, false);
  if (!docs) return docs.error();
  std::vector<nlohmann::json> out;
  for (auto& doc : *docs) out.push_back(std::move(doc.first));
  return out;
}

Result<nlohmann::json> Read(std::string_view text, const ReadOptions& options) {
  auto docs = ReadAll<nlohmann::json>(text, options, true);
  if (!docs) return docs.error();
  return std::move(docs->front().first);
}

}  // namespace kkadm::util::yaml
