// YAML text to JSON values (see yaml.h): the one file that calls yaml-cpp's parser, and where its
// exceptions become a Status.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>

#include "app/util/yaml/scalar.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::util::yaml {
namespace {

// Aliases let a small text expand into a huge or endless tree ("billion laughs", an alias inside
// its own anchor): conversion stops at these bounds. A control-plane Pod is a few hundred values.
constexpr int kMaxValues = 100'000;
constexpr int kMaxDepth = 200;

constexpr std::string_view kCoreTagPrefix = "tag:yaml.org,2002:";

Status Failure(const ReadOptions& options, const std::string& reason) {
  return InvalidArgument(options.source.empty() ? reason : options.source + ": " + reason);
}

Status SyntaxError(const ReadOptions& options, const YAML::Exception& e) {
  if (e.mark.is_null()) return Failure(options, e.msg);
  const int line = e.mark.line + 1;
  const int column = e.mark.column + 1;
  if (options.source.empty()) {
    return InvalidArgument(fmt::format("line {}, column {}: {}", line, column, e.msg));
  }
  return InvalidArgument(fmt::format("{}:{}:{}: {}", options.source, line, column, e.msg));
}

// One document's conversion, with its share of the alias bounds.
template <class Json>
class Converter {
 public:
  explicit Converter(const ReadOptions& options) : options_(options) {}

  Result<Json> Convert(const YAML::Node& node, int depth) {
    if (depth > kMaxDepth || --values_left_ < 0) {
      return Failure(options_, "document is nested too deeply or expands to too many values");
    }
    switch (node.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null:
        return Json(nullptr);
      case YAML::NodeType::Scalar:
        return Scalar(node);
      case YAML::NodeType::Sequence:
        return Sequence(node, depth);
      case YAML::NodeType::Map:
        return Map(node, depth);
    }
    return Internal("unknown YAML node type");
  }

 private:
  // yaml-cpp tags a quoted scalar "!" and a plain one "?"; explicit tags keep their long form.
  // Plain scalars and core-schema tags other than !!str resolve; application tags keep the text.
  Result<Json> Scalar(const YAML::Node& node) {
    const std::string& tag = node.Tag();
    const std::string& text = node.Scalar();
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
        return Failure(options_, fmt::format("value {} cannot be represented in JSON", text));
      default:
        return Json(text);  // strings and timestamps keep their text
    }
  }

  Result<Json> Sequence(const YAML::Node& node, int depth) {
    Json out = Json::array();
    for (const YAML::Node& item : node) {
      Result<Json> v = Convert(item, depth + 1);
      if (!v) return v.error();
      out.push_back(std::move(*v));
    }
    return out;
  }

  // A repeated key keeps its last value, as go-yaml v2's non-strict decoding does.
  Result<Json> Map(const YAML::Node& node, int depth) {
    Json out = Json::object();
    for (const auto& entry : node) {
      if (!entry.first.IsScalar()) return Failure(options_, "map keys must be scalars");
      Result<Json> v = Convert(entry.second, depth + 1);
      if (!v) return v.error();
      out[entry.first.Scalar()] = std::move(*v);
    }
    return out;
  }

  const ReadOptions& options_;
  int values_left_ = kMaxValues;
};

// The non-empty documents of `text` with the lines they start on.
template <class Json>
Result<std::vector<std::pair<Json, int>>> ReadAll(std::string_view text,
                                                  const ReadOptions& options) {
  std::vector<std::pair<Json, int>> out;
  try {
    for (const YAML::Node& node : YAML::LoadAll(std::string(text))) {
      if (!node.IsDefined() || node.IsNull()) continue;
      Result<Json> value = Converter<Json>(options).Convert(node, 0);
      if (!value) return value.error();
      out.emplace_back(std::move(*value), node.Mark().line + 1);
    }
  } catch (const YAML::Exception& e) {
    return SyntaxError(options, e);
  }
  return out;
}

}  // namespace

Result<std::vector<Document>> ReadDocumentsInFileOrder(std::string_view text,
                                                       const ReadOptions& options) {
  auto docs = ReadAll<nlohmann::ordered_json>(text, options);
  if (!docs) return docs.error();
  std::vector<Document> out;
  for (auto& [value, line] : *docs) out.push_back(Document{std::move(value), line});
  return out;
}

Result<std::vector<nlohmann::json>> ReadDocuments(std::string_view text,
                                                  const ReadOptions& options) {
  auto docs = ReadAll<nlohmann::json>(text, options);
  if (!docs) return docs.error();
  std::vector<nlohmann::json> out;
  for (auto& doc : *docs) out.push_back(std::move(doc.first));
  return out;
}

Result<nlohmann::json> Read(std::string_view text, const ReadOptions& options) {
  try {
    return Converter<nlohmann::json>(options).Convert(YAML::Load(std::string(text)), 0);
  } catch (const YAML::Exception& e) {
    return SyntaxError(options, e);
  }
}

}  // namespace kkadm::util::yaml
