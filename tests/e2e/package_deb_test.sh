#!/usr/bin/env bash
# kkadm's Debian package, made by cpack from the build tree as scripts/package.sh makes it: its
# control fields (Depends computed from the binary: a libc6 floor of glibc 2.34 at most), dpkg
# installing it into a scratch root (its own admin directory, seeded with the host's records of the
# packages it depends on, so dpkg checks the Depends against real versions; the host's dpkg
# database is never touched), the installed `kkadm version` printing what the build's does, the
# docs and the bash, zsh and fish completions in place, the binary stripped, and a purge removing
# it all.
source "$(dirname "$0")/lib/common.sh"

BUILD=$(cd "$(dirname "$KKADM")" && pwd)
for tool in cpack dpkg-deb dpkg-shlibdeps file; do
  command -v "$tool" >/dev/null || { echo "SKIP: no $tool (package.sh installs it)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: dpkg --root needs root"; exit 77; }
HOST_DB_BEFORE=$(sha256sum /var/lib/dpkg/status)

# ---- the package ----
cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$WORK/pkg" >"$WORK/cpack.log" 2>&1 ||
  { cat "$WORK/cpack.log"; fail "cpack failed"; finish || exit 1; }
DEB=$(sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p' "$WORK/cpack.log")
[ -f "$DEB" ] || { cat "$WORK/cpack.log"; fail "cpack made no .deb"; finish || exit 1; }
field() { dpkg-deb --field "$DEB" "$1"; }
VERSION=$("$KKADM" version -o short)
assert_eq "Package" kkadm "$(field Package)"
assert_eq "Version (kkadm version -o short, without its v)" "${VERSION#v}" "$(field Version)"
assert_eq "Architecture" "$(dpkg --print-architecture)" "$(field Architecture)"
assert_contains "Maintainer" "$(field Maintainer)" "@"
assert_contains "Description" "$(field Description)" "kubeadm"
DEPENDS=$(field Depends)
LIBC_FLOOR=$(grep -o 'libc6 (>= [0-9.]*)' <<<"$DEPENDS" | grep -o '2\.[0-9]*' || true)
if [ -z "$LIBC_FLOOR" ]; then
  fail "Depends names no libc6 floor: $DEPENDS"
else
  check "libc6 floor $LIBC_FLOOR is at most 2.34 (Depends: $DEPENDS)" \
    [ "$(cut -d. -f2 <<<"$LIBC_FLOOR")" -le 34 ]
fi
# libcurl and libsystemd are dlopen'd: dpkg-shlibdeps cannot see them.
assert_contains "Depends on libcurl (dlopen'd)" "$DEPENDS" "libcurl4"
assert_contains "Depends on libsystemd (dlopen'd)" "$DEPENDS" "libsystemd0"
if readelf --dynamic "$KKADM" | grep -q 'NEEDED.*libgcc_s'; then
  assert_contains "Depends on the shared unwinder the binary needs" "$DEPENDS" "libgcc-s1"
fi

# ---- a scratch root whose dpkg database knows the host's versions of the dependencies ----
ROOT=$WORK/root ADMIN=$WORK/root/var/lib/dpkg
mkdir -p "$ADMIN/info" "$ADMIN/updates" "$ADMIN/triggers"
: >"$ADMIN/available"
: >"$ADMIN/status"
for pkg in $(tr ',|' '\n\n' <<<"$DEPENDS" | sed 's/(.*)//; s/ //g' | sort -u); do
  dpkg-query --status "$pkg" >>"$ADMIN/status" 2>/dev/null || continue
  echo >>"$ADMIN/status"
  : >"$ADMIN/info/$(dpkg-query --show --showformat='${binary:Package}' "$pkg").list"
done
dpkg_root() { dpkg --root="$ROOT" --log=/dev/null "$@"; }
dpkg_root --install "$DEB" >"$WORK/dpkg.log" 2>&1 || { cat "$WORK/dpkg.log"; fail "dpkg -i"; }
assert_contains "dpkg's status of kkadm" "$(dpkg_root --status kkadm 2>&1)" \
  "Status: install ok installed"

# ---- what it installed ----
INSTALLED=$ROOT/usr/bin/kkadm
check "the installed kkadm is executable" test -x "$INSTALLED"
assert_eq "installed kkadm version" "$("$KKADM" version)" "$("$INSTALLED" version 2>&1)"
assert_eq "installed kkadm version -o short" "$VERSION" "$("$INSTALLED" version -o short 2>&1)"
assert_not_contains "the installed binary is stripped" "$(readelf --sections --wide "$INSTALLED")" \
  ".debug_info"
for doc in "$KKADM_SOURCE_DIR"/README.md "$KKADM_SOURCE_DIR"/docs/*.md; do
  check "installed /usr/share/doc/kkadm/$(basename "$doc")" \
    cmp -s "$doc" "$ROOT/usr/share/doc/kkadm/$(basename "$doc")"
done

# The completions, where bash-completion, zsh and fish look, are the installed binary's own.
SHARE=$ROOT/usr/share
for pair in bash:bash-completion/completions/kkadm zsh:zsh/vendor-completions/_kkadm \
  fish:fish/vendor_completions.d/kkadm.fish; do
  check "installed /usr/share/${pair#*:} is \`kkadm completion ${pair%%:*}\`" \
    cmp -s <("$INSTALLED" completion "${pair%%:*}") "$SHARE/${pair#*:}"
done
check "bash registers the installed completion for kkadm" \
  bash -c "source '$SHARE/bash-completion/completions/kkadm' && complete -p kkadm >/dev/null"

# ---- purge ----
dpkg_root --purge kkadm >"$WORK/purge.log" 2>&1 || { cat "$WORK/purge.log"; fail "dpkg --purge"; }
check "purge removed /usr/bin/kkadm" test ! -e "$INSTALLED"
check "purge removed /usr/share/doc/kkadm" test ! -e "$ROOT/usr/share/doc/kkadm"
check "purge removed the bash completion" test ! -e "$SHARE/bash-completion/completions/kkadm"
assert_eq "the host's dpkg database" "$HOST_DB_BEFORE" "$(sha256sum /var/lib/dpkg/status)"
finish
