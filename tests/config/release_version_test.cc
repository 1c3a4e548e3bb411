// Version labels resolved as kubeadm's util/version.go resolves them, over fake label files (no
// network), and the warnings said on the way.
#include "app/config/release_version.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "build_info.h"
#include "tests/fakes/fake_http_client.h"
#include "tests/fakes/fake_release_versions.h"
#include "tests/fakes/log_capture.h"

namespace kkadm::config {
namespace {

using kkadm::testing::FakeReleaseFiles;
using ::testing::ElementsAre;

using kkadm::testing::kRelease;

using kkadm::testing::LogCapture;

class ReleaseVersionTest : public ::testing::Test {
 protected:
  Result<std::string> Resolve(const std::string& version) {
    return ResolveVersionLabel(version, kkadm::testing::FakeReleaseVersions(files_));
  }
  std::shared_ptr<FakeReleaseFiles> files_ = std::make_shared<FakeReleaseFiles>();
  LogCapture log_;
};

TEST_F(ReleaseVersionTest, LabelsAreFetchedFromTheReleaseBucket) {
  files_->files[kRelease + "stable-1.31.txt"] = "v1.31.4";  // a fetch trims (HttpFetchTest)
  files_->files[kRelease + "stable-1.txt"] = "v1.32.3";
  files_->files[std::string(kCiBucketUrl) + "/ci/latest-1.32.txt"] = "v1.32.4-rc.0.12+abc";
  EXPECT_EQ(*Resolve("stable-1.31"), "v1.31.4");
  EXPECT_EQ(*Resolve("release/stable-1.31"), "v1.31.4");
  EXPECT_EQ(*Resolve(""), "v1.32.3");  // kubeadm's default, stable-1
  EXPECT_EQ(*Resolve("ci/latest-1.32"), "v1.32.4-rc.0.12+abc");
  EXPECT_THAT(files_->fetched, ElementsAre(kRelease + "stable-1.31.txt",
                                           kRelease + "stable-1.31.txt", kRelease + "stable-1.txt",
                                           std::string(kCiBucketUrl) + "/ci/latest-1.32.txt"));
  EXPECT_EQ(log_.text(), "");
}

TEST_F(ReleaseVersionTest, VersionsAndOtherTextAreNotLookedUp) {
  for (const char* version : {"v1.31.2", "1.31.2", "stable-1.0", "stable-12", "stablex", "1.31",
                              "ci/v1.33.0-alpha.1", "latest-1.123", "foo"}) {
    EXPECT_EQ(*Resolve(version), version) << version;
  }
  EXPECT_TRUE(files_->fetched.empty());
}

TEST_F(ReleaseVersionTest, FailedFetchWarnsAsKubeadmAndFallsBackToKkadmsVersion) {
  EXPECT_EQ(*Resolve("stable-1.30"), build_info::kKubernetesVersion);
  EXPECT_EQ(
      log_.text(),
      "W could not fetch a Kubernetes version from the internet: unable to fetch file. URL: \"" +
          kRelease +
          "stable-1.30.txt\", status: 404 Not Found\n"
          "W falling back to the local client version: " +
          build_info::kKubernetesVersion + "\n");
}

TEST_F(ReleaseVersionTest, NewerMinorFallsBackToTheLabelOfKkadmsMinorAndSaysSo) {
  files_->files[kRelease + "stable.txt"] = "v1.99.1";
  files_->files[kRelease + "stable-1.32.txt"] = "v1.32.7";
  EXPECT_EQ(*Resolve("stable"), "v1.32.7");
  EXPECT_THAT(files_->fetched, ElementsAre(kRelease + "stable.txt", kRelease + "stable-1.32.txt"));
  EXPECT_EQ(log_.text(), "W remote version is much newer: v1.99.1; falling back to: stable-1.32\n");
}

TEST_F(ReleaseVersionTest, OlderMinorIsKept) {
  files_->files[kRelease + "latest-1.29.txt"] = "v1.29.15";
  EXPECT_EQ(*Resolve("latest-1.29"), "v1.29.15");
  EXPECT_EQ(log_.text(), "");
}

TEST_F(ReleaseVersionTest, FileWithoutAVersionIsAnError) {
  files_->files[kRelease + "stable-1.31.txt"] = "<html>moved</html>";
  EXPECT_EQ(Resolve("stable-1.31").error().message(),
            "remote version error: could not parse \"<html>moved</html>\" as version");
  files_->files[kRelease + "stable-1.31.txt"] = "1.31";
  EXPECT_EQ(Resolve("stable-1.31").error().message(),
            "version \"1.31\" doesn't match patterns for neither semantic version nor labels "
            "(stable, latest, ...)");
}

// A mirror whose stable-1.32.txt names a newer minor would send kubeadm back to stable-1.32.txt
// for ever.
TEST_F(ReleaseVersionTest, EndlessFallbackStops) {
  files_->files[kRelease + "stable-1.32.txt"] = "v1.40.0";
  auto resolved = Resolve("stable-1.32");
  ASSERT_FALSE(resolved.has_value());
  EXPECT_EQ(resolved.error().message(),
            "version label \"stable-1.32\": no version after 4 lookups");
  EXPECT_EQ(files_->fetched.size(), 4u);
}

TEST_F(ReleaseVersionTest, SourceWithoutFetchFallsBack) {
  EXPECT_EQ(*ResolveVersionLabel("latest", ReleaseVersionSource{}), build_info::kKubernetesVersion);
  EXPECT_THAT(log_.text(), ::testing::HasSubstr("W falling back to the local client version: "));
}

TEST(ReleaseVersionLabelTest, KubeadmsLabelPatterns) {
  for (const char* label : {"stable", "latest", "stable-1", "latest-1.31", "stable-1.9",
                            "ci/latest", "ci-cross/latest-1.32", "release/stable-2.10"}) {
    EXPECT_TRUE(IsVersionLabel(label)) << label;
  }
  for (const char* other : {"", "stable-", "stable-0", "stable-1.0", "stable-12", "stable-1.100",
                            "stable-1.", "Stable", "foo/stable", "ci/", "latest-1.31\n"}) {
    EXPECT_FALSE(IsVersionLabel(other)) << other;
  }
}

TEST(ClientVersionTest, KubeadmsRulesForPreReleases) {
  EXPECT_EQ(*ClientVersion("v1.32.0"), "v1.32.0");
  EXPECT_EQ(*ClientVersion("v1.32.0+abc"), "v1.32.0");
  EXPECT_EQ(*ClientVersion("v1.33.0-alpha.1.206+abc"), "v1.33.0-alpha.1");
  EXPECT_EQ(*ClientVersion("v1.33.0-beta"), "v1.33.0-beta.0");
  EXPECT_EQ(*ClientVersion("v1.33.0-rc.1"), "v1.33.0-rc.1");
  EXPECT_EQ(*ClientVersion("v1.32.2-rc.0"), "v1.32.1");
  EXPECT_FALSE(ClientVersion("1.32").has_value());
  EXPECT_FALSE(ClientVersion("v1.32.0 x").has_value());
}

class HttpFetchTest : public ::testing::Test {
 protected:
  Result<std::string> Fetch(const std::string& url) {
    client_ = server_.Factory()({});
    return HttpFetch(*client_)(url, std::chrono::seconds(3));
  }
  kkadm::testing::FakeHttpServer server_;
  std::unique_ptr<util::HttpClient> client_;
};

TEST_F(HttpFetchTest, FollowsRedirectsAndTrimsTheBody) {
  server_.handler =
      [](const kkadm::testing::FakeHttpServer::Seen& seen) -> Result<util::HttpResponse> {
    if (seen.request.url == "https://dl.example/release/stable.txt") {
      return util::HttpResponse{302, "", {{"location", "https://cdn.example/release/stable.txt"}}};
    }
    if (seen.request.url == "https://cdn.example/release/stable.txt") {
      return util::HttpResponse{301, "", {{"location", "/r/stable.txt"}}};
    }
    return util::HttpResponse{200, "v1.31.4\n", {}};
  };
  EXPECT_EQ(*Fetch("https://dl.example/release/stable.txt"), "v1.31.4");
  EXPECT_THAT(server_.Urls(), ElementsAre("https://dl.example/release/stable.txt",
                                          "https://cdn.example/release/stable.txt",
                                          "https://cdn.example/r/stable.txt"));
  EXPECT_EQ(server_.seen()[0].request.timeout, std::chrono::seconds(3));
}

TEST_F(HttpFetchTest, KubeadmsErrorTexts) {
  EXPECT_EQ(
      Fetch("https://dl.example/release/x.txt").error().message(),
      "unable to fetch file. URL: \"https://dl.example/release/x.txt\", status: 404 Not Found");
  server_.handler = [](const kkadm::testing::FakeHttpServer::Seen&) -> Result<util::HttpResponse> {
    return Unavailable("GET https://dl.example/x: Connection timed out after 10001 milliseconds");
  };
  EXPECT_EQ(
      Fetch("https://dl.example/x").error().message(),
      "unable to get URL \"https://dl.example/x\": GET https://dl.example/x: Connection timed "
      "out after 10001 milliseconds");
}

}  // namespace
}  // namespace kkadm::config
