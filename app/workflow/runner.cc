// Runner: kubeadm's workflow semantics over a flattened phase tree.
#include "app/workflow/runner.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>

namespace kkadm::workflow {
namespace {

bool IsKebabCase(const std::string& name) {
  if (name.empty() || name.front() == '-' || name.back() == '-') return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool lower_or_digit = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (c == '-' && name[i - 1] == '-') return false;
    if (!lower_or_digit && c != '-') return false;
  }
  return true;
}

// util::Join's twin: the engine includes only the standard library and status.h (style.md, 4).
std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

// The parent of `path` when it ends in "/all" ("certs" for "certs/all"), else empty.
std::string AllParent(const std::string& path) {
  constexpr std::string_view kAll = "/all";
  if (path.size() <= kAll.size() || !path.ends_with(kAll)) return "";
  return path.substr(0, path.size() - kAll.size());
}

}  // namespace

Runner::Runner(std::vector<Phase> phases) : phases_(std::move(phases)) {
  tree_status_ = Validate(phases_, "");
  if (!tree_status_.ok()) return;
  Flatten(phases_, 0, -1);
  std::set<std::string> names;
  for (const auto& entry : entries_) names.insert(entry.phase->name);
  for (const auto& entry : entries_) {
    for (const auto& dependency : entry.phase->dependencies) {
      if (names.count(dependency) == 0) {
        tree_status_ = Internal("invalid phase tree: phase \"" + entry.path +
                                "\" depends on unknown phase \"" + dependency + "\"");
        return;
      }
    }
  }
}

Status Runner::Validate(const std::vector<Phase>& siblings, const std::string& parent_path) const {
  std::set<std::string> seen;
  for (const auto& phase : siblings) {
    std::string path = parent_path.empty() ? phase.name : parent_path + "/" + phase.name;
    if (!IsKebabCase(phase.name)) {
      return Internal("invalid phase tree: phase name \"" + path + "\" is not kebab-case");
    }
    if (phase.name == "all") {
      return Internal("invalid phase tree: \"" + path + "\": the name \"all\" is reserved");
    }
    std::vector<std::string> names = phase.aliases;
    names.push_back(phase.name);
    for (const auto& name : names) {
      if (!IsKebabCase(name) || !seen.insert(name).second) {
        return Internal("invalid phase tree: name or alias \"" + name + "\" of phase \"" + path +
                        "\" is invalid or not unique among its siblings");
      }
    }
    KKADM_RETURN_IF_ERROR(Validate(phase.children, path));
  }
  return Status::Ok();
}

void Runner::Flatten(const std::vector<Phase>& phases, int level, int parent) {
  for (const auto& phase : phases) {
    std::string path = parent < 0 ? phase.name : entries_[parent].path + "/" + phase.name;
    std::size_t index = entries_.size();
    entries_.push_back(Entry{&phase, std::move(path), level, parent, 0});
    Flatten(phase.children, level + 1, static_cast<int>(index));
    entries_[index].end = entries_.size();
  }
}

void Runner::SetDataInitializer(std::function<Status()> initializer) {
  initializer_ = std::move(initializer);
  init_status_.reset();
}

Status Runner::InitData() {
  if (!init_status_.has_value()) {
    init_status_ = initializer_ ? initializer_() : Status::Ok();
  }
  return *init_status_;
}

std::vector<std::string> Runner::AllPaths() const {
  std::vector<std::string> paths;
  paths.reserve(entries_.size());
  for (const auto& entry : entries_) paths.push_back(entry.path);
  return paths;
}

std::optional<std::size_t> Runner::Find(const std::string& path) const {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].path == path) return i;
  }
  return std::nullopt;
}

Status Runner::InvalidPhaseName(const std::string& name) const {
  const std::vector<std::string> paths = AllPaths();
  return InvalidArgument("invalid phase name: " + name +
                         (unknown_name_hint_ ? unknown_name_hint_(name, paths) : "") +
                         "; valid phase names are: " + Join(paths, ", "));
}

Result<std::vector<bool>> Runner::SelectPhases(const RunOptions& options) const {
  std::vector<bool> selected(entries_.size(), !options.filter_path.has_value());
  if (options.filter_path.has_value()) {
    auto index = Find(*options.filter_path);
    if (!index) return InvalidPhaseName(*options.filter_path);
    std::fill(selected.begin() + *index, selected.begin() + entries_[*index].end, true);
  }
  for (const auto& name : options.skip_phases) {
    auto index = Find(name);
    if (!index) {
      // kubeadm lists "<parent>/all" among the valid names; it names no phase that runs.
      auto parent = Find(AllParent(name));
      if (parent && entries_[*parent].end > *parent + 1) continue;
      return InvalidPhaseName(name);
    }
    std::fill(selected.begin() + *index, selected.begin() + entries_[*index].end, false);
  }
  return selected;
}

Status Runner::CheckDependencies(const std::vector<bool>& selected) const {
  std::set<std::string> visited;
  std::vector<std::string> unresolved;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!selected[i]) continue;
    const Phase& phase = *entries_[i].phase;
    std::vector<std::string> missing;
    for (const auto& dependency : phase.dependencies) {
      if (visited.count(dependency) == 0) missing.push_back(dependency);
    }
    if (!missing.empty()) {
      unresolved.push_back("missing [" + Join(missing, " ") + "] phase(s) needed by \"" +
                           phase.name + "\" phase");
    }
    visited.insert(phase.name);
  }
  if (unresolved.empty()) return Status::Ok();
  return InvalidArgument("unresolved dependencies:\n\t" + Join(unresolved, "\n\t"));
}

Status Runner::Run(const RunOptions& options) {
  failed_phase_.clear();
  KKADM_RETURN_IF_ERROR(tree_status_);
  auto selected = SelectPhases(options);
  KKADM_RETURN_IF_ERROR(selected.status());
  KKADM_RETURN_IF_ERROR(CheckDependencies(*selected));
  KKADM_RETURN_IF_ERROR(InitData());
  KKADM_RETURN_IF_ERROR(CheckPhases(*selected));
  auto planned = PlanPhases(*selected, options.filter_path.has_value());
  KKADM_RETURN_IF_ERROR(planned.status());
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if ((*planned)[i] && entries_[i].phase->prepare) entries_[i].phase->prepare();
  }
  Status outcome = RunPlanned(*planned);
  return observer_ ? observer_->RunEnded(outcome) : outcome;
}

Result<std::vector<bool>> Runner::PlanPhases(const std::vector<bool>& selected,
                                             bool phase_command) {
  if (!observer_) return selected;
  Result<std::vector<bool>> planned = observer_->Plan(entries_, selected, phase_command);
  if (planned && planned->size() != entries_.size()) {
    return Internal("the run observer planned a run of another phase tree");
  }
  return planned;
}

Status Runner::RunPlanned(const std::vector<bool>& planned) {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!planned[i]) continue;
    const Entry& entry = entries_[i];
    bool ran = false;
    Status status = observer_ ? observer_->PhaseStarting(entry) : Status::Ok();
    if (status.ok()) {
      status = RunPhase(entry, ran);
      if (observer_) {
        Status ended = observer_->PhaseEnded(entry, status, ran);
        // An error of the observer's own fails the phase as the phase's own would.
        if (status.ok() && !ended.ok()) {
          status = std::move(ended).Wrap("error execution phase " + entry.path);
        }
      }
    } else {
      status = std::move(status).Wrap("error execution phase " + entry.path);
    }
    if (!status.ok()) {
      failed_phase_ = entry.path;
      return status;
    }
  }
  return Status::Ok();
}

Status Runner::CheckPhases(const std::vector<bool>& selected) {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!selected[i] || !entries_[i].phase->check) continue;
    Status status = entries_[i].phase->check();
    if (!status.ok()) {
      failed_phase_ = entries_[i].path;
      return status.Wrap("error execution phase " + entries_[i].path);
    }
  }
  return Status::Ok();
}

Status Runner::RunPhase(const Entry& entry, bool& ran) {
  const Phase& phase = *entry.phase;
  if (phase.run_if) {
    Result<bool> wanted = phase.run_if();
    if (!wanted.has_value()) {
      return std::move(wanted).error().Wrap("error execution run condition for phase " +
                                            entry.path);
    }
    if (!*wanted) return Status::Ok();
  }
  ran = true;
  if (!phase.run) return Status::Ok();
  return phase.run().Wrap("error execution phase " + entry.path);
}

std::string Runner::Help(const std::string& command_use) const {
  // The name shown per line: "certs" at top level, "/ca" below; hidden subtrees are left out.
  std::vector<bool> visible(entries_.size(), true);
  std::size_t max_length = 0;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& entry = entries_[i];
    visible[i] = !entry.phase->hidden && (entry.parent < 0 || visible[entry.parent]);
    std::size_t length = entry.phase->name.size() + (entry.level > 0 ? 1 : 0);
    if (visible[i]) max_length = std::max(max_length, length);
  }
  std::string out = "The \"" + command_use + "\" command executes the following phases:\n```\n";
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!visible[i]) continue;
    const Entry& entry = entries_[i];
    std::string use = (entry.level > 0 ? "/" : "") + entry.phase->name;
    out += std::string(static_cast<std::size_t>(2 * entry.level), ' ') + use;
    out += std::string(max_length - use.size() + 2, ' ') + entry.phase->description + "\n";
  }
  return out + "```\n";
}

}  // namespace kkadm::workflow
