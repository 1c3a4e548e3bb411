// A kube-apiserver static Pod like the one kkadm writes, for patch tests.
#pragma once

#include <nlohmann/json.hpp>

#include "app/util/yaml/yaml.h"

namespace kkadm::util::patches::testing {

inline constexpr const char* kApiServerPodYaml = R"(apiVersion: v1
kind: Pod
metadata:
  annotations:
    kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint: 10.0.0.10:6443
  labels:
    component: kube-apiserver
    tier: control-plane
  name: kube-apiserver
  namespace: kube-system
spec:
  containers:
  - command:
    - kube-apiserver
    - --advertise-address=10.0.0.10
    - --secure-port=6443
    env:
    - name: HTTP_PROXY
      value: http://proxy:3128
    - name: NO_PROXY
      value: 10.0.0.0/8
    image: registry.k8s.io/kube-apiserver:v1.32.0
    imagePullPolicy: IfNotPresent
    livenessProbe:
      failureThreshold: 8
      httpGet:
        host: 10.0.0.10
        path: /livez
        port: 6443
        scheme: HTTPS
      initialDelaySeconds: 10
      periodSeconds: 10
      timeoutSeconds: 15
    name: kube-apiserver
    resources:
      requests:
        cpu: 250m
    volumeMounts:
    - mountPath: /etc/ssl/certs
      name: ca-certs
      readOnly: true
    - mountPath: /etc/kubernetes/pki
      name: k8s-certs
      readOnly: true
  hostNetwork: true
  priority: 2000001000
  priorityClassName: system-node-critical
  securityContext:
    seccompProfile:
      type: RuntimeDefault
  volumes:
  - hostPath:
      path: /etc/ssl/certs
      type: DirectoryOrCreate
    name: ca-certs
  - hostPath:
      path: /etc/kubernetes/pki
      type: DirectoryOrCreate
    name: k8s-certs
status: {}
)";

// Parses one YAML document; aborts the test binary on a fixture typo.
inline nlohmann::json Yaml(const char* text) {
  auto docs = yaml::ReadDocuments(text);
  if (!docs || docs->size() != 1) throw std::runtime_error("bad test YAML");
  return (*docs)[0];
}

inline nlohmann::json ApiServerPod() { return Yaml(kApiServerPodYaml); }

}  // namespace kkadm::util::patches::testing
