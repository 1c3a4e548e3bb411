#!/usr/bin/env node
// kkadm's independent Kubernetes object validator: checks every YAML/JSON document against the
// OpenAPI-derived validators of kubernetes-models, rejects fields the schema does not declare, and
// checks kubelet.config.k8s.io/v1beta1 KubeletConfiguration (no model exists for it) with a small
// built-in schema.
//
// usage: node validate.js [--json] FILE...     validate every document of every file
//        node validate.js [--json] --stdin     validate the one object (JSON or YAML) on stdin
// Prints "<file>: OK" per valid document and "<file>: INVALID: <path> <message>" per problem
// (<file>#<n> when a file holds several documents). Exit 0 when all are valid, 1 when any is
// invalid, 2 on a usage or read error. --json prints one JSON array of results instead.
//        node validate.js --serve             long-running: reads one JSON object per line on stdin
// and answers one line {"ok":bool,"errors":["<path> <message>",...]} per object, in order (used by
// the sandbox's stand-in API server).
"use strict";

const fs = require("fs");
const YAML = require("yaml");

// apiVersion/kind -> module path under kubernetes-models.
const MODELS = {
  "v1/Pod": "v1/Pod",
  "v1/ConfigMap": "v1/ConfigMap",
  "v1/Secret": "v1/Secret",
  "v1/ServiceAccount": "v1/ServiceAccount",
  "v1/Service": "v1/Service",
  "v1/Node": "v1/Node",
  "v1/Namespace": "v1/Namespace",
  "v1/Endpoints": "v1/Endpoints",
  "v1/Event": "v1/Event",
  "coordination.k8s.io/v1/Lease": "coordination.k8s.io/v1/Lease",
  "apps/v1/Deployment": "apps/v1/Deployment",
  "apps/v1/DaemonSet": "apps/v1/DaemonSet",
  "rbac.authorization.k8s.io/v1/Role": "rbac.authorization.k8s.io/v1/Role",
  "rbac.authorization.k8s.io/v1/RoleBinding": "rbac.authorization.k8s.io/v1/RoleBinding",
  "rbac.authorization.k8s.io/v1/ClusterRole": "rbac.authorization.k8s.io/v1/ClusterRole",
  "rbac.authorization.k8s.io/v1/ClusterRoleBinding": "rbac.authorization.k8s.io/v1/ClusterRoleBinding",
  "certificates.k8s.io/v1/CertificateSigningRequest": "certificates.k8s.io/v1/CertificateSigningRequest",
};

const KUBELET_CONFIG = "kubelet.config.k8s.io/v1beta1/KubeletConfiguration";

// ---- unknown-field detection -------------------------------------------------------------------
// kubernetes-models ships its schemas as compiled (ajv standalone) validators, not as JSON. A
// compiled validator reads `data.<name>` for every property its schema declares and enumerates an
// object only when the schema allows arbitrary keys (maps such as labels). Running it on proxies
// that record those reads tells, per object, which keys the schema knows; any other key is unknown.
// Objects the validator never looked into (free-form schemas) are not judged.
function tracer() {
  const read = new WeakMap();      // object -> Set of property names the validator read
  const enumerated = new WeakSet(); // objects whose keys the validator iterated (maps)
  const proxies = new WeakMap();
  function wrap(value) {
    if (value === null || typeof value !== "object") return value;
    if (proxies.has(value)) return proxies.get(value);
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        if (typeof key === "string") {
          if (!read.has(target)) read.set(target, new Set());
          read.get(target).add(key);
        }
        return wrap(Reflect.get(target, key, receiver));
      },
      ownKeys(target) {
        enumerated.add(target);
        return Reflect.ownKeys(target);
      },
    });
    proxies.set(value, proxy);
    return proxy;
  }
  return { wrap, read, enumerated };
}

function pointer(path, key) {
  return `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

function unknownFields(value, trace, path, out) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => unknownFields(item, trace, `${path}/${i}`, out));
    return;
  }
  if (value === null || typeof value !== "object") return;
  const isMap = trace.enumerated.has(value);
  const known = trace.read.get(value);
  if (!isMap && !known) return;
  for (const key of Object.keys(value)) {
    if (!isMap && !known.has(key)) {
      out.push({ path: pointer(path, key), message: `unknown field "${key}"` });
      continue;
    }
    unknownFields(value[key], trace, pointer(path, key), out);
  }
}

function validateWithModel(obj, modulePath) {
  const kind = modulePath.split("/").pop();
  const Model = require(`kubernetes-models/${modulePath}`)[kind];
  const trace = tracer();
  const errors = [];
  try {
    // The model's validate() runs the compiled schema on `this`; call it on the traced raw object
    // (constructing the Model would copy the object and hide the reads).
    Model.prototype.validate.call(trace.wrap(obj));
  } catch (e) {
    if (!Array.isArray(e.errors)) throw e;
    for (const err of e.errors) errors.push({ path: err.instancePath || "/", message: err.message });
  }
  unknownFields(obj, trace, "", errors);
  return errors;
}

// ---- KubeletConfiguration: a JSON-schema-lite of kubelet.config.k8s.io/v1beta1 ------------------
// Field names from k8s.io/kubelet/config/v1beta1/types.go; types of the fields kubeadm sets are
// checked precisely, the rest by kind.
const S = { type: "string" };
const I32 = { type: "integer", min: -2147483648, max: 2147483647 };
const I64 = { type: "integer" };
const B = { type: "boolean" };
const NUM = { type: "number" };
const DUR = { type: "string", pattern: /^(0|[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))+)$/, patternName: "a duration such as 10s or 2m0s" };
const STRS = { type: "array", items: S };
const MAP_S = { type: "object", values: S };
const ANY_OBJ = { type: "object" };
const ANY_ARR = { type: "array" };
const enumOf = (...values) => ({ type: "string", enum: values });
const strict = (properties) => ({ type: "object", properties, additionalProperties: false });

const KUBELET_SCHEMA = strict({
  apiVersion: enumOf("kubelet.config.k8s.io/v1beta1"), kind: enumOf("KubeletConfiguration"),
  enableServer: B, staticPodPath: S, podLogsDir: S, syncFrequency: DUR, fileCheckFrequency: DUR,
  httpCheckFrequency: DUR, staticPodURL: S, staticPodURLHeader: ANY_OBJ, address: S, port: I32,
  readOnlyPort: I32, tlsCertFile: S, tlsPrivateKeyFile: S, tlsCipherSuites: STRS,
  tlsCurvePreferences: { type: "array", items: I32 }, tlsMinVersion: S, rotateCertificates: B,
  serverTLSBootstrap: B,
  authentication: strict({
    x509: strict({ clientCAFile: S }),
    webhook: strict({ enabled: B, cacheTTL: DUR }),
    anonymous: strict({ enabled: B }),
  }),
  authorization: strict({
    mode: enumOf("AlwaysAllow", "Webhook"),
    webhook: strict({ cacheAuthorizedTTL: DUR, cacheUnauthorizedTTL: DUR }),
  }),
  registryPullQPS: I32, registryBurst: I32,
  imagePullCredentialsVerificationPolicy: enumOf("NeverVerify", "NeverVerifyPreloadedImages",
    "NeverVerifyAllowlistedImages", "AlwaysVerify"),
  preloadedImagesVerificationAllowlist: STRS, eventRecordQPS: I32, eventBurst: I32,
  enableDebuggingHandlers: B, enableContentionProfiling: B, healthzPort: I32, healthzBindAddress: S,
  oomScoreAdj: I32, clusterDomain: S, clusterDNS: STRS, streamingConnectionIdleTimeout: DUR,
  nodeStatusUpdateFrequency: DUR, nodeStatusReportFrequency: DUR, nodeLeaseDurationSeconds: I32,
  imageMinimumGCAge: DUR, imageMaximumGCAge: DUR, imageGCHighThresholdPercent: I32,
  imageGCLowThresholdPercent: I32, volumeStatsAggPeriod: DUR, kubeletCgroups: S, systemCgroups: S,
  cgroupRoot: S, cgroupsPerQOS: B, cgroupDriver: enumOf("systemd", "cgroupfs"), cpuManagerPolicy: S,
  singleProcessOOMKill: B, cpuManagerPolicyOptions: MAP_S, cpuManagerReconcilePeriod: DUR,
  draManagerReconcilePeriod: DUR, memoryManagerPolicy: S, topologyManagerPolicy: S,
  topologyManagerScope: S, topologyManagerPolicyOptions: MAP_S, qosReserved: MAP_S,
  runtimeRequestTimeout: DUR, hairpinMode: S, maxPods: I32, podCIDR: S, podPidsLimit: I64,
  resolvConf: S, runOnce: B, cpuCFSQuota: B, cpuCFSQuotaPeriod: DUR, nodeStatusMaxImages: I32,
  maxOpenFiles: I64, contentType: S, kubeAPIQPS: I32, kubeAPIBurst: I32, serializeImagePulls: B,
  maxParallelImagePulls: I32, evictionHard: MAP_S, evictionSoft: MAP_S, evictionSoftGracePeriod: MAP_S,
  evictionPressureTransitionPeriod: DUR, evictionMaxPodGracePeriod: I32, evictionMinimumReclaim: MAP_S,
  mergeDefaultEvictionSettings: B, podsPerCore: I32, enableControllerAttachDetach: B,
  protectKernelDefaults: B, makeIPTablesUtilChains: B, iptablesMasqueradeBit: I32, iptablesDropBit: I32,
  featureGates: { type: "object", values: B }, failSwapOn: B, memorySwap: ANY_OBJ,
  containerLogMaxSize: S, containerLogMaxFiles: I32, containerLogMaxWorkers: I32,
  containerLogMonitorInterval: DUR,
  configMapAndSecretChangeDetectionStrategy: enumOf("Get", "Cache", "Watch"),
  systemReserved: MAP_S, kubeReserved: MAP_S, reservedSystemCPUs: S, showHiddenMetricsForVersion: S,
  systemReservedCgroup: S, kubeReservedCgroup: S, enforceNodeAllocatable: STRS,
  allowedUnsafeSysctls: STRS, volumePluginDir: S, providerID: S, kernelMemcgNotification: B,
  logging: ANY_OBJ, enableSystemLogHandler: B, enableSystemLogQuery: B, shutdownGracePeriod: DUR,
  shutdownGracePeriodCriticalPods: DUR, shutdownGracePeriodByPodPriority: ANY_ARR,
  crashLoopBackOff: ANY_OBJ, reservedMemory: ANY_ARR, enableProfilingHandler: B,
  enableDebugFlagsHandler: B, seccompDefault: B, memoryThrottlingFactor: NUM,
  memoryReservationPolicy: S, registerWithTaints: ANY_ARR, registerNode: B, tracing: ANY_OBJ,
  localStorageCapacityIsolation: B, containerRuntimeEndpoint: S, imageServiceEndpoint: S,
  failCgroupV1: B, userNamespaces: ANY_OBJ,
});

function typeOf(value) {
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

function checkLite(value, schema, path, out) {
  // Go decodes null into the zero value of any field, so null is always accepted.
  if (value === null) return;
  const actual = typeOf(value);
  const typeOk = actual === schema.type || (schema.type === "number" && actual === "integer");
  if (!typeOk) {
    out.push({ path: path || "/", message: `must be ${schema.type}` });
    return;
  }
  if (schema.enum && !schema.enum.includes(value)) {
    out.push({ path: path || "/", message: `must be equal to one of the allowed values: ${schema.enum.join(", ")}` });
  }
  if (schema.pattern && !schema.pattern.test(value)) {
    out.push({ path: path || "/", message: `must be ${schema.patternName}` });
  }
  if (schema.min !== undefined && (value < schema.min || value > schema.max)) {
    out.push({ path: path || "/", message: "must be a 32-bit integer" });
  }
  if (schema.items) value.forEach((item, i) => checkLite(item, schema.items, `${path}/${i}`, out));
  if (schema.values) {
    for (const [k, v] of Object.entries(value)) checkLite(v, schema.values, pointer(path, k), out);
  }
  if (schema.properties) {
    for (const [k, v] of Object.entries(value)) {
      if (schema.properties[k]) checkLite(v, schema.properties[k], pointer(path, k), out);
      else if (schema.additionalProperties === false) out.push({ path: pointer(path, k), message: `unknown field "${k}"` });
    }
  }
}

// ---- driver -----------------------------------------------------------------------------------
function validateObject(obj) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) {
    return [{ path: "/", message: "must be an object with apiVersion and kind" }];
  }
  const key = `${obj.apiVersion}/${obj.kind}`;
  if (key === KUBELET_CONFIG) {
    const out = [];
    checkLite(obj, KUBELET_SCHEMA, "", out);
    return out;
  }
  if (!MODELS[key]) {
    return [{ path: "/", message: `no model for apiVersion "${obj.apiVersion}" kind "${obj.kind}"` }];
  }
  return validateWithModel(obj, MODELS[key]);
}

// Splits `text` into documents; returns [{label, object}] or [{label, errors}] for syntax errors.
function documents(text, label) {
  const docs = YAML.parseAllDocuments(text).filter((d) => d.errors.length || d.contents !== null);
  return docs.map((doc, i) => {
    const docLabel = docs.length > 1 ? `${label}#${i + 1}` : label;
    if (doc.errors.length) {
      const message = doc.errors[0].message.split("\n")[0];
      return { label: docLabel, errors: [{ path: "/", message: `YAML syntax error: ${message}` }] };
    }
    return { label: docLabel, object: doc.toJS() };
  });
}

function report(results, asJson) {
  if (asJson) {
    console.log(JSON.stringify(results.map((r) => ({ file: r.label, valid: r.errors.length === 0, errors: r.errors }))));
    return;
  }
  for (const r of results) {
    if (r.errors.length === 0) console.log(`${r.label}: OK`);
    for (const e of r.errors) console.log(`${r.label}: INVALID: ${e.path} ${e.message}`);
  }
}

// --serve: one JSON object per stdin line in, one JSON answer per line out.
function serve() {
  const rl = require("readline").createInterface({ input: process.stdin, terminal: false });
  rl.on("line", (line) => {
    if (line.trim() === "") return;
    let errors;
    try {
      errors = validateObject(JSON.parse(line));
    } catch (e) {
      errors = [{ path: "/", message: `cannot validate: ${e.message}` }];
    }
    process.stdout.write(JSON.stringify({ ok: errors.length === 0, errors: errors.map((e) => `${e.path} ${e.message}`) }) + "\n");
  });
  return new Promise((resolve) => rl.on("close", () => resolve(0)));
}

function main(argv) {
  if (argv.includes("--serve")) return serve();
  const asJson = argv.includes("--json");
  const stdin = argv.includes("--stdin");
  const files = argv.filter((a) => !a.startsWith("--"));
  if (stdin === (files.length > 0)) {
    console.error("usage: validate.js [--json] FILE... | validate.js [--json] --stdin");
    return 2;
  }
  const inputs = [];
  try {
    if (stdin) inputs.push({ label: "<stdin>", text: fs.readFileSync(0, "utf8") });
    for (const f of files) inputs.push({ label: f, text: fs.readFileSync(f, "utf8") });
  } catch (e) {
    console.error(`validate.js: ${e.message}`);
    return 2;
  }
  const results = [];
  for (const input of inputs) {
    const docs = documents(input.text, input.label);
    if (stdin && docs.length !== 1) {
      results.push({ label: input.label, errors: [{ path: "/", message: `expected one object, got ${docs.length}` }] });
      continue;
    }
    for (const d of docs) results.push({ label: d.label, errors: d.errors || validateObject(d.object) });
  }
  report(results, asJson);
  return results.some((r) => r.errors.length > 0) ? 1 : 0;
}

Promise.resolve(main(process.argv.slice(2))).then((rc) => { process.exitCode = rc; });
