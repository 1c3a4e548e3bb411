#include "app/util/shared_library.h"

#include <gtest/gtest.h>

#include <cstring>

namespace kkadm::util {
namespace {

TEST(SharedLibrary, LoadsATypedFunction) {
  auto libc = OpenSharedLibrary("libc.so.6");
  ASSERT_TRUE(libc.has_value()) << libc.status().message();
  decltype(&::strlen) length = nullptr;
  ASSERT_TRUE(LoadSymbol(*libc, "strlen", length).ok());
  EXPECT_EQ(length("kkadm"), 5u);
}

TEST(SharedLibrary, AMissingLibraryIsNamed) {
  auto missing = OpenSharedLibrary("libkkadm-does-not-exist.so.9");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.status().message().find("cannot load libkkadm-does-not-exist.so.9"),
            std::string::npos);
}

TEST(SharedLibrary, AMissingSymbolIsNamed) {
  auto libc = OpenSharedLibrary("libc.so.6");
  ASSERT_TRUE(libc.has_value());
  void (*function)() = nullptr;
  Status status = LoadSymbol(*libc, "kkadm_no_such_symbol", function);
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  EXPECT_NE(status.message().find("cannot find kkadm_no_such_symbol"), std::string::npos);
  EXPECT_EQ(function, nullptr);
}

}  // namespace
}  // namespace kkadm::util
