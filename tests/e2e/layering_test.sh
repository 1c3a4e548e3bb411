#!/usr/bin/env bash
# The layers' include rules (docs/design.md, style guide 4 and 7): app/util, the bottom layer,
# includes nothing from app/config, app/phases or cmd; the engine, app/workflow, includes from the
# project only app/util/status.h and its own headers. A planted tree first proves the check catches
# each kind of violation, so this test cannot pass by checking nothing.
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
found=$(violations "$P")
for bad in 'util/bad.h:1:#include "app/config/types.h"' 'pki/bad.cc:1:#include "app/phases/' \
           'util/bad2.cc:1:' 'workflow/bad.h:3:#include "app/util/file_system.h"' \
           'workflow/bad.h:4:#include "cmd/root.h"'; do
  assert_contains "a planted violation is reported" "$found" "$bad"
done
assert_eq "only the planted violations are reported ($found)" 5 "$(grep -c . <<< "$found")"

# The tree itself.
found=$(violations "$KKADM_SOURCE_DIR")
assert_eq "app/util and app/workflow include nothing from above them" "" "$found"
finish
