#!/usr/bin/env bash
# The layers' include rules (docs/architecture.md): app/util, the bottom layer, includes nothing
# from app/config, app/phases or cmd; the engine, app/workflow, includes from the project only
# app/util/status.h and its own headers. And the phase layout: the adapter of `kkadm <command>
# phase <name>` is app/phases/<command>/<name>_phase.{h,cc}, the only place (with the data header)
# that names a command's data; the work elsewhere takes narrow inputs. A planted tree first proves
# the check catches each kind of violation, so this test cannot pass by checking nothing.
source "$(dirname "$0")/lib/common.sh"

# Prints "file:line: #include ..." for every include under ROOT that breaks a rule.
violations() {  # violations ROOT
  local root=$1
  if [ -d "$root/app/util" ]; then
    grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<](app/(config|phases)|cmd)/' \
      --include='*.h' --include='*.cc' "$root/app/util" || true
  fi
  if [ -d "$root/app/workflow" ]; then
    grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<](app|cmd)/' \
      --include='*.h' --include='*.cc' "$root/app/workflow" |
      grep -vE '#[[:space:]]*include[[:space:]]*["<](app/util/status\.h|app/workflow/)' || true
  fi
  if [ -d "$root/app/phases" ]; then
    # A command's data named outside its own directory.
    grep -rnwE '(Init|Join|Reset)Data' --include='*.h' --include='*.cc' "$root/app/phases" |
      grep -vE '^[^:]*/app/phases/(init|join|reset)/' || true
    # A phase factory outside app/phases/<command>/<name>_phase.cc.
    grep -rnE '^workflow::Phase New[A-Za-z]+Phase\(' --include='*.cc' "$root/app/phases" |
      grep -vE '^[^:]*/app/phases/(init|join|reset)/[a-z_]+_phase\.cc:' || true
    # Anything else in a command's directory.
    find "$root/app/phases/init" "$root/app/phases/join" "$root/app/phases/reset" -type f \
      ! -name '*_phase.h' ! -name '*_phase.cc' ! -name '*_data.h' 2>/dev/null |
      sed 's/$/: not a phase adapter or the command data/' || true
  fi
}

# The check itself, on a planted tree: every bad include is reported, no allowed one is.
P=$WORK/planted
mkdir -p "$P/app/util/pki" "$P/app/workflow"
cat > "$P/app/util/bad.h" <<'H'
#include "app/config/types.h"
#include "app/util/status.h"
#include <string>
H
printf '#include "app/phases/init/init_data.h"\n' > "$P/app/util/pki/bad.cc"
printf '  #  include <cmd/context.h>\n' > "$P/app/util/bad2.cc"
cat > "$P/app/workflow/bad.h" <<'H'
#include "app/util/status.h"
#include "app/workflow/phase.h"
#include "app/util/file_system.h"
#include "cmd/root.h"
#include <CLI/CLI.hpp>
H
mkdir -p "$P/app/phases/etcd" "$P/app/phases/join"
printf 'Status RunJoinEtcd(JoinData& data);\n' > "$P/app/phases/etcd/work.h"
printf 'workflow::Phase NewEtcdPhase(InitData& data) {\n' > "$P/app/phases/etcd/etcd_phase.cc"
printf 'workflow::Phase NewJoinEtcdPhase(JoinData& data) {\n' > "$P/app/phases/join/etcd_phase.cc"
printf 'struct JoinData {};\n' > "$P/app/phases/join/join_data.h"
printf 'Status Work(JoinData& data);\n' > "$P/app/phases/join/etcd_work.cc"
found=$(violations "$P")
for bad in 'util/bad.h:1:#include "app/config/types.h"' 'pki/bad.cc:1:#include "app/phases/' \
           'util/bad2.cc:1:' 'workflow/bad.h:3:#include "app/util/file_system.h"' \
           'workflow/bad.h:4:#include "cmd/root.h"' 'etcd/work.h:1:' \
           'etcd/etcd_phase.cc:1:workflow' 'join/etcd_work.cc: not a phase adapter'; do
  assert_contains "a planted violation is reported" "$found" "$bad"
done
assert_eq "only the planted violations are reported ($found)" 9 "$(grep -c . <<< "$found")"

# The tree itself.
found=$(violations "$KKADM_SOURCE_DIR")
assert_eq "no include points up and every phase adapter is in its place" "" "$found"
finish
