// Plain YAML scalars as go-yaml v2 sees them: what one means when read (resolve.go) and how a
// string is written so that it reads back as itself (encode.go's stringv and the emitter's scalar
// analysis). Internal to app/util/yaml: read.cc and emit.cc share this one rule.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kkadm::util::yaml {

// What a plain (unquoted, untagged) scalar means: go-yaml v2's resolve("", text), as vendored by
// sigs.k8s.io/yaml v1.4.0 (kubeadm 1.32's).
struct PlainValue {
  enum class Kind {
    kString,
    kNull,
    kBool,
    kInt,        // fits int64: `integer`
    kUint,       // beyond int64, fits uint64: `unsigned_integer`
    kFloat,      // finite: `real`
    kNonFinite,  // .inf, -.Inf, .nan ...
    kTimestamp,  // 2001-12-14, 2001-12-14T21:59:43.1Z, 2001-12-14 21:59:43 ...
  };
  Kind kind = Kind::kString;
  bool boolean = false;
  std::int64_t integer = 0;
  std::uint64_t unsigned_integer = 0;
  double real = 0;
};
PlainValue ResolvePlain(std::string_view text);

// True when `text`, written plain, would not read back as this string: it resolves to another
// kind, or is a YAML 1.1 base-60 float ("1:30"), which go-yaml v2 no longer reads as a number but
// still quotes for other readers.
bool ReadsAsNonString(std::string_view text);

// Go's time.Parse of `text` with one of go-yaml v2's timestamp layouts succeeds:
// 2006-1-2T15:4:5.999999999Z07:00 (T or t), "2006-1-2 15:4:5.999999999" or 2006-1-2.
bool IsTimestamp(std::string_view text);

// [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?
bool IsBase60Float(std::string_view text);

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? (go-yaml v2's yamlStyleFloat).
bool IsYamlStyleFloat(std::string_view text);

// Where a string is written: a map key stays on its line; a value may become a literal block.
enum class ScalarPlace { kKey, kValue };

// `text` as go-yaml v2 writes it at `place`: plain, 'single-quoted', "double-quoted" or a literal
// block ("|", "|-", "|+", "|2-" ...) whose lines are indented `indent` + 2 spaces, `indent` being
// the column of the key or "- " that holds it. No final newline.
std::string ScalarText(std::string_view text, ScalarPlace place, int indent);

}  // namespace kkadm::util::yaml
