// `kkadm token create` (see token.h): the bootstrap token's Secret, and what is printed for it: a
// join token, kubeadm's join command or cloud-init user-data.
#include <optional>

#include "app/phases/bootstraptoken/bootstrap_token.h"
#include "app/phases/bootstraptoken/cloud_init.h"
#include "app/phases/bootstraptoken/join_facts.h"
#include "app/phases/bootstraptoken/token.h"
#include "app/phases/showjoincommand/join_command.h"
#include "app/phases/uploadcerts/upload_certs.h"
#include "app/util/bootstrap_token_syntax.h"
#include "app/util/crypto.h"
#include "app/util/duration.h"
#include "app/util/printer.h"
#include "app/util/rfc3339.h"
#include "cmd/context.h"
#include "cmd/token.h"

namespace kkadm::cmd {
namespace {

using Cluster = std::optional<config::ClusterConfiguration>;

Status ValidateUsagesAndGroups(const TokenCreateOptions& o) {
  for (const auto& usage : o.usages) {
    if (usage != "signing" && usage != "authentication") {
      return InvalidArgument("invalid bootstrap token usage string: " + usage +
                             ", valid usage options: signing,authentication");
    }
  }
  for (const auto& group : o.groups) {
    if (!util::IsBootstrapGroupName(group)) {
      return InvalidArgument("invalid group name \"" + group + "\" (must match " +
                             "^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$)");
    }
  }
  return Status::Ok();
}

// --ttl as kubeadm reads it, a Go duration (pflag's DurationVar), with the parser init's
// --token-ttl uses. A negative TTL is refused, as init refuses a negative bootstrapTokens[].ttl;
// kubeadm would make a token that never expires.
Result<config::Duration> ParseTtl(const std::string& text) {
  const std::string flag = "invalid argument \"" + text + "\" for \"--ttl\" flag: ";
  auto ttl = util::ParseDuration(text);
  if (!ttl) return InvalidArgument(flag + ttl.error().message());
  if (ttl->count() < 0) return InvalidArgument(flag + "must be >= 0");
  return *ttl;
}

Result<config::BootstrapToken> NewToken(const TokenCreateOptions& options) {
  std::string token_string = options.token;
  if (token_string.empty()) {
    auto generated = util::GenerateBootstrapToken();
    if (!generated) return generated.error();
    token_string = *generated;
  }
  auto token = phases::ParseBootstrapToken(token_string);
  if (!token) return token.error();
  auto ttl = ParseTtl(options.ttl);
  if (!ttl) return ttl.error();
  KKADM_RETURN_IF_ERROR(ValidateUsagesAndGroups(options));
  token->ttl = *ttl;
  token->usages = options.usages;
  token->groups = options.groups;
  token->description = options.description;
  return token;
}

// The given --certificate-key (checked, never echoed) or a fresh one.
Result<std::string> CertificateKey(const TokenCreateOptions& options) {
  if (options.certificate_key.empty()) return util::CreateCertificateKey();
  if (!util::DecodeCertificateKey(options.certificate_key)) {
    return InvalidArgument(
        "--certificate-key: invalid value <redacted>: must be 64 hexadecimal characters");
  }
  return options.certificate_key;
}

// The ClusterConfiguration from kubeadm-config; a cluster without it still gets worker tokens
// (with the admin kubeconfig's server as the only endpoint).
Result<Cluster> FetchCluster(util::KubeClient& client, bool required) {
  auto cluster = phases::FetchClusterConfiguration(client);
  if (cluster) return Cluster(*cluster);
  if (required || cluster.error().code() != StatusCode::kNotFound) return cluster.error();
  return Cluster();
}

struct Plan {
  config::BootstrapToken token;
  std::string certificate_key;  // a control-plane token's; "" for a worker's
  Cluster cluster;
};

Result<std::string> JoinTokenText(const TokenCreateOptions& options, util::Host& host,
                                  const Plan& plan) {
  return phases::EncodedJoinToken(
      host.fs, {.kubeconfig_path = options.kubeconfig,
                .control_plane_endpoint = plan.cluster ? plan.cluster->control_plane_endpoint : "",
                .token = plan.token.Token(),
                .certificate_key = plan.certificate_key});
}

// What the command prints, made before anything is written.
Result<std::string> Output(const TokenCreateOptions& options, util::Host& host,
                           util::KubeClient& client, const Plan& plan) {
  if (options.print_join_command) {
    auto join = phases::JoinCommand(host.fs, {.kubeconfig_path = options.kubeconfig,
                                              .token = plan.token.Token(),
                                              .certificate_key = plan.certificate_key,
                                              .control_plane = !plan.certificate_key.empty(),
                                              .skip_token_print = false,
                                              .skip_certificate_key_print = false});
    if (!join) return join.error().Wrap("failed to get join command");
    return phases::SingleLineJoinCommand(*join) + "\n";
  }
  auto token = JoinTokenText(options, host, plan);
  if (!token) return token.error().Wrap("failed to make the join token");
  if (!options.print_cloud_init) return *token + "\n";
  const auto& ttl = plan.token.ttl;
  return phases::CloudInitUserData(
      {.join_token = *token,
       .cri_socket =
           options.cri_socket.empty() ? phases::ClusterCriSocket(client) : options.cri_socket,
       .control_plane = !plan.certificate_key.empty(),
       .expires = ttl && ttl->count() > 0 ? util::FormatRfc3339(host.clock.Now() + *ttl) : ""});
}

// Checks everything that can be refused and gathers what the output needs.
Result<Plan> MakePlan(const TokenCreateOptions& options, util::Host& host, util::KubeClient& client,
                      const config::BootstrapToken& token, std::ostream& err) {
  Plan plan;
  plan.token = token;
  const bool control_plane = options.control_plane || !options.certificate_key.empty();
  if (Status usable = phases::CheckJoinUsagesAndGroups(plan.token); !usable.ok()) {
    if (control_plane || options.print_cloud_init) return usable;
    if (!options.print_join_command)
      err << "warning: this token cannot join nodes: " << usable.message() << "\n";
  }
  if (control_plane) {
    auto key = CertificateKey(options);
    if (!key) return key.error();
    plan.certificate_key = *key;
  }
  if (control_plane || !options.print_join_command) {
    auto cluster = FetchCluster(client, control_plane);
    if (!cluster) return cluster.error();
    plan.cluster = *cluster;
  }
  if (control_plane) KKADM_RETURN_IF_ERROR(phases::CheckControlPlaneJoin(host.fs, *plan.cluster));
  return plan;
}

// The flags that choose what is printed and for which kind of node.
void AddJoinFlags(CLI::App& create, TokenCreateOptions& opts) {
  auto* join_command = create.add_flag(
      "--print-join-command", opts.print_join_command,
      "Instead of the join token, print kubeadm's full 'kkadm join' command with its flags");
  create
      .add_flag("--print-cloud-init", opts.print_cloud_init,
                "Instead of the join token, print cloud-init user-data (#cloud-config) that "
                "joins a new node")
      ->excludes(join_command);
  create.add_flag("--control-plane", opts.control_plane,
                  "Make a token that joins a control-plane node: upload the control-plane "
                  "certificates again, encrypted with a fresh certificate key the token carries");
  create.add_option("--certificate-key", opts.certificate_key,
                    "The certificate key to encrypt the uploaded certificates with (implies "
                    "--control-plane)");
  create.add_option(
      "--cri-socket", opts.cri_socket,
      "With --print-cloud-init: the new node's container runtime socket (default: "
      "the control-plane nodes' one, else unix:///var/run/containerd/containerd.sock)");
}

}  // namespace

Status TokenCreate(const TokenCreateOptions& options, util::Host& host, std::ostream& out,
                   std::ostream& err) {
  auto token = NewToken(options);  // bad flags are refused before any I/O
  if (!token) return token.error();
  auto client = TokenApiClient(host, options.kubeconfig);
  if (!client) return client.error();
  auto plan = MakePlan(options, host, **client, *token, err);
  if (!plan) return plan.error();
  auto output = Output(options, host, **client, *plan);
  if (!output) return output.error();
  KKADM_RETURN_IF_ERROR(
      phases::UpdateOrCreateTokens(**client, true, {plan->token}, host.clock.Now()));
  if (!plan->certificate_key.empty()) {
    util::Printer progress(err);
    KKADM_RETURN_IF_ERROR(phases::UploadCerts(**client, host.fs, progress, *plan->cluster,
                                              plan->certificate_key, host.clock.Now())
                              .Wrap("error uploading certs"));
  }
  out << *output;
  return Status::Ok();
}

void AddTokenCreateCommand(CLI::App& token, CommandContext& context,
                           std::shared_ptr<std::string> kubeconfig,
                           std::shared_ptr<HostProvider> host) {
  auto opts = std::make_shared<TokenCreateOptions>();
  auto* create = token.add_subcommand("create", "Create bootstrap tokens on the server");
  create->fallthrough();  // --kubeconfig belongs to `token` but may follow the subcommand
  create->add_option("token", opts->token, "The token to create (generated if omitted)");
  create
      ->add_option("--ttl", opts->ttl,
                   "The duration before the token is automatically deleted (e.g. 1s, 2m, 3h). "
                   "If set to '0', the token will never expire")
      ->capture_default_str();
  // One argument per occurrence, as pflag's: `--usages a,b TOKEN` leaves TOKEN alone.
  create->add_option("--usages", opts->usages, "Describes the ways in which this token can be used")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->capture_default_str();
  create
      ->add_option("--groups", opts->groups,
                   "Extra groups that this token will authenticate as when used for authentication")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->capture_default_str();
  create->add_option("--description", opts->description,
                     "A human friendly description of how this token is used");
  AddJoinFlags(*create, *opts);
  create->callback([&context, opts, kubeconfig, host] {
    opts->kubeconfig = *kubeconfig;
    Result<util::Host*> node = (*host)();
    context.status = node ? TokenCreate(*opts, **node, context.out, context.err) : node.error();
  });
}

}  // namespace kkadm::cmd
