#!/usr/bin/env bash
# Hostile input (issue 19): files built to exhaust memory or time ("billion laughs" aliases, deep
# nesting, a 10 MB file, a thousand documents), bytes that are not UTF-8 or drive a terminal,
# repeated keys, a --config that is a device, a FIFO or a directory, --rootfs "", node directories
# that climb out of the node root. Each is refused with exit code 3 (nothing was changed) and one
# error line naming the file and the limit or field, with nothing raw from the file in it and
# nothing written under --rootfs. Directories kkadm makes get their modes whatever the umask, and
# one that exists keeps its mode.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/hostile_files.sh"

ROOT=$WORK/rootfs
mkdir -p "$ROOT/etc/kubernetes" "$ROOT/var/lib"
echo "pre-existing" > "$ROOT/etc/kubernetes/keep.txt"
BEFORE=$(tree_fingerprint "$ROOT")
HEAD=$HOSTILE_HEAD

# True when FILE holds no control character but line ends.
printable() { ! tr -d '\n' <"$1" | LC_ALL=C grep -q '[[:cntrl:]]'; }

# refused NAME FRAGMENTS(|-separated) FILE [kkadm args...]: both `config validate` and `init`
# (against the node root) refuse FILE with exit code 3 and one line holding every fragment.
refused() {
  local name=$1 fragments=$2 file=$3; shift 3
  local cmd rc err
  for cmd in "config validate" "init --rootfs $ROOT --ignore-preflight-errors=all"; do
    rc=0
    # shellcheck disable=SC2086 # $cmd is a list of words
    timeout 20 "$KKADM" $cmd --config "$file" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
    err=$(cat "$WORK/err")
    assert_eq "$name ($cmd): exit code (stderr: $err)" 3 "$rc"
    assert_eq "$name ($cmd): one line (stderr: $err)" 1 "$(grep -c . "$WORK/err" || true)"
    IFS='|' read -ra want <<< "$fragments"
    for f in "${want[@]}"; do assert_contains "$name ($cmd)" "$err" "$f"; done
    # Nothing raw from the file: no escape, no NUL, no byte that is not UTF-8.
    check "$name ($cmd): no control character in the message" printable "$WORK/err"
    check "$name ($cmd): message is UTF-8" iconv -f UTF-8 -t UTF-8 "$WORK/err" -o /dev/null
    assert_eq "$name ($cmd): rootfs unchanged" "$BEFORE" "$(tree_fingerprint "$ROOT")"
  done
}

hostile_files "$WORK"
for levels in 7 9 20; do
  refused "alias bomb of $levels levels" \
    "bomb$levels.yaml:|aliases expand the text to more than 100000 values (the limit)" \
    "$WORK/bomb$levels.yaml"
done
refused "alias bomb of bytes" "bytes-bomb.yaml:|more than 8388608 bytes of keys and scalars" \
  "$WORK/bytes-bomb.yaml"

# Nesting 10,000 levels deep, as flow sequences, flow maps and block sequences.
for shape in flow map block; do
  refused "nesting 10,000 levels ($shape)" \
    "deep-$shape.yaml:|nested more than 200 levels deep (the limit)" "$WORK/deep-$shape.yaml"
done
refused "a 10 MB file" "big.yaml|over the limit of 4194304 bytes" "$WORK/big.yaml"
refused "1,001 documents" "many.yaml:|more than 1000 documents (the limit)" "$WORK/many.yaml"

# Bytes that are not UTF-8 in a key, a value and a kind; control characters raw in the file.
printf '%s\nclusterName: a\000b\n' "$HEAD" > "$WORK/nul.yaml"
printf '%s\nclusterName: a\033[2Jb\n' "$HEAD" > "$WORK/escape.yaml"
refused "invalid UTF-8 in a key" 'utf8-key.yaml:4:9: invalid UTF-8 byte \xff' "$WORK/utf8-key.yaml"
refused "invalid UTF-8 in a value" 'utf8-value.yaml:4:15: invalid UTF-8 byte \xc3' \
  "$WORK/utf8-value.yaml"
refused "invalid UTF-8 in a kind" 'utf8-kind.yaml:2:14: invalid UTF-8 byte \xe2' \
  "$WORK/utf8-kind.yaml"
refused "a NUL byte" 'nul.yaml:4:15: character U+0000 is not allowed in YAML' "$WORK/nul.yaml"
refused "a raw escape" 'escape.yaml:4:15: character U+001B is not allowed in YAML' \
  "$WORK/escape.yaml"

# Escapes YAML allows in double quotes reach messages escaped, on one line.
printf 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\nlocalAPIEndpoint:\n  bindPort: "1\\n\\e[2J"\n' \
  > "$WORK/escaped-value.yaml"
refused "an escape sequence in a value" \
  'escaped-value.yaml: InitConfiguration (document 1): localAPIEndpoint.bindPort: invalid value "1\n\x1b[2J": must be an integer' \
  "$WORK/escaped-value.yaml"
printf 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: "Init\\e]0;pwned\\a\\nConfiguration"\n' > "$WORK/escaped-kind.yaml"
rc=0; "$KKADM" config validate --config "$WORK/escaped-kind.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "an escape sequence in a kind: exit code" 3 "$rc"
assert_contains "an escape sequence in a kind" "$(cat "$WORK/err")" \
  'unknown kind "Init\x1b]0;pwned\x07\nConfiguration"'
assert_eq "an escape sequence in a kind: one line" 1 "$(grep -c . "$WORK/err")"
printf '%s\n"net\\eworking": {}\n' "$HEAD" > "$WORK/escaped-key.yaml"
rc=0; "$KKADM" config validate --config "$WORK/escaped-key.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "an escape sequence in a key: exit code" 3 "$rc"
assert_contains "an escape sequence in a key" "$(cat "$WORK/err")" 'net\x1bworking: unknown field'

# Repeated keys, tabs, component config type errors.
printf '%s\nclusterName: a\nnetworking: {}\nclusterName: b\n' "$HEAD" > "$WORK/dup.yaml"
refused "a repeated key" 'dup.yaml:6:1: duplicate key "clusterName"' "$WORK/dup.yaml"
printf '%s\nnetworking:\n\tpodSubnet: 10.0.0.0/8\n' "$HEAD" > "$WORK/tab.yaml"
refused "a tab indenting" 'tab.yaml:5:11: illegal map value|(YAML indents with spaces, not tabs)' "$WORK/tab.yaml"
printf '%s\n---\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: lots\n' \
  "$HEAD" > "$WORK/max-pods.yaml"
refused "maxPods: lots" 'maxPods: invalid value "lots": must be an integer' "$WORK/max-pods.yaml"
# A byte order mark is fine.
printf '\xef\xbb\xbf%s\n' "$HEAD" > "$WORK/bom.yaml"
check "a byte order mark is fine" "$KKADM" config validate --config "$WORK/bom.yaml"

# A --config that is not a regular file is refused before a byte is read (/dev/zero never ends,
# a FIFO waits for a writer forever).
mkfifo "$WORK/fifo.yaml"
refused "--config /dev/zero" 'unable to read config from "/dev/zero": a device' /dev/zero
refused "--config a FIFO" 'fifo.yaml": a FIFO' "$WORK/fifo.yaml"
refused "--config a directory" "unable to read config from \"$WORK\": a directory" "$WORK"

# Node directories that leave the node root or are the root itself.
printf '%s\ncertificatesDir: /../escaped/pki\n' "$HEAD" > "$WORK/climb-pki.yaml"
printf '%s\netcd:\n  local:\n    dataDir: /var/lib/../../..\n' "$HEAD" > "$WORK/climb-etcd.yaml"
printf '%s\netcd:\n  local:\n    dataDir: /\n' "$HEAD" > "$WORK/root-etcd.yaml"
refused "certificatesDir with .." \
  'certificatesDir: invalid value "/../escaped/pki": must not contain ".."' "$WORK/climb-pki.yaml"
refused "etcd.local.dataDir with .." 'etcd.local.dataDir: invalid value "/var/lib/../../.."' \
  "$WORK/climb-etcd.yaml"
refused "etcd.local.dataDir: /" \
  'etcd.local.dataDir: invalid value "/": must not be the root directory' "$WORK/root-etcd.yaml"
check "nothing escaped the node root" [ ! -e "$WORK/escaped" ]

# --rootfs "" is an error for every command, in every place on the command line (first, after the
# command, last after a flag: "init --dry-run --rootfs ''" was once an unknown command, exit 1),
# before anything is touched: not even the dry-run directory is made.
export KKADM_INIT_DRYRUN_DIR=$WORK/init-dry KKADM_RESET_DRYRUN_DIR=$WORK/reset-dry
for cmd in "init --dry-run" "reset --dry-run --force" "join --dry-run" "token list" \
  "config validate" "init phase certs all --dry-run"; do
  for where in before after last; do
    rc=0
    # shellcheck disable=SC2086 # $cmd is a list of words
    set -- $cmd
    case $where in
      before) timeout 20 "$KKADM" --rootfs "" "$@" </dev/null >"$WORK/out" 2>"$WORK/err" || rc=$? ;;
      after) timeout 20 "$KKADM" "$1" --rootfs "" "${@:2}" </dev/null >"$WORK/out" 2>"$WORK/err" ||
        rc=$? ;;
      last) timeout 20 "$KKADM" "$@" --rootfs "" </dev/null >"$WORK/out" 2>"$WORK/err" || rc=$? ;;
    esac
    assert_eq "--rootfs \"\" $where $cmd: exit code ($(cat "$WORK/err"))" 3 "$rc"
    assert_eq "--rootfs \"\" $where $cmd: one line" 1 "$(grep -c . "$WORK/err" || true)"
    assert_contains "--rootfs \"\" $where $cmd" "$(cat "$WORK/err")" "--rootfs: must not be empty"
  done
  rc=0
  # shellcheck disable=SC2086
  timeout 20 "$KKADM" --rootfs= $cmd </dev/null >"$WORK/out" 2>&1 || rc=$?
  assert_eq "--rootfs= before $cmd: exit code" 3 "$rc"
done
check "--rootfs \"\": no init dry-run directory made" test ! -e "$WORK/init-dry"
check "--rootfs \"\": no reset dry-run directory made" test ! -e "$WORK/reset-dry"
unset KKADM_INIT_DRYRUN_DIR KKADM_RESET_DRYRUN_DIR

# Directory modes whatever the umask; an existing directory keeps its mode (kubeadm's MkdirAll).
NODE=$WORK/node
mkdir -p "$NODE/var/lib/etcd" && chmod 0751 "$NODE/var/lib/etcd"
printf 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nkubernetesVersion: v1.32.0\n' \
  > "$WORK/modes.yaml"
out=$(umask 000 && "$KKADM" init phase certs all --rootfs "$NODE" --config "$WORK/modes.yaml" 2>&1 &&
  "$KKADM" init phase control-plane all --rootfs "$NODE" --config "$WORK/modes.yaml" 2>&1 &&
  "$KKADM" init phase etcd local --rootfs "$NODE" --config "$WORK/modes.yaml" 2>&1) ||
  fail "phases under umask 000: $out"
assert_eq "umask 000: /etc/kubernetes" 755 "$(stat -c %a "$NODE/etc/kubernetes")"
assert_eq "umask 000: /etc/kubernetes/pki" 755 "$(stat -c %a "$NODE/etc/kubernetes/pki")"
assert_eq "umask 000: /etc/kubernetes/pki/etcd" 755 "$(stat -c %a "$NODE/etc/kubernetes/pki/etcd")"
assert_eq "umask 000: /etc/kubernetes/manifests" 700 \
  "$(stat -c %a "$NODE/etc/kubernetes/manifests")"
assert_eq "an existing etcd data directory keeps its mode" 751 "$(stat -c %a "$NODE/var/lib/etcd")"
NEW=$WORK/new-node
mkdir "$NEW"
out=$(umask 000 && "$KKADM" init phase etcd local --rootfs "$NEW" --config "$WORK/modes.yaml" 2>&1) ||
  fail "etcd local under umask 000: $out"
assert_eq "umask 000: a new etcd data directory" 700 "$(stat -c %a "$NEW/var/lib/etcd")"
assert_eq "umask 000: /var/lib" 755 "$(stat -c %a "$NEW/var/lib")"

finish
