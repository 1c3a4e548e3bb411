// The CRI v1 client over gRPC: util::ContainerRuntime on the stubs protoc makes from api.proto.
//
// This file is built into libkkadm_cri.so, not into kkadm: the shared object links Debian's
// libgrpc++ and libprotobuf-lite, and kkadm carries its bytes and loads it only when a command
// first talks to the runtime (app/util/cri_client.cc), so no other command maps gRPC. Its one
// exported symbol is kkadm_cri_new. Objects cross the boundary as C++ types of the same compiler
// and standard library ABI; memory is malloc's on both sides, and no exception crosses it.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "api.grpc.pb.h"
#include "app/util/container_runtime.h"

namespace kkadm::cri {
namespace {

using util::ContainerRuntime;
using RuntimeStub = runtime::v1::RuntimeService::Stub;
using ImageStub = runtime::v1::ImageService::Stub;

// Go's names of the gRPC codes, as kubeadm's errors print them ("code = Unavailable").
const char* GoCodeName(grpc::StatusCode code) {
  static const char* const kNames[] = {
      "OK",       "Canceled",       "Unknown",          "InvalidArgument",   "DeadlineExceeded",
      "NotFound", "AlreadyExists",  "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
      "Aborted",  "OutOfRange",     "Unimplemented",    "Internal",          "Unavailable",
      "DataLoss", "Unauthenticated"};
  const int index = static_cast<int>(code);
  if (index < 0 || index >= static_cast<int>(std::size(kNames))) return "Unknown";
  return kNames[index];
}

StatusCode KkadmCode(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return StatusCode::kUnavailable;
    case grpc::StatusCode::NOT_FOUND:
      return StatusCode::kNotFound;
    case grpc::StatusCode::ALREADY_EXISTS:
      return StatusCode::kAlreadyExists;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::OUT_OF_RANGE:
      return StatusCode::kInvalidArgument;
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::UNIMPLEMENTED:
      return StatusCode::kFailedPrecondition;
    case grpc::StatusCode::PERMISSION_DENIED:
      return StatusCode::kPermissionDenied;
    case grpc::StatusCode::UNAUTHENTICATED:
      return StatusCode::kUnauthenticated;
    case grpc::StatusCode::ABORTED:
      return StatusCode::kAborted;
    default:
      return StatusCode::kInternal;
  }
}

Status FromGrpc(const grpc::Status& status) {
  if (status.ok()) return Status();
  return Status(KkadmCode(status.error_code()), std::string("rpc error: code = ") +
                                                    GoCodeName(status.error_code()) +
                                                    " desc = " + status.error_message());
}

util::PodSandbox ToSandbox(const runtime::v1::PodSandbox& in) {
  util::PodSandbox out;
  out.id = in.id();
  out.name = in.metadata().name();
  out.uid = in.metadata().uid();
  out.namespace_name = in.metadata().namespace_();
  out.state = in.state() == runtime::v1::SANDBOX_READY ? util::SandboxState::kReady
                                                       : util::SandboxState::kNotReady;
  out.labels.insert(in.labels().begin(), in.labels().end());
  return out;
}

util::Container ToContainer(const runtime::v1::Container& in) {
  util::Container out;
  out.id = in.id();
  out.pod_sandbox_id = in.pod_sandbox_id();
  out.name = in.metadata().name();
  out.image = in.image().image();
  const int state = in.state();
  out.state = state >= 0 && state <= 3 ? static_cast<util::ContainerState>(state)
                                       : util::ContainerState::kUnknown;
  return out;
}

class GrpcRuntime final : public ContainerRuntime {
 public:
  explicit GrpcRuntime(const util::CriClientOptions& options)
      : endpoint_(options.endpoint), timeout_(options.call_timeout) {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(16 * 1024 * 1024);  // the kubelet's CRI client limit
    auto channel = grpc::CreateCustomChannel("unix://" + options.socket_path,
                                             grpc::InsecureChannelCredentials(), args);
    runtime_ = runtime::v1::RuntimeService::NewStub(channel);
    images_ = runtime::v1::ImageService::NewStub(channel);
  }

  const std::string& Endpoint() const override { return endpoint_; }

  Result<util::CriVersion> Version() override {
    runtime::v1::VersionRequest request;
    request.set_version("v1");
    runtime::v1::VersionResponse response;
    KKADM_RETURN_IF_ERROR(FromGrpc(Call(*runtime_, &RuntimeStub::Version, request, response)));
    return util::CriVersion{response.version(), response.runtime_name(), response.runtime_version(),
                            response.runtime_api_version()};
  }

  Result<util::CriRuntimeStatus> RuntimeStatus() override {
    runtime::v1::StatusRequest request;
    runtime::v1::StatusResponse response;
    KKADM_RETURN_IF_ERROR(FromGrpc(Call(*runtime_, &RuntimeStub::Status, request, response)));
    util::CriRuntimeStatus out;
    for (const auto& c : response.status().conditions()) {
      out.conditions.push_back({c.type(), c.status(), c.reason(), c.message()});
    }
    return out;
  }

  Result<std::map<std::string, std::string>> RuntimeInfo() override {
    runtime::v1::StatusRequest request;
    request.set_verbose(true);
    runtime::v1::StatusResponse response;
    KKADM_RETURN_IF_ERROR(FromGrpc(Call(*runtime_, &RuntimeStub::Status, request, response)));
    return std::map<std::string, std::string>(response.info().begin(), response.info().end());
  }

  Result<std::optional<std::string>> CgroupDriver() override {
    runtime::v1::RuntimeConfigRequest request;
    runtime::v1::RuntimeConfigResponse response;
    grpc::Status status = Call(*runtime_, &RuntimeStub::RuntimeConfig, request, response);
    // Runtimes older than CRI 1.28 do not know the call: they do not report a driver.
    if (status.error_code() == grpc::StatusCode::UNIMPLEMENTED) return std::optional<std::string>();
    KKADM_RETURN_IF_ERROR(FromGrpc(status));
    if (!response.has_linux()) return std::optional<std::string>();
    return std::optional<std::string>(
        response.linux().cgroup_driver() == runtime::v1::CGROUPFS ? "cgroupfs" : "systemd");
  }

  Result<std::optional<std::string>> ImageStatus(const std::string& image) override {
    runtime::v1::ImageStatusRequest request;
    request.mutable_image()->set_image(image);
    runtime::v1::ImageStatusResponse response;
    KKADM_RETURN_IF_ERROR(FromGrpc(Call(*images_, &ImageStub::ImageStatus, request, response)));
    // The CRI answers an absent image with no image, not with an error.
    if (!response.has_image() || response.image().id().empty()) {
      return std::optional<std::string>();
    }
    return std::optional<std::string>(response.image().id());
  }

  Result<std::string> PullImage(const std::string& image) override {
    runtime::v1::PullImageRequest request;
    request.mutable_image()->set_image(image);
    runtime::v1::PullImageResponse response;
    KKADM_RETURN_IF_ERROR(FromGrpc(Call(*images_, &ImageStub::PullImage, request, response)));
    return response.image_ref();
  }

  Result<std::vector<util::PodSandbox>> ListPodSandbox() override {
    runtime::v1::ListPodSandboxRequest request;
    runtime::v1::ListPodSandboxResponse response;
    KKADM_RETURN_IF_ERROR(
        FromGrpc(Call(*runtime_, &RuntimeStub::ListPodSandbox, request, response)));
    std::vector<util::PodSandbox> out;
    for (const auto& item : response.items()) out.push_back(ToSandbox(item));
    return out;
  }

  Status StopPodSandbox(const std::string& id) override {
    runtime::v1::StopPodSandboxRequest request;
    request.set_pod_sandbox_id(id);
    runtime::v1::StopPodSandboxResponse response;
    return FromGrpc(Call(*runtime_, &RuntimeStub::StopPodSandbox, request, response));
  }

  Status RemovePodSandbox(const std::string& id) override {
    runtime::v1::RemovePodSandboxRequest request;
    request.set_pod_sandbox_id(id);
    runtime::v1::RemovePodSandboxResponse response;
    return FromGrpc(Call(*runtime_, &RuntimeStub::RemovePodSandbox, request, response));
  }

  Result<std::vector<util::Container>> ListContainers(const std::string& sandbox) override {
    runtime::v1::ListContainersRequest request;
    if (!sandbox.empty()) request.mutable_filter()->set_pod_sandbox_id(sandbox);
    runtime::v1::ListContainersResponse response;
    KKADM_RETURN_IF_ERROR(
        FromGrpc(Call(*runtime_, &RuntimeStub::ListContainers, request, response)));
    std::vector<util::Container> out;
    for (const auto& item : response.containers()) out.push_back(ToContainer(item));
    return out;
  }

  Status StopContainer(const std::string& id, std::chrono::seconds timeout) override {
    runtime::v1::StopContainerRequest request;
    request.set_container_id(id);
    request.set_timeout(timeout.count());
    runtime::v1::StopContainerResponse response;
    // The runtime may take the whole grace period before it kills.
    return FromGrpc(Call(*runtime_, &RuntimeStub::StopContainer, request, response, timeout));
  }

  Status RemoveContainer(const std::string& id) override {
    runtime::v1::RemoveContainerRequest request;
    request.set_container_id(id);
    runtime::v1::RemoveContainerResponse response;
    return FromGrpc(Call(*runtime_, &RuntimeStub::RemoveContainer, request, response));
  }

 private:
  // One unary call of `stub`, with the call timeout (and `extra`) as its deadline.
  template <typename Stub, typename Request, typename Response>
  grpc::Status Call(Stub& stub,
                    grpc::Status (Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                    const Request& request, Response& response,
                    std::chrono::seconds extra = {}) const {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout_ + extra);
    return (stub.*method)(&context, request, &response);
  }

  std::string endpoint_;
  std::chrono::milliseconds timeout_;
  std::unique_ptr<runtime::v1::RuntimeService::Stub> runtime_;
  std::unique_ptr<runtime::v1::ImageService::Stub> images_;
};

}  // namespace
}  // namespace kkadm::cri

// The shared object's one entry point: a client for `options`, owned by the caller.
extern "C" __attribute__((visibility("default"))) kkadm::util::ContainerRuntime* kkadm_cri_new(
    const kkadm::util::CriClientOptions* options) {
  return new kkadm::cri::GrpcRuntime(*options);
}
