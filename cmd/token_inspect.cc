// `kkadm token inspect` (see token.h): a join token's fields, decoded offline, secrets redacted.
#include <nlohmann/json.hpp>

#include "app/phases/bootstraptoken/token.h"
#include "app/util/join_token.h"
#include "app/util/yaml/yaml.h"
#include "cmd/context.h"
#include "cmd/token.h"

namespace kkadm::cmd {
namespace {

using nlohmann::ordered_json;

constexpr int kFormatVersion = 1;  // the "kk1." of app/util/join_token.h

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// The documented output object (docs/token.md): field names and order are an interface.
ordered_json InspectObject(const util::JoinToken& redacted) {
  ordered_json out = {
      {"formatVersion", kFormatVersion},
      {"endpoints", redacted.endpoints},
      {"tokenID", redacted.bootstrap_token.substr(0, redacted.bootstrap_token.find('.'))},
      {"bootstrapToken", redacted.bootstrap_token},
      {"caCertHashes", redacted.ca_cert_hashes},
      {"controlPlane", !redacted.certificate_key.empty()},
  };
  if (!redacted.certificate_key.empty()) out["certificateKey"] = redacted.certificate_key;
  return out;
}

std::string InspectText(const ordered_json& object) {
  const bool control_plane = object["controlPlane"].get<bool>();
  return "format version:   " + std::to_string(kFormatVersion) + " (" +
         std::string(util::kJoinTokenPrefix) +
         ")\nendpoints:        " + Joined(object["endpoints"].get<std::vector<std::string>>()) +
         "\ntoken id:         " + object["tokenID"].get<std::string>() +
         "\nbootstrap token:  " + object["bootstrapToken"].get<std::string>() +
         "\nCA cert hashes:   " + Joined(object["caCertHashes"].get<std::vector<std::string>>()) +
         "\ncontrol plane:    " +
         (control_plane
              ? "yes (certificate key " + object["certificateKey"].get<std::string>() + ")"
              : std::string("no")) +
         "\n";
}

}  // namespace

Status TokenInspect(const std::vector<std::string>& args, const std::string& output,
                    std::ostream& out) {
  if (args.size() != 1) {
    return InvalidArgument("token inspect takes exactly one join token (got " +
                           std::to_string(args.size()) + " arguments)");
  }
  if (phases::ParseBootstrapToken(args[0])) {
    return InvalidArgument(
        "invalid join token: this is a bare bootstrap token (<id>.<secret>), not a join token; "
        "\"kkadm token create\" prints a join token");
  }
  auto token = util::DecodeJoinToken(args[0]);
  if (!token) return token.error();
  const ordered_json object = InspectObject(util::RedactedJoinToken(*token));
  if (output == "json") {
    out << object.dump(4) << "\n";
  } else if (output == "yaml") {
    out << util::yaml::Emit(nlohmann::json(object));
  } else {
    out << InspectText(object);
  }
  return Status::Ok();
}

void AddTokenInspectCommand(CLI::App& token, CommandContext& context) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto output = std::make_shared<std::string>("text");
  auto* inspect = token.add_subcommand(
      "inspect", "Decode a join token and print its fields, secrets redacted (no network)");
  inspect->fallthrough();
  // Taken as a list and counted here: CLI11's own message for an extra argument would repeat it.
  inspect->add_option("token", *args, "The join token (kk1.…)");
  inspect->add_option("-o,--output", *output, "Output format. One of: text|json|yaml")
      ->check(CLI::IsMember({"text", "json", "yaml"}));
  inspect->callback(
      [&context, args, output] { context.status = TokenInspect(*args, *output, context.out); });
}

}  // namespace kkadm::cmd
