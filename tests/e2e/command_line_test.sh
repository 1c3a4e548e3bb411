#!/usr/bin/env bash
# The command line a kubeadm (cobra) user's hands expect, through the binary: "unknown command"
# with "Did you mean this?" (exit 1), the same suggestions for --skip-phases and
# --ignore-preflight-errors (one line, valid names listed, exit 3), `kkadm help [command]`, the
# global flags in every subcommand's help and after any subcommand, and `kkadm completion`
# loaded into a real bash (and zsh and fish when installed) with what <TAB> offers checked.
source "$(dirname "$0")/lib/common.sh"

# run NAME ARGS...: exit code in RC, streams in $WORK/NAME.{out,err}.
run() {
  local name=$1; shift
  RC=0; "$KKADM" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null || RC=$?
}

# ---- unknown commands: cobra's message and suggestions, exit 1 --------------------------------
run iint iint
assert_eq "kkadm iint: exit code" 1 "$RC"
assert_eq "kkadm iint: cobra's message" $'error: unknown command "iint" for "kkadm"\n\nDid you mean this?\n\tinit' \
  "$(cat "$WORK/iint.err")"
run phase init phase cerst
assert_eq "init phase cerst: exit code" 1 "$RC"
assert_eq "init phase cerst: suggestion" \
  $'error: unknown command "cerst" for "kkadm init phase"\n\nDid you mean this?\n\tcerts' \
  "$(cat "$WORK/phase.err")"
run subphase --rootfs "$WORK" init phase certs apiservr
assert_contains "init phase certs apiservr" "$(cat "$WORK/subphase.err")" \
  $'unknown command "apiservr" for "kkadm init phase certs"\n\nDid you mean this?\n\tapiserver'
run far xyzzy
assert_eq "a word close to nothing: exit code" 1 "$RC"
assert_eq "a word close to nothing: no suggestion" 'error: unknown command "xyzzy" for "kkadm"' \
  "$(cat "$WORK/far.err")"
run tokn tokn list
assert_contains "tokn: every name within distance 2" "$(cat "$WORK/tokn.err")" \
  $'Did you mean this?\n\tjoin\n\ttoken'
run token_sub token lst
assert_contains "token lst" "$(cat "$WORK/token_sub.err")" \
  $'unknown command "lst" for "kkadm token"\n\nDid you mean this?\n\tlist'
# A positional where the command takes one is not a command (join's sits in its "Flags" group);
# an unknown flag stays CLI11's (3).
run two_endpoints --rootfs "$WORK" join 10.0.0.1:6443 10.0.0.2:6443
assert_eq "join with two endpoints: exit code" 3 "$RC"
assert_not_contains "join with two endpoints: not a command" "$(cat "$WORK/two_endpoints.err")" \
  "unknown command"
for flag in "--no-such-flag" "--no-such-flag value" "--no-such-flag=value value"; do
  run flag init $flag
  assert_eq "init $flag: exit code" 3 "$RC"
  assert_not_contains "init $flag: not a command" "$(cat "$WORK/flag.err")" "unknown command"
done

# ---- names in flag values: one line, the suggestion, the valid names, exit 3 ------------------
run skip --rootfs "$WORK" init --dry-run --kubernetes-version v1.32.0 --skip-phases=preflight,cerst
assert_eq "--skip-phases=cerst: exit code" 3 "$RC"
assert_contains "--skip-phases=cerst" "$(cat "$WORK/skip.err")" \
  'invalid phase name: cerst (did you mean "certs"?); valid phase names are: preflight, certs, '
run skip_join --rootfs "$WORK" join --dry-run --skip-phases=kublet-start 127.0.0.1:6443 \
  --token abcdef.0123456789abcdef --discovery-token-unsafe-skip-ca-verification
assert_contains "join --skip-phases=kublet-start" "$(cat "$WORK/skip_join.err")" \
  'invalid phase name: kublet-start (did you mean "kubelet-start"?); valid phase names are: '
run ignore --rootfs "$WORK" init --dry-run --kubernetes-version v1.32.0 \
  --ignore-preflight-errors=Swp
assert_eq "--ignore-preflight-errors=Swp: exit code" 3 "$RC"
assert_contains "--ignore-preflight-errors=Swp" "$(cat "$WORK/ignore.err")" \
  'unknown pre-flight check "swp" (did you mean "swap"?); known checks: all, cri, '
check "--skip-phases error is one line" test "$(wc -l <"$WORK/skip.err")" -eq 1
check "--ignore-preflight-errors error is one line" test "$(wc -l <"$WORK/ignore.err")" -eq 1

# ---- kkadm help [command] ----------------------------------------------------------------------
run help help
assert_eq "kkadm help: exit code" 0 "$RC"
run root_help --help
assert_eq "kkadm help is kkadm --help" "$(cat "$WORK/root_help.out")" "$(cat "$WORK/help.out")"
# As kubeadm's: one line per command in the list, the long text atop the command's own help.
assert_contains "kkadm --help: join's line" "$(cat "$WORK/root_help.out")" \
  $'  join                        Run this on any machine you wish to join an existing cluster\n  reset'
run join_help join --help
assert_contains "join --help starts with its long text" "$(head -1 "$WORK/join_help.out")" \
  "When joining a kubeadm initialized cluster, we need to establish bidirectional trust."
run help_certs help init phase certs apiserver
run certs_help init phase certs apiserver --help
assert_eq "help init phase certs apiserver: exit code" 0 "$RC"
assert_eq "help init phase certs apiserver is its --help" "$(cat "$WORK/certs_help.out")" \
  "$(cat "$WORK/help_certs.out")"
assert_contains "help init phase certs apiserver: usage" "$(cat "$WORK/help_certs.out")" \
  "Usage: kkadm init phase certs apiserver"
run help_unknown help iint
assert_eq "help iint: exit code (cobra's)" 0 "$RC"
assert_contains "help iint" "$(cat "$WORK/help_unknown.out")" 'Unknown help topic [`iint`]'

# ---- global flags: in every subcommand's help, and parsed after any subcommand -----------------
for cmd in "init" "join" "token list" "init phase certs apiserver" "version"; do
  run sub_help $cmd --help
  help_text=$(cat "$WORK/sub_help.out")
  assert_contains "$cmd --help: Global Flags" "$help_text" "Global Flags:"
  assert_contains "$cmd --help: --rootfs" "${help_text#*Global Flags:}" "--rootfs"
  assert_contains "$cmd --help: -v" "${help_text#*Global Flags:}" "-v,--v"
done
run root_flags_help --help
assert_not_contains "kkadm --help has no Global Flags section" "$(cat "$WORK/root_flags_help.out")" \
  "Global Flags:"
run late_rootfs token list --rootfs "$WORK/no-such-root"
assert_eq "token list --rootfs after the subcommand: exit code" 3 "$RC"
assert_contains "token list --rootfs after the subcommand" "$(cat "$WORK/late_rootfs.err")" \
  "invalid --rootfs \"$WORK/no-such-root\""

# ---- kkadm completion --------------------------------------------------------------------------
run no_shell completion
assert_eq "completion without a shell: exit code" 3 "$RC"
assert_eq "completion without a shell" "error: shell not specified" "$(cat "$WORK/no_shell.err")"
run two_shells completion bash zsh
assert_eq "completion bash zsh" "error: too many arguments. expected only the shell type" \
  "$(cat "$WORK/two_shells.err")"
run tcsh completion tcsh
assert_eq "completion tcsh" 'error: unsupported shell type "tcsh"' "$(cat "$WORK/tcsh.err")"

"$KKADM" completion bash >"$WORK/kkadm.bash"
# bash_complete "WORDS..." prints what <TAB> offers after them (the last word is the one typed).
bash_complete() {
  bash --norc --noprofile -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
    __kkadm_complete
    printf "%s\n" "${COMPREPLY[@]}"' _ "$WORK/kkadm.bash" "$@"
}
assert_eq "bash: kkadm in<TAB>" "init" "$(bash_complete kkadm in)"
assert_eq "bash: kkadm init phase c<TAB>" $'certs\ncontrol-plane' "$(bash_complete kkadm init phase c)"
assert_eq "bash: kkadm init phase certs apis<TAB>" \
  $'apiserver\napiserver-kubelet-client\napiserver-etcd-client' "$(bash_complete kkadm init phase certs apis)"
assert_eq "bash: kkadm token list -o <TAB>" $'text\njson\nyaml' "$(bash_complete kkadm token list -o '')"
assert_eq "bash: kkadm version --output <TAB>" $'short\njson\nyaml' \
  "$(bash_complete kkadm version --output '')"
assert_contains "bash: kkadm init --con<TAB>" "$(bash_complete kkadm init --con)" "--config"
assert_contains "bash: global flags after a subcommand" "$(bash_complete kkadm init --ro)" "--rootfs"
assert_eq "bash: a flag's value is not a command" "" \
  "$(bash_complete kkadm --rootfs init phase zz)"
assert_eq "bash: kkadm com<TAB>" "completion" "$(bash_complete kkadm com)"

if command -v zsh >/dev/null; then
  "$KKADM" completion zsh >"$WORK/_kkadm"
  # zsh_complete WORDS...: _kkadm with zsh's compadd and _files replaced by printers.
  zsh_complete() {
    zsh -f -c '
      compdef() { :; }; compadd() { [[ $1 == -- ]] && shift; print -l -- "$@"; }; _files() { print FILES; }
      source "$1"; shift
      words=("$@"); CURRENT=$#
      _kkadm' _ "$WORK/_kkadm" "$@"
  }
  assert_eq "zsh: kkadm in<TAB>" "init" "$(zsh_complete kkadm in | grep '^in')"
  assert_eq "zsh: kkadm init phase c<TAB>" $'certs\ncontrol-plane' \
    "$(zsh_complete kkadm init phase c | grep '^c')"
  assert_eq "zsh: kkadm token list -o <TAB>" $'text\njson\nyaml' "$(zsh_complete kkadm token list -o '')"
  assert_eq "zsh: kkadm init --config <TAB>" "FILES" "$(zsh_complete kkadm init --config '')"
else
  echo "zsh is not installed: its completion script is not loaded"
fi

if command -v fish >/dev/null; then
  "$KKADM" completion fish >"$WORK/kkadm.fish"
  fish_complete() { fish --no-config -c "source $WORK/kkadm.fish; complete -C '$1'" | cut -f1; }
  assert_eq "fish: kkadm in<TAB>" "init" "$(fish_complete 'kkadm in')"
  assert_eq "fish: kkadm init phase c<TAB>" $'certs\ncontrol-plane' \
    "$(fish_complete 'kkadm init phase c' | sort)"
  assert_eq "fish: kkadm token list -o <TAB>" $'json\ntext\nyaml' \
    "$(fish_complete 'kkadm token list -o ' | sort)"
else
  echo "fish is not installed: its completion script is not loaded"
fi

# ---- -v 5 names what a person debugging needs; -v 0 stays quiet; NO_COLOR -----------------------
R=$WORK/v0; mkdir -p "$R"
run v0 --rootfs "$R" init phase certs ca --kubernetes-version v1.32.0
assert_eq "-v 0: nothing on stderr" "" "$(cat "$WORK/v0.err")"
R=$WORK/v5; mkdir -p "$R"
run v5 -v 5 --rootfs "$R" init phase certs ca
assert_contains "-v 5: which file" "$(cat "$WORK/v5.err")" "writing $R/etc/kubernetes/pki/ca.crt ("
assert_contains "-v 5: which endpoint, and why it failed" "$(cat "$WORK/v5.err")" \
  "http GET $KKADM_RELEASE_URL/release/stable-1.txt failed after"
# On a terminal (script(1) gives one) warnings are coloured, unless NO_COLOR is set.
on_tty() { script -qec "$*" /dev/null; }
colored=$(env -u NO_COLOR script -qec "$KKADM --rootfs $R init phase certs ca" /dev/null)
check "on a terminal, warnings are coloured" test "$colored" != "${colored//$'\e'/}"
plain=$(NO_COLOR=1 on_tty "$KKADM" --rootfs "$R" init phase certs ca)
assert_contains "NO_COLOR: the warning is there" "$plain" "falling back to the local client version"
check "NO_COLOR: no escape sequences" test "$plain" = "${plain//$'\e'/}"

finish
