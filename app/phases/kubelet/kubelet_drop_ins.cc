// kubelet.service's drop-ins merged as systemd merges them, and those that would override kkadm's.
#include "app/phases/kubelet/kubelet_drop_ins.h"

#include <fmt/format.h>

#include <array>
#include <map>
#include <optional>
#include <utility>

#include "app/util/ascii.h"

namespace kkadm::phases {
namespace {

// systemd's search path for system units (`systemd-analyze unit-paths`), highest precedence
// first; Debian's split /lib is read before /usr/lib.
constexpr std::array<std::string_view, 13> kUnitSearchPath = {
    "/etc/systemd/system.control",   "/run/systemd/system.control",  "/run/systemd/transient",
    "/run/systemd/generator.early",  "/etc/systemd/system",          "/etc/systemd/system.attached",
    "/run/systemd/system",           "/run/systemd/system.attached", "/run/systemd/generator",
    "/usr/local/lib/systemd/system", "/lib/systemd/system",          "/usr/lib/systemd/system",
    "/run/systemd/generator.late"};
constexpr size_t kEtcUnitDirIndex = 4;  // /etc/systemd/system

// The variables kkadm's ExecStart passes to the kubelet that kkadm sets; KUBELET_EXTRA_ARGS is
// the user's.
constexpr std::array<std::string_view, 3> kKkadmVariables = {
    "KUBELET_KUBECONFIG_ARGS", "KUBELET_CONFIG_ARGS", "KUBELET_KUBEADM_ARGS"};

// How a file RenderKubeletDropInShadow wrote begins.
constexpr std::string_view kShadowMarker = "# Written by kkadm to hide ";

// KubeletDropInConflict::setting of a file systemd reads in place of kkadm's drop-in.
constexpr std::string_view kInPlaceOfKkadms = "kkadm's drop-in";

// A drop-in file found in one of the directories, in systemd's order of precedence.
struct Candidate {
  std::string path;
  bool hideable = false;
};

std::string OwnDropInPath() { return fmt::format("{}/{}", kKubeletDropInDir, kKubeletDropInName); }

// Adds the drop-ins of one directory (names ending in .conf, not hidden, not directories) to
// `by_name`, after those of directories listed before it.
Status AddDropIns(const util::FileSystem& fs, const std::string& dir, bool hideable,
                  std::map<std::string, std::vector<Candidate>>& by_name) {
  auto names = fs.ListDir(dir);
  if (!names) {
    if (names.error().code() == StatusCode::kNotFound) return Status();
    return names.error().Wrap("reading " + dir);
  }
  for (const std::string& name : *names) {
    if (name.front() == '.' || name.size() <= 5 || !name.ends_with(".conf")) continue;
    std::string path = dir + "/" + name;
    auto info = fs.Stat(path);
    if (info && info->type == util::FileType::kDirectory) continue;
    by_name[name].push_back({path, hideable});
  }
  return Status();
}

// Every drop-in file of kubelet.service by name; for each name, the files in precedence order
// (systemd applies the first). kubelet.service.d directories take precedence over service.d ones.
Result<std::map<std::string, std::vector<Candidate>>> DropInsByName(const util::FileSystem& fs) {
  std::map<std::string, std::vector<Candidate>> by_name;
  for (std::string_view dir_name : {"kubelet.service.d", "service.d"}) {
    for (size_t i = 0; i < kUnitSearchPath.size(); ++i) {
      const bool hideable = dir_name == "service.d" || i > kEtcUnitDirIndex;
      KKADM_RETURN_IF_ERROR(
          AddDropIns(fs, fmt::format("{}/{}", kUnitSearchPath[i], dir_name), hideable, by_name));
    }
  }
  return by_name;
}

// The conflict, if any, of `files`, all of one name other than 10-kkadm.conf, in precedence order:
// the first that is not kkadm's shadow decides, as it is what kkadm's shadow hides.
Result<std::optional<KubeletDropInConflict>> ConflictOf(const util::FileSystem& fs,
                                                        const std::vector<Candidate>& files) {
  for (const Candidate& file : files) {
    auto text = fs.ReadFile(file.path);
    if (!text) {
      // A symbolic link that leads nowhere in the node root: a drop-in masked with a link to
      // /dev/null (a node root need not hold one), or a dangling link. systemd takes nothing of
      // this name from it, and the name is decided.
      if (text.error().code() == StatusCode::kNotFound)
        return std::optional<KubeletDropInConflict>();
      return text.error().Wrap("reading " + file.path);
    }
    if (text->starts_with(kShadowMarker)) continue;
    std::string setting = ConflictingSetting(*text);
    if (setting.empty()) return std::optional<KubeletDropInConflict>();
    return std::optional<KubeletDropInConflict>({file.path, setting, file.hideable});
  }
  return std::optional<KubeletDropInConflict>();
}

// The unit file's lines as systemd reads them: a line ending in a backslash goes on with the
// next, surrounding whitespace is dropped, and so are comments and empty lines.
std::vector<std::string> LogicalLines(std::string_view text) {
  std::vector<std::string> lines;
  std::string pending;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = util::TrimSpace(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (pending.empty() && (line.empty() || line.front() == '#' || line.front() == ';')) continue;
    if (line.ends_with('\\')) {
      pending.append(line.substr(0, line.size() - 1)).push_back(' ');
      continue;
    }
    lines.push_back(pending.append(line));
    pending.clear();
  }
  if (!pending.empty()) lines.push_back(pending);
  return lines;
}

// The words of an Environment= value: split at unquoted blanks, quotes and backslashes removed.
std::vector<std::string> EnvironmentWords(std::string_view value) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (c == '\\' && i + 1 < value.size()) {
      word.push_back(value[++i]);
    } else if (quote != 0) {
      if (c == quote)
        quote = 0;
      else
        word.push_back(c);
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    } else {
      word.push_back(c);
    }
    in_word = true;
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

// The first of kkadm's variables an Environment= value assigns; empty when none.
std::string KkadmVariableIn(std::string_view value) {
  for (const std::string& word : EnvironmentWords(value)) {
    std::string_view name = std::string_view(word).substr(0, word.find('='));
    for (std::string_view variable : kKkadmVariables) {
      if (name == variable) return std::string(variable);
    }
  }
  return "";
}

}  // namespace

std::string ConflictingSetting(std::string_view drop_in) {
  bool in_service = false;
  std::string found;  // the first other setting; ExecStart, the most telling, wins over it
  for (const std::string& line : LogicalLines(drop_in)) {
    if (line.front() == '[') {
      in_service = line == "[Service]";
      continue;
    }
    const size_t eq = line.find('=');
    if (!in_service || eq == std::string::npos) continue;
    const std::string_view key = util::TrimSpace(std::string_view(line).substr(0, eq));
    const std::string_view value = util::TrimSpace(std::string_view(line).substr(eq + 1));
    if (key == "ExecStart") return "ExecStart";
    if (!found.empty() || (key != "Environment" && key != "EnvironmentFile")) continue;
    // An empty assignment empties the list, dropping kkadm's variables or kubeadm-flags.env.
    if (value.empty())
      found = fmt::format("an empty {}=", key);
    else if (key == "Environment")
      found = KkadmVariableIn(value);
  }
  return found;
}

Result<std::vector<KubeletDropInConflict>> FindKubeletDropInConflicts(const util::FileSystem& fs) {
  auto by_name = DropInsByName(fs);
  if (!by_name) return by_name.error();
  std::vector<KubeletDropInConflict> conflicts;
  for (const auto& [name, files] : *by_name) {
    if (name == kKubeletDropInName) {
      // kkadm's file, or one in a directory above /etc/systemd/system that systemd reads instead.
      const Candidate& first = files.front();
      if (!first.hideable && first.path != OwnDropInPath()) {
        conflicts.push_back({first.path, std::string(kInPlaceOfKkadms), false});
      }
      continue;
    }
    if (name < kKubeletDropInName) continue;  // applied before kkadm's, which replaces it all
    auto conflict = ConflictOf(fs, files);
    if (!conflict) return conflict.error();
    if (*conflict) conflicts.push_back(std::move(**conflict));
  }
  return conflicts;
}

Status CheckKubeletDropInConflicts(const std::vector<KubeletDropInConflict>& conflicts) {
  for (const KubeletDropInConflict& c : conflicts) {
    if (c.hideable) continue;
    if (c.setting == kInPlaceOfKkadms) {
      return FailedPrecondition(fmt::format(
          "kubelet drop-in \"{}\" takes the place of kkadm's \"{}\", so systemd would not run the "
          "kubelet kkadm configures; remove it and run kkadm again",
          c.path, OwnDropInPath()));
    }
    return FailedPrecondition(fmt::format(
        "kubelet drop-in \"{}\" sets {} after kkadm's \"{}\", so systemd would not run the kubelet "
        "kkadm configures; remove it (flags of your own go in KUBELET_EXTRA_ARGS in "
        "/etc/default/kubelet) and run kkadm again",
        c.path, c.setting, OwnDropInPath()));
  }
  return Status();
}

Status CheckKubeletDropIns(const util::FileSystem& fs) {
  auto conflicts = FindKubeletDropInConflicts(fs);
  if (!conflicts) return conflicts.error();
  return CheckKubeletDropInConflicts(*conflicts);
}

std::string RenderKubeletDropInShadow(const KubeletDropInConflict& hidden) {
  return fmt::format(
      "{}{} from systemd:\n"
      "# it sets {} after kkadm's {}, which runs the kubelet instead.\n"
      "# Remove this file when that drop-in is gone or kkadm no longer manages this node.\n",
      kShadowMarker, hidden.path, hidden.setting, kKubeletDropInName);
}

}  // namespace kkadm::phases
