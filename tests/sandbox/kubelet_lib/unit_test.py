"""Unit tests of the stand-in kubelet's pure parts: the YAML subset reader (on kkadm's golden
manifests and yaml-cpp style documents), flag parsing, taints, and the Pod -> process mapping.
Run: cd tests/sandbox && python3 -m unittest kubelet_lib.unit_test
"""

import os
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))

import kubelet  # noqa: E402
from kubelet_lib import node, static_pods, yamlsub  # noqa: E402
from kubelet_lib.paths import Rootfs  # noqa: E402

GOLDEN = os.path.join(REPO, "tests", "phases", "testdata", "golden")


class YamlSubsetTest(unittest.TestCase):
    def test_golden_etcd_manifest(self):
        with open(os.path.join(GOLDEN, "v1beta4-etcd.yaml")) as f:
            pod = yamlsub.load(f.read())
        c = pod["spec"]["containers"][0]
        self.assertEqual(c["command"][0], "etcd")
        self.assertIn("--data-dir=/var/lib/etcd", c["command"])
        self.assertEqual(c["env"], [{"name": "ETCD_UNSUPPORTED_ARCH", "value": "arm"}])
        self.assertEqual(c["livenessProbe"]["httpGet"]["port"], 2381)
        self.assertIs(pod["spec"]["hostNetwork"], True)
        self.assertIsNone(pod["metadata"]["creationTimestamp"])
        self.assertEqual(pod["status"], {})
        self.assertEqual([v["hostPath"]["path"] for v in pod["spec"]["volumes"]],
                         ["/etc/kubernetes/pki/etcd", "/var/lib/etcd"])

    def test_every_golden_manifest_is_a_pod(self):
        # The golden directory also holds command output (*.txt); the manifests are *.yaml.
        for name in sorted(n for n in os.listdir(GOLDEN) if n.endswith(".yaml")):
            with open(os.path.join(GOLDEN, name)) as f:
                pod = yamlsub.load(f.read())
            self.assertEqual(pod["kind"], "Pod", name)
            self.assertTrue(pod["spec"]["containers"][0]["command"], name)

    def test_yaml_cpp_style(self):
        doc = yamlsub.load(
            "apiVersion: kubelet.config.k8s.io/v1beta1\n"
            "authentication:\n  x509:\n    clientCAFile: /etc/kubernetes/pki/ca.crt\n"
            "clusterDNS:\n  - 10.96.0.10\n  - \"fd00::a\"\n"
            "featureGates: {}\nhealthzPort: 10248\nresolvConf: '/run/x # y'  # comment\n"
            "kind: KubeletConfiguration\nreadOnlyPort: 0\nstaticPodPath: \"/etc/kubernetes/manifests\"\n")
        self.assertEqual(doc["clusterDNS"], ["10.96.0.10", "fd00::a"])
        self.assertEqual(doc["featureGates"], {})
        self.assertEqual(doc["healthzPort"], 10248)
        self.assertEqual(doc["resolvConf"], "/run/x # y")
        self.assertEqual(doc["staticPodPath"], "/etc/kubernetes/manifests")

    def test_scalars_and_flow(self):
        doc = yamlsub.load('a: "true"\nb: true\nc: "10"\nd: 1.5\ne: ~\nf: [x, {k: v}]\ng: "\\u00e9\\n"\n'
                           "h: 'it''s'\ni: |\n  one\n  two\nj: 10.96.0.10\n")
        self.assertEqual(doc, {"a": "true", "b": True, "c": "10", "d": 1.5, "e": None,
                               "f": ["x", {"k": "v"}], "g": "\u00e9\n", "h": "it's",
                               "i": "one\ntwo\n", "j": "10.96.0.10"})

    def test_lists_of_lists_and_documents(self):
        self.assertEqual(yamlsub.load("- - a\n  - b\n- c\n"), [["a", "b"], "c"])
        self.assertEqual(yamlsub.load_all("a: 1\n---\nb: 2\n"), [{"a": 1}, {"b": 2}])
        self.assertEqual(yamlsub.load('{"a": [1, 2]}'), {"a": [1, 2]})

    def test_unsupported_constructs_are_errors(self):
        for text in ("a: &x 1\nb: *x\n", "a: b\n  c\n", "a:\n\t- x\n", "a: \"open\n"):
            with self.assertRaises(yamlsub.YamlError, msg=text):
                yamlsub.load(text)


class FlagsTest(unittest.TestCase):
    def test_drop_in_flags(self):
        known, unknown = kubelet.parse_flags([
            "--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf",
            "--kubeconfig", "/etc/kubernetes/kubelet.conf", "--v=2", "--cgroup-driver=systemd",
            "--fail-swap-on", "false", "--rotate-certificates"])
        self.assertEqual(known["kubeconfig"], "/etc/kubernetes/kubelet.conf")
        self.assertEqual(known["v"], "2")
        self.assertEqual(unknown, [("cgroup-driver", "systemd"), ("fail-swap-on", "false"),
                                   ("rotate-certificates", "")])

    def test_bad_flags(self):
        with self.assertRaises(kubelet.UsageError):
            kubelet.parse_flags(["positional"])
        with self.assertRaises(kubelet.UsageError):
            kubelet.parse_flags(["--kubeconfig"])

    def test_taints(self):
        self.assertEqual(node.parse_taints("a=b:NoSchedule,node-role.kubernetes.io/control-plane:NoExecute"),
                         [{"key": "a", "value": "b", "effect": "NoSchedule"},
                          {"key": "node-role.kubernetes.io/control-plane", "effect": "NoExecute"}])
        self.assertEqual(node.parse_taints(""), [])
        with self.assertRaises(ValueError):
            node.parse_taints("a=b:Sometimes")


class PodSpecTest(unittest.TestCase):
    def pod(self, command, volumes=(), env=()):
        return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "kube-system"},
                "spec": {"containers": [{"name": "c", "command": list(command), "env": list(env)}],
                         "volumes": [{"name": "v%d" % i, "hostPath": {"path": p, "type": "DirectoryOrCreate"}}
                                     for i, p in enumerate(volumes)]}}

    def test_etcd_paths_under_host_path_volumes_get_the_rootfs(self):
        with open(os.path.join(GOLDEN, "v1beta4-etcd.yaml")) as f:
            pod = yamlsub.load(f.read())
        name, _, argv, env, _ = static_pods.build_spec(pod, Rootfs("/r"), REPO)
        self.assertEqual(name, "kube-system/etcd")
        self.assertIn("--data-dir=/r/var/lib/etcd", argv)
        self.assertIn("--peer-trusted-ca-file=/r/etc/kubernetes/pki/etcd/ca.crt", argv)
        self.assertIn("--listen-client-urls=https://127.0.0.1:2379,https://192.0.2.10:2379", argv)
        self.assertEqual(env, {"ETCD_UNSUPPORTED_ARCH": "arm"})

    def test_paths_outside_volumes_and_empty_rootfs_stay(self):
        pod = self.pod(["/bin/tool", "--a=/srv/x", "--b=/data/y", "/data/z", "rel"], ["/data"])
        _, _, argv, _, _ = static_pods.build_spec(pod, Rootfs("/r"), REPO)
        self.assertEqual(argv, ["/bin/tool", "--a=/srv/x", "--b=/r/data/y", "/r/data/z", "rel"])
        _, _, argv, _, _ = static_pods.build_spec(pod, Rootfs(""), REPO)
        self.assertEqual(argv[1:3], ["--a=/srv/x", "--b=/data/y"])

    def test_stand_ins_get_their_script_and_rootfs(self):
        for golden, script in (("v1beta4-kube-apiserver.yaml", "apiserver.py"),
                               ("v1beta4-kube-controller-manager.yaml", "controller_manager.py"),
                               ("v1beta4-kube-scheduler.yaml", "scheduler.py")):
            with open(os.path.join(GOLDEN, golden)) as f:
                pod = yamlsub.load(f.read())
            _, _, argv, _, _ = static_pods.build_spec(pod, Rootfs("/r"), REPO)
            self.assertEqual(argv[1], os.path.join(REPO, "tests", "sandbox", script))
            self.assertEqual(argv[-2:], ["--sandbox-rootfs", "/r"])
            # The stand-ins map node paths themselves: no double prefix.
            self.assertFalse(any("=/r/" in a for a in argv), argv)

    def test_unrunnable_pods(self):
        for pod in ({"kind": "Deployment"}, self.pod([]), "text"):
            with self.assertRaises(static_pods.PodError):
                static_pods.build_spec(pod, Rootfs("/r"), REPO)


if __name__ == "__main__":
    unittest.main()
