// PkiSuiteTest: the fixture of test suites against local TLS servers, sharing one throwaway PKI
// (TestPki, from mkcerts.sh) made once per suite in a temporary directory.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "tests/fakes/temp_dir.h"
#include "tests/util/servers/echo_server.h"

namespace kkadm::testing {

// `Suite` (the deriving fixture) gives each suite its own statics. A suite that needs more calls
// MakePki first in its own SetUpTestSuite and sets suite_set_up_ when all of it is up.
template <class Suite>
class PkiSuiteTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { suite_set_up_ = MakePki(); }
  // A failed ASSERT in SetUpTestSuite only skips the tests, which ctest counts as passed.
  void SetUp() override {
    ASSERT_TRUE(suite_set_up_) << "the test suite's set-up failed (see above)";
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  // The temporary directory and pki_ in its "pki"; false (with a failure) when mkcerts.sh failed.
  static bool MakePki() {
    suite_set_up_ = false;
    dir_ = new TempDir();
    const bool made = pki_.Create(dir_->path() + "/pki");
    EXPECT_TRUE(made) << "mkcerts.sh failed";
    return made;
  }

  inline static TempDir* dir_ = nullptr;
  inline static TestPki pki_;
  inline static bool suite_set_up_ = false;
};

}  // namespace kkadm::testing
