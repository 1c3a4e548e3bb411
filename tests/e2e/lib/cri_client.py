#!/usr/bin/python3
"""An independent CRI v1 client for the tests (not kkadm's): Debian's python3-grpcio with stubs
generated at run time by python3-grpc-tools from tests/e2e/lib/cri_api.proto.

Usage: cri_client.py --socket SOCK --work DIR COMMAND [ARGS]
  version                       JSON: version, runtimeName, runtimeVersion, runtimeApiVersion
  status                        JSON: conditions [{type, status, reason, message}], info keys
  run-pod NAME [--namespace NS] [--uid UID] [--label K=V]...   prints the sandbox id
      (host network namespace, so no CNI is needed; --cgroup-parent or $KK_CRI_CGROUP_PARENT)
  create-container POD_ID NAME IMAGE [CMD...]   creates and starts it; prints the container id
  pods | containers | images    one JSON object per line
  pull IMAGE | image-status IMAGE | remove-image IMAGE
  stop-pod ID | remove-pod ID
Exit status 1 with "rpc error: code = <CODE> desc = <details>" on stderr when a call fails.
DIR holds the generated stubs and each sandbox's configuration (CreateContainer repeats it).
"""
import argparse
import json
import os
import sys


def load_stubs(work):
    out = os.path.join(work, "cri_stubs")
    if not os.path.exists(os.path.join(out, "cri_api_pb2_grpc.py")):
        from grpc_tools import protoc
        here = os.path.dirname(os.path.abspath(__file__))
        os.makedirs(out, exist_ok=True)
        rc = protoc.main(["protoc", "-I" + here, "--python_out=" + out,
                          "--grpc_python_out=" + out, os.path.join(here, "cri_api.proto")])
        if rc != 0:
            sys.exit("protoc failed for cri_api.proto")
    sys.path.insert(0, out)
    import cri_api_pb2
    import cri_api_pb2_grpc
    return cri_api_pb2, cri_api_pb2_grpc


def pod_config(pb, args):
    labels = dict(kv.split("=", 1) for kv in args.label)
    ns = pb.NamespaceOption(network=pb.NODE, pid=pb.CONTAINER, ipc=pb.POD)
    linux = pb.LinuxPodSandboxConfig(
        cgroup_parent=args.cgroup_parent or os.environ.get("KK_CRI_CGROUP_PARENT", ""),
        security_context=pb.LinuxSandboxSecurityContext(namespace_options=ns))
    return pb.PodSandboxConfig(
        metadata=pb.PodSandboxMetadata(name=args.name, uid=args.uid or args.name + "-uid",
                                       namespace=args.namespace, attempt=0),
        hostname="", log_directory=os.path.join(args.work, "pod-logs", args.name),
        labels=labels, linux=linux)


def pod_file(work, pod_id):
    return os.path.join(work, "cri_pods", pod_id + ".pb")


def run_pod(pb, rt, args):
    config = pod_config(pb, args)
    os.makedirs(config.log_directory, exist_ok=True)
    pod_id = rt.RunPodSandbox(pb.RunPodSandboxRequest(config=config)).pod_sandbox_id
    os.makedirs(os.path.dirname(pod_file(args.work, pod_id)), exist_ok=True)
    with open(pod_file(args.work, pod_id), "wb") as f:
        f.write(config.SerializeToString())
    print(pod_id)


def create_container(pb, rt, args):
    sandbox = pb.PodSandboxConfig()
    with open(pod_file(args.work, args.pod_id), "rb") as f:
        sandbox.ParseFromString(f.read())
    config = pb.ContainerConfig(metadata=pb.ContainerMetadata(name=args.name, attempt=0),
                                image=pb.ImageSpec(image=args.image), command=args.cmd,
                                log_path=args.name + ".log")
    cid = rt.CreateContainer(pb.CreateContainerRequest(
        pod_sandbox_id=args.pod_id, config=config, sandbox_config=sandbox)).container_id
    rt.StartContainer(pb.StartContainerRequest(container_id=cid))
    print(cid)


def list_all(pb, rt, im, args):
    if args.command == "pods":
        for p in rt.ListPodSandbox(pb.ListPodSandboxRequest()).items:
            print(json.dumps({"id": p.id, "name": p.metadata.name, "namespace": p.metadata.namespace,
                              "uid": p.metadata.uid, "state": pb.PodSandboxState.Name(p.state),
                              "labels": dict(p.labels)}))
    elif args.command == "containers":
        for c in rt.ListContainers(pb.ListContainersRequest()).containers:
            print(json.dumps({"id": c.id, "podSandboxId": c.pod_sandbox_id, "name": c.metadata.name,
                              "image": c.image.image, "state": pb.ContainerState.Name(c.state)}))
    else:
        for i in im.ListImages(pb.ListImagesRequest()).images:
            print(json.dumps({"id": i.id, "repoTags": list(i.repo_tags),
                              "repoDigests": list(i.repo_digests), "size": i.size}))


def image_call(pb, im, args):
    spec = pb.ImageSpec(image=args.image)
    if args.command == "pull":
        print(im.PullImage(pb.PullImageRequest(image=spec)).image_ref)
    elif args.command == "remove-image":
        im.RemoveImage(pb.RemoveImageRequest(image=spec))
    else:
        status = im.ImageStatus(pb.ImageStatusRequest(image=spec))
        found = status.HasField("image") and status.image.id != ""
        print(json.dumps({"present": found, "id": status.image.id,
                          "repoTags": list(status.image.repo_tags)}))


def parse(argv):
    p = argparse.ArgumentParser(description="independent CRI v1 client for kkadm's tests")
    p.add_argument("--socket", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--timeout", type=float, default=60)
    sub = p.add_subparsers(dest="command", required=True)
    for name in ("version", "status", "pods", "containers", "images"):
        sub.add_parser(name)
    rp = sub.add_parser("run-pod")
    rp.add_argument("name")
    rp.add_argument("--namespace", default="default")
    rp.add_argument("--uid", default="")
    rp.add_argument("--label", action="append", default=[])
    rp.add_argument("--cgroup-parent", default="")
    cc = sub.add_parser("create-container")
    cc.add_argument("pod_id")
    cc.add_argument("name")
    cc.add_argument("image")
    cc.add_argument("cmd", nargs=argparse.REMAINDER)
    for name in ("pull", "image-status", "remove-image"):
        sub.add_parser(name).add_argument("image")
    for name in ("stop-pod", "remove-pod"):
        sub.add_parser(name).add_argument("pod_id")
    return p.parse_args(argv)


def dispatch(pb, rt, im, args):
    if args.command == "version":
        v = rt.Version(pb.VersionRequest(version="v1"))
        print(json.dumps({"version": v.version, "runtimeName": v.runtime_name,
                          "runtimeVersion": v.runtime_version,
                          "runtimeApiVersion": v.runtime_api_version}))
    elif args.command == "status":
        s = rt.Status(pb.StatusRequest(verbose=True))
        print(json.dumps({"conditions": [{"type": c.type, "status": c.status, "reason": c.reason,
                                          "message": c.message} for c in s.status.conditions],
                          "info": sorted(s.info.keys())}))
    elif args.command == "run-pod":
        run_pod(pb, rt, args)
    elif args.command == "create-container":
        create_container(pb, rt, args)
    elif args.command in ("pods", "containers", "images"):
        list_all(pb, rt, im, args)
    elif args.command in ("pull", "image-status", "remove-image"):
        image_call(pb, im, args)
    elif args.command == "stop-pod":
        rt.StopPodSandbox(pb.StopPodSandboxRequest(pod_sandbox_id=args.pod_id))
    elif args.command == "remove-pod":
        rt.RemovePodSandbox(pb.RemovePodSandboxRequest(pod_sandbox_id=args.pod_id))


def main(argv):
    args = parse(argv)
    import grpc
    pb, pb_grpc = load_stubs(args.work)
    channel = grpc.insecure_channel("unix://" + os.path.abspath(args.socket))
    try:
        grpc.channel_ready_future(channel).result(timeout=args.timeout)
        rt, im = pb_grpc.RuntimeServiceStub(channel), pb_grpc.ImageServiceStub(channel)
        dispatch(pb, rt, im, args)
    except grpc.RpcError as e:
        print("rpc error: code = %s desc = %s" % (e.code().name, e.details()), file=sys.stderr)
        return 1
    except grpc.FutureTimeoutError:
        print("no CRI server answered at %s" % args.socket, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
