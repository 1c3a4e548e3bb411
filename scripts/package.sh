#!/usr/bin/env bash
# Builds kkadm's Debian package and prints the .deb's path: the stripped binary, its shell
# completions and the docs, with Depends computed from the binary (CMakeLists.txt, CPack). The
# build directory is $KKADM_BUILD (build/), the package goes to $KKADM_PACKAGE_DIR (build/package).
# Install it on a node with `apt install ./kkadm_<version>_<arch>.deb`.
source "$(dirname "$0")/lib.sh"
# dpkg-shlibdeps (dpkg-dev) and file are what CPack computes Depends with.
ensure_packages "${KKADM_BUILD_PACKAGES[@]}" dpkg-dev file
build_kkadm kkadm kkadm_completions >&2
OUT=${KKADM_PACKAGE_DIR:-$KKADM_BUILD/package}
mkdir -p "$OUT"
log "packaging with cpack into $OUT"
report=$(cpack -G DEB --config "$KKADM_BUILD/CPackConfig.cmake" -B "$OUT")
# cpack's staging copy of the installed files is of no use once the .deb is made.
rm -rf "$OUT/_CPack_Packages"
deb=$(sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p' <<<"$report")
[ -f "$deb" ] || { echo "$report" >&2; echo "cpack made no .deb" >&2; exit 1; }
echo "$deb"
