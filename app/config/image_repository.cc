// distribution/reference's name grammar, as kubeadm applies it to image repositories.
#include "app/config/image_repository.h"

#include <algorithm>
#include <vector>

#include "app/util/ascii.h"

namespace kkadm::config {
namespace {

// [a-z0-9]+ ((\.|_|__|-+)[a-z0-9]+)*
bool IsPathComponent(std::string_view s) {
  util::Scanner in(s);
  if (in.Span(util::IsLowerAlnum).empty()) return false;
  while (!in.AtEnd()) {
    if (!in.Consume('.') && !in.Consume("__") && !in.Consume('_') &&
        in.Span([](char c) { return c == '-'; }).empty()) {
      return false;
    }
    if (in.Span(util::IsLowerAlnum).empty()) return false;
  }
  return true;
}

// [a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?
bool IsDomainComponent(std::string_view s) {
  auto allowed = [](char c) { return util::IsAsciiAlnum(c) || c == '-'; };
  return !s.empty() && s.front() != '-' && s.back() != '-' && util::AllOf(s, allowed);
}

// A DNS-like name of domain components joined by dots, or "[<hex digits and colons>]", then an
// optional ":<digits>".
bool IsRegistry(std::string_view s) {
  std::string_view host = s;
  const size_t colon = s.rfind(':');
  if (colon != std::string_view::npos && s.find(']', colon) == std::string_view::npos) {
    std::string_view port = s.substr(colon + 1);
    if (port.empty() || !util::AllOf(port, util::IsAsciiDigit)) return false;
    host = s.substr(0, colon);
  }
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    return util::AllOf(host.substr(1, host.size() - 2),
                       [](char c) { return util::IsHexDigit(c) || c == ':'; });
  }
  size_t start = 0;
  while (true) {
    const size_t dot = host.find('.', start);
    if (!IsDomainComponent(host.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::vector<std::string_view> SplitSlash(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t slash = s.find('/', start);
    parts.push_back(s.substr(start, slash - start));
    if (slash == std::string_view::npos) return parts;
    start = slash + 1;
  }
}

// The wording of a problem the grammar check found, most specific first.
std::string Explain(std::string_view repository, const std::vector<std::string_view>& parts) {
  if (!util::AllOf(repository, [](char c) { return c > ' ' && c != 0x7f; })) {
    return "must not contain spaces or control characters";
  }
  if (repository.find("://") != std::string_view::npos) {
    return "must not start with a scheme such as \"https://\"";
  }
  if (repository.back() == '/') return "must not end with \"/\"";
  if (repository.front() == '/' || repository.find("//") != std::string_view::npos) {
    return "must not contain an empty path component (\"//\" or a leading \"/\")";
  }
  if (repository.find('@') != std::string_view::npos) return "must not contain a digest";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i == 0 && IsRegistry(parts[0])) continue;
    if (IsPathComponent(parts[i])) continue;
    if (parts[i].find(':') != std::string_view::npos) {
      return "must not contain a tag (\"" + std::string(parts[i]) + "\"); give the tag in imageTag";
    }
    if (std::any_of(parts[i].begin(), parts[i].end(),
                    [](char c) { return c >= 'A' && c <= 'Z'; })) {
      return "path component \"" + std::string(parts[i]) + "\" must be lower case";
    }
    return "\"" + std::string(parts[i]) + "\" is not a valid " +
           (i == 0 ? "registry host[:port] or " : "") + "path component";
  }
  return "not a valid image repository";
}

}  // namespace

std::optional<std::string> ImageRepositoryProblem(std::string_view repository) {
  if (repository.empty()) return "invalid image repository format: must not be empty";
  const std::vector<std::string_view> parts = SplitSlash(repository);
  bool valid = IsRegistry(parts[0]) || IsPathComponent(parts[0]);
  for (size_t i = 1; valid && i < parts.size(); ++i) valid = IsPathComponent(parts[i]);
  if (valid) return std::nullopt;
  return "invalid image repository format: " + Explain(repository, parts);
}

}  // namespace kkadm::config
