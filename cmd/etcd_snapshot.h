// `kkadm etcd snapshot save [dir] | list | verify <path> | restore <path>`: backups of this
// node's stacked etcd (app/phases/etcd_snapshot/), with retention; docs/etcd-snapshot.md.
#pragma once

#include <CLI/CLI.hpp>

namespace kkadm::cmd {

struct CommandContext;

void AddEtcdCommand(CLI::App& root, CommandContext& context);

}  // namespace kkadm::cmd
