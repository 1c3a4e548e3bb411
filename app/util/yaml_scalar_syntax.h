// Which plain (unquoted) YAML scalars read as numbers or timestamps. kkadm has three YAML
// readers with slightly different rules, all kept here so the differences stay visible:
// Kubernetes objects (kube_yaml.cc, go-yaml v2's YAML 1.1 table), patch files
// (patches/yaml_json.cc, Go's strconv after that table) and configuration files
// (config/yaml_adapter.cc, the common cases). Each function is a whole-text match of the
// regular expression it names.
#pragma once

#include <string_view>

namespace kkadm::util {

// [-+]?(0b[01_]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|[0-9][0-9_]*).
bool IsYaml11Int(std::string_view s);

// A decimal float (IsYamlDecimalFloat with underscores), ±.inf, .nan, or base 60:
// [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)? ("1:30.5").
bool IsYaml11Float(std::string_view s);

enum class Underscores { kAllowed, kRejected };

// [-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?; with Underscores::kRejected every
// [0-9_] is [0-9] (Go yaml.v2's yamlStyleFloat).
bool IsYamlDecimalFloat(std::string_view s, Underscores underscores);

// [-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN).
bool IsYamlInfOrNan(std::string_view s);

// The configuration reader's forms.
// [-+]?(0|[1-9][0-9_]*).
bool IsYamlDecimalInt(std::string_view s);
// 0x[0-9a-fA-F_]+.
bool IsYamlHexInt(std::string_view s);
// [-+]?([0-9][0-9_]*)?\.[0-9]*([eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+: a point or an
// exponent is required ("." itself matches).
bool IsYamlPointOrExponentFloat(std::string_view s);
// \d{4}-\d{1,2}-\d{1,2}([Tt ].*)?: text a YAML 1.1 reader may take for a timestamp.
bool LooksLikeYamlTimestamp(std::string_view s);

}  // namespace kkadm::util
