#!/usr/bin/env bash
# build/kkadm runs on the node systems of today, whose oldest C runtime is glibc 2.34 (RHEL and
# Rocky 9) and whose oldest GCC runtime is libgcc_s from GCC 11 (RHEL 9): readelf's view of the
# binary names no glibc symbol version newer than GLIBC_2.34, no GLIBC_ABI_DT_RELR (packed
# relocations, glibc 2.36) and no DT_RELR tag, no libgcc_s version newer than GCC 11's, and no
# shared object beyond those every glibc system has (libcurl and libsystemd are dlopen'd).
source "$(dirname "$0")/lib/common.sh"

NEEDED=$(readelf --dynamic --wide "$KKADM" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if grep -q '^libcrypto' <<<"$NEEDED"; then
  # -DKKADM_STATIC_DEPS=OFF links Debian's shared libraries: a build for this machine only.
  echo "SKIP: $KKADM links Debian's shared libraries (KKADM_STATIC_DEPS=OFF)"
  exit 77
fi
[ -n "$NEEDED" ] || fail "readelf found no NEEDED entry in $KKADM"

# The version needs section alone: .gnu.version lists the same names, which are not needs.
NEEDS=$(readelf --version-info --wide "$KKADM" |
  awk '/^Version needs section/ {on = 1; next} /^Version .* section/ {on = 0}
       on && /Name:/ {print $3}')
echo "$NEEDS" | grep -q '^GLIBC_2\.' || fail "readelf found no GLIBC_2.x version need in $KKADM"

# A name newer than the ceiling: GLIBC_2.x with x > 34, GCC_x with x > 11, anything unexpected.
too_new() {
  case "$1" in
    GLIBC_2.*) [ "$(cut -d. -f2 <<<"$1")" -gt 34 ] ;;
    GCC_*) [ "$(cut -d_ -f2 <<<"$1" | cut -d. -f1)" -gt 11 ] ;;
    *) true ;;
  esac
}
for name in $NEEDS; do
  if too_new "$name"; then fail "$KKADM needs $name, absent on glibc 2.34 / GCC 11"; else pass; fi
done
SYMBOLS=$(objdump --dynamic-syms --wide "$KKADM")
for name in $(grep -o '(GLIBC_2\.[0-9.]*)' <<<"$SYMBOLS" | tr -d '()' | sort -u); do
  too_new "$name" && fail "$KKADM imports $(grep -F "($name)" <<<"$SYMBOLS" | awk '{print $NF}' |
    tr '\n' ' ')at $name"
done
if readelf --dynamic --wide "$KKADM" | grep -q '(RELR)'; then
  fail "$KKADM has packed relocations (a DT_RELR tag), which only glibc 2.36 and newer apply"
else pass; fi

for lib in $NEEDED; do
  case "$lib" in
    libc.so.6 | libm.so.6 | ld-linux-*.so.* | libgcc_s.so.1) pass ;;
    *) fail "$KKADM needs $lib, which a glibc 2.34 node may not have" ;;
  esac
done
finish
