// kubeadm-flags.env: kubeadm's dynamic kubelet flags, rendered byte for byte like kubeadm.
#include "app/phases/kubelet/kubeadm_flags.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <utility>

#include "app/config/images.h"

namespace kkadm::phases {
namespace {

std::string TaintString(const config::Taint& t) {
  std::string out = t.key;
  if (!t.value.empty()) out += "=" + t.value;
  return out + ":" + t.effect;
}

// Length of the valid UTF-8 sequence at s[i], or 0 when the bytes there are not one.
size_t Utf8Length(std::string_view s, size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  // Overlong forms, surrogates and code points past U+10FFFF are invalid, as in Go.
  auto second = static_cast<unsigned char>(s[i + 1]);
  if ((c == 0xE0 && second < 0xA0) || (c == 0xED && second > 0x9F) ||
      (c == 0xF0 && second < 0x90) || (c == 0xF4 && second > 0x8F)) {
    return 0;
  }
  return n;
}

char32_t DecodeUtf8(std::string_view s, size_t i, size_t n) {
  auto byte = [&](size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(s[i + k])); };
  static constexpr char32_t kLeadMask[] = {0, 0, 0x1F, 0x0F, 0x07};
  char32_t cp = byte(0) & kLeadMask[n];
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (byte(k) & 0x3F);
  return cp;
}

// Non-ASCII code points Go's strconv.IsPrint rejects and that plausibly reach a flag value: C1
// controls, the Unicode spaces other than ' ', and invisible format characters.
bool GoNonPrintable(char32_t cp) {
  return (cp >= 0x80 && cp <= 0xA0) || cp == 0xAD || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) || cp == 0x205F ||
         cp == 0x3000 || cp == 0xFEFF;
}

}  // namespace

std::vector<config::Arg> KubeletBaseFlags(const config::NodeRegistration& node,
                                          const std::string& image_repository,
                                          const std::string& hostname, bool register_taints) {
  std::vector<config::Arg> flags;
  flags.push_back({"container-runtime-endpoint", node.cri_socket});
  flags.push_back({"pod-infra-container-image",
                   fmt::format("{}/pause:{}", image_repository, config::kPauseVersion)});
  if (register_taints && node.taints.has_value() && !node.taints->empty()) {
    std::string joined;
    for (const auto& t : *node.taints) joined += (joined.empty() ? "" : ",") + TaintString(t);
    flags.push_back({"register-with-taints", joined});
  }
  std::string node_name = node.name.empty() ? hostname : node.name;
  for (const auto& a : node.kubelet_extra_args) {
    if (a.name == "hostname-override") node_name = a.value;
  }
  if (node_name != hostname) flags.push_back({"hostname-override", node_name});
  return flags;
}

namespace {

// Go's strconv.Quote escape of one ASCII byte.
void AppendGoAsciiEscape(std::string& out, unsigned char c) {
  static constexpr std::pair<char, std::string_view> kShortEscapes[] = {
      {'"', "\\\""}, {'\\', "\\\\"}, {'\a', "\\a"}, {'\b', "\\b"}, {'\f', "\\f"},
      {'\n', "\\n"}, {'\r', "\\r"},  {'\t', "\\t"}, {'\v', "\\v"}};
  for (const auto& [raw, escaped] : kShortEscapes) {
    if (c == static_cast<unsigned char>(raw)) {
      out += escaped;
      return;
    }
  }
  if (c < 0x20 || c == 0x7f) {
    out += fmt::format("\\x{:02x}", c);
  } else {
    out += static_cast<char>(c);
  }
}

// Go's strconv.Quote escape of the non-ASCII byte sequence at s[i]; returns the bytes consumed.
size_t AppendGoUtf8Escape(std::string& out, std::string_view s, size_t i) {
  size_t n = Utf8Length(s, i);
  if (n == 0) {
    out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i]));
    return 1;
  }
  char32_t cp = DecodeUtf8(s, i, n);
  if (GoNonPrintable(cp)) {
    out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(cp));
  } else {
    out.append(s.substr(i, n));
  }
  return n;
}

}  // namespace

std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      i += AppendGoUtf8Escape(out, s, i);
    } else {
      AppendGoAsciiEscape(out, c);
      ++i;
    }
  }
  return out + "\"";
}

std::string RenderKubeadmFlagsEnv(const std::vector<std::string>& args) {
  std::string joined;
  for (const auto& a : args) joined += (joined.empty() ? "" : " ") + a;
  return "KUBELET_KUBEADM_ARGS=" + GoQuote(joined) + "\n";
}

Status WriteKubeletDirFile(util::FileSystem& fs, const std::string& kubelet_dir,
                           std::string_view name, std::string_view content) {
  // Like os.MkdirAll in kubeadm: an existing directory keeps its mode.
  if (!fs.Exists(kubelet_dir)) {
    KKADM_RETURN_IF_ERROR(fs.MakeDirs(kubelet_dir, 0700).Wrap("creating " + kubelet_dir));
  }
  std::string path = kubelet_dir + "/" + std::string(name);
  return fs.WriteFile(path, content, 0644).Wrap("writing " + path);
}

}  // namespace kkadm::phases
