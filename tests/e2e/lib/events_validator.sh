# Ajv, an implementation independent of kkadm, validating progress events against
# docs/events.schema.json (docs/events.md). Installed from tests/events_validator's lockfile once;
# tests may start together, so the install is serialised. Source after lib/common.sh.
command -v node >/dev/null || { echo "needs Node.js (the Ajv validator)"; exit 77; }
VALIDATOR=$KKADM_SOURCE_DIR/tests/events_validator
SCHEMA=$KKADM_SOURCE_DIR/docs/events.schema.json
if [ ! -d "$VALIDATOR/node_modules/ajv" ]; then
  (
    flock 9
    [ -d "$VALIDATOR/node_modules/ajv" ] ||
      npm ci --prefix "$VALIDATOR" --no-audit --no-fund --loglevel=error >/dev/null
  ) 9>"${TMPDIR:-/tmp}/kkadm-events-validator-install.lock" ||
    { echo "npm ci in $VALIDATOR failed and no node_modules exist (offline?)"; exit 77; }
fi
validate_events() {  # WHAT FILE...: every line one JSON object the schema accepts
  local what=$1 out rc=0
  shift
  out=$(node "$VALIDATOR/validate_events.js" "$SCHEMA" "$@" 2>&1) || rc=$?
  assert_eq "$what: every event valid against the schema ($out)" 0 "$rc"
  echo "$out" | tail -1
}
