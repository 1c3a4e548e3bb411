# The hostile configuration files of issue 19, made in one place for the test that checks each is
# refused (e2e.hostile_input) and the benchmark that times it (bench/hostile_input_bench.sh):
#   bomb7.yaml bomb9.yaml bomb20.yaml   "billion laughs": each alias level repeats the one below
#                                       nine times (7 levels expand to 43 million values, 9 and 20
#                                       to more than any machine holds)
#   bytes-bomb.yaml                     few values, many bytes: a 100 kB string copied 100 times
#   deep-flow.yaml deep-map.yaml        nesting 10,000 levels deep as flow sequences, flow maps
#   deep-block.yaml                     and block sequences
#   big.yaml                            a 10 MB file
#   many.yaml                           1,001 documents
#   utf8-key.yaml utf8-value.yaml       bytes that are not UTF-8 in a key, a value and a kind
#   utf8-kind.yaml

HOSTILE_HEAD='apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0'

_hostile_bomb() {  # LEVELS
  echo "$HOSTILE_HEAD"
  echo 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
  for ((i = 1; i <= $1; i++)); do
    printf 'a%d: &a%d [' "$i" "$i"
    for ((j = 0; j < 9; j++)); do printf '*a%d%s' $((i - 1)) "$([ $j -lt 8 ] && echo ,)"; done
    echo ']'
  done
}

hostile_files() {  # DIR: writes every file above into DIR
  local dir=$1 levels
  for levels in 7 9 20; do _hostile_bomb "$levels" >"$dir/bomb$levels.yaml"; done
  {
    echo "$HOSTILE_HEAD"
    printf 'a: &a %s\n' "$(head -c 100000 /dev/zero | tr '\0' x)"
    echo 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]'
    echo 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]'
  } >"$dir/bytes-bomb.yaml"
  python3 - "$dir" <<'PY'
import sys
work = sys.argv[1]
head = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n"
open(f"{work}/deep-flow.yaml", "w").write(head + "x: " + "[" * 10000 + "]" * 10000 + "\n")
open(f"{work}/deep-map.yaml", "w").write(head + "x: " + "{a: " * 10000 + "1" + "}" * 10000 + "\n")
open(f"{work}/deep-block.yaml", "w").write(head + "x:\n" + "- " * 10000 + "1\n")
open(f"{work}/big.yaml", "w").write(head + "# " + "x" * (10 << 20) + "\n")
open(f"{work}/many.yaml", "w").write("---\n".join([head] * 1001))
PY
  printf '%s\nclusterN\xffame: x\n' "$HOSTILE_HEAD" >"$dir/utf8-key.yaml"
  printf '%s\nclusterName: x\xc3\x28\n' "$HOSTILE_HEAD" >"$dir/utf8-value.yaml"
  printf 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: Cluster\xe2\x82Configuration\n' >"$dir/utf8-kind.yaml"
}
