// `kkadm token` and its list, delete and generate subcommands (see token.h).
#include "cmd/token.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/phases/bootstraptoken/bootstrap_token.h"
#include "app/phases/bootstraptoken/token.h"
#include "app/util/bootstrap_token_syntax.h"
#include "app/util/duration.h"
#include "app/util/network.h"
#include "app/util/rfc3339.h"
#include "app/util/strings.h"
#include "app/util/tab_writer.h"
#include "app/util/yaml/yaml.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

using nlohmann::json;
using std::chrono::system_clock;

std::string PadRight(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::vector<std::string> TableRow(const config::BootstrapToken& t, system_clock::time_point now) {
  std::string ttl = "<forever>", expires = "<never>";
  if (t.expires) {
    ttl = util::ShortHumanDuration(
        std::chrono::duration_cast<std::chrono::milliseconds>(*t.expires - now));
    expires = util::FormatRfc3339(*t.expires);
  }
  auto or_none = [](const std::string& s) { return s.empty() ? std::string("<none>") : s; };
  return {t.Token(),
          PadRight(ttl, 9),
          expires,
          PadRight(or_none(util::Join(t.usages, ",")), 22),
          PadRight(or_none(t.description), 56),
          or_none(util::Join(t.groups, ","))};
}

json OutputObject(const config::BootstrapToken& t) {
  json out = {{"kind", "BootstrapToken"},
              {"apiVersion", "output.kubeadm.k8s.io/v1alpha3"},
              {"token", t.Token()}};
  if (!t.description.empty()) out["description"] = t.description;
  if (t.expires) out["expires"] = util::FormatRfc3339(*t.expires);
  if (!t.usages.empty()) out["usages"] = t.usages;
  if (!t.groups.empty()) out["groups"] = t.groups;
  return out;
}

}  // namespace

Result<std::unique_ptr<util::KubeClient>> TokenApiClient(util::Host& host,
                                                         const std::string& kubeconfig) {
  return util::KubeClientFromKubeconfigFile(host.net, host.fs, kubeconfig, {.clock = host.clock});
}

Status TokenList(const std::string& kubeconfig, const std::string& output, util::Host& host,
                 std::ostream& out, std::ostream& err) {
  auto client = TokenApiClient(host, kubeconfig);
  if (!client) return client.error();
  auto list = (*client)->Get("/api/v1/namespaces/kube-system/secrets");
  if (!list) return list.error().Wrap("failed to list bootstrap tokens");
  std::vector<config::BootstrapToken> tokens;
  for (const auto& secret : list->value("items", json::array())) {
    if (secret.value("type", "") != phases::kBootstrapTokenSecretType) continue;
    auto token = phases::BootstrapTokenFromSecret(secret);
    if (!token) {
      err << token.error().message() << "\n";
      continue;
    }
    tokens.push_back(*token);
  }
  if (output == "json" || output == "yaml") {
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (output == "json")
        out << OutputObject(tokens[i]).dump(4) << "\n";
      else
        out << (i > 0 ? "---\n" : "") << util::yaml::Emit(OutputObject(tokens[i]));
    }
    return Status::Ok();
  }
  std::vector<std::vector<std::string>> rows = {
      {"TOKEN", "TTL", "EXPIRES", "USAGES", "DESCRIPTION", "EXTRA GROUPS"}};
  for (const auto& t : tokens) rows.push_back(TableRow(t, host.clock.Now()));
  out << util::TabWrite(rows);
  return Status::Ok();
}

Status TokenDelete(const std::string& kubeconfig, const std::vector<std::string>& ids_or_tokens,
                   util::Host& host, std::ostream& out) {
  if (ids_or_tokens.empty()) {
    return InvalidArgument(
        "missing argument; 'token delete' is missing token of form \"[a-z0-9]{6}\" or "
        "\"[a-z0-9]{6}\\.[a-z0-9]{16}\"");
  }
  auto client = TokenApiClient(host, kubeconfig);
  if (!client) return client.error();
  for (const auto& arg : ids_or_tokens) {
    std::string id = arg;
    if (!phases::IsValidTokenId(arg)) {
      auto token = phases::ParseBootstrapToken(arg);
      if (!token) {
        return InvalidArgument(
            "given token didn't match pattern \"[a-z0-9]{6}\" or "
            "\"[a-z0-9]{6}\\.[a-z0-9]{16}\"");
      }
      id = token->id;
    }
    KKADM_RETURN_IF_ERROR((*client)
                              ->Delete(std::string("/api/v1/namespaces/kube-system/secrets/") +
                                       phases::kBootstrapTokenSecretPrefix + id)
                              .Wrap("failed to delete bootstrap token \"" + id + "\""));
    out << "bootstrap token \"" << id << "\" deleted\n";
  }
  return Status::Ok();
}

namespace {

void AddList(CLI::App& token, CommandContext& context, std::shared_ptr<std::string> kubeconfig,
             std::shared_ptr<HostProvider> host) {
  auto output = std::make_shared<std::string>("text");
  auto* list = token.add_subcommand("list", "List bootstrap tokens on the server");
  list->fallthrough();
  list->add_option("-o,--output", *output, "Output format. One of: text|json|yaml")
      ->check(CLI::IsMember({"text", "json", "yaml"}));
  list->callback([&context, output, kubeconfig, host] {
    Result<util::Host*> node = (*host)();
    context.status =
        node ? TokenList(*kubeconfig, *output, **node, context.out, context.err) : node.error();
  });
}

void AddDeleteAndGenerate(CLI::App& token, CommandContext& context,
                          std::shared_ptr<std::string> kubeconfig,
                          std::shared_ptr<HostProvider> host) {
  auto ids = std::make_shared<std::vector<std::string>>();
  auto* del = token.add_subcommand("delete", "Delete bootstrap tokens on the server");
  del->fallthrough();
  del->add_option("token", *ids, "Token ids or full tokens to delete");
  del->callback([&context, ids, kubeconfig, host] {
    Result<util::Host*> node = (*host)();
    context.status = node ? TokenDelete(*kubeconfig, *ids, **node, context.out) : node.error();
  });
  auto* generate = token.add_subcommand(
      "generate", "Generate and print a bootstrap token, but do not create it on the server");
  generate->callback([&context] {
    auto t = util::GenerateBootstrapToken();
    if (!t) {
      context.status = t.error();
      return;
    }
    context.out << *t << "\n";
  });
}

}  // namespace

void AddTokenCommand(CLI::App& root, CommandContext& context, HostProvider host) {
  auto* token = root.add_subcommand("token", "Manage bootstrap tokens");
  token->require_subcommand(1);
  auto kubeconfig = std::make_shared<std::string>("/etc/kubernetes/admin.conf");
  token
      ->add_option("--kubeconfig", *kubeconfig,
                   "The kubeconfig file to use when talking to the cluster")
      ->capture_default_str();
  auto shared = std::make_shared<HostProvider>(std::move(host));
  AddTokenCreateCommand(*token, context, kubeconfig, shared);
  AddList(*token, context, kubeconfig, shared);
  AddDeleteAndGenerate(*token, context, kubeconfig, shared);
  AddTokenInspectCommand(*token, context);
}

}  // namespace kkadm::cmd
