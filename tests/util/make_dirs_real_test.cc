// util::MakeDirsWithModes: mkdir -p with exact modes, leaving existing directories alone.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "app/util/make_dirs.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

unsigned ModeOf(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(MakeDirsTest, GivesExactModesToWhatItCreatesOnly) {
  testing::TempDir dir;
  const mode_t old_umask = ::umask(0);
  ASSERT_TRUE(MakeDirsWithModes(dir.path() + "/a//b/c/", 0700).ok());
  ::umask(old_umask);
  EXPECT_EQ(ModeOf(dir.path() + "/a"), 0755u);
  EXPECT_EQ(ModeOf(dir.path() + "/a/b"), 0755u);
  EXPECT_EQ(ModeOf(dir.path() + "/a/b/c"), 0700u);
  ::chmod((dir.path() + "/a/b").c_str(), 0711);
  ASSERT_TRUE(MakeDirsWithModes(dir.path() + "/a/b/d", 0750, 0700).ok());
  EXPECT_EQ(ModeOf(dir.path() + "/a/b"), 0711u);
  EXPECT_EQ(ModeOf(dir.path() + "/a/b/d"), 0750u);
  EXPECT_TRUE(MakeDirsWithModes("/", 0700).ok());  // exists: nothing to do
}

TEST(MakeDirsTest, FollowsALinkToADirectoryAndRefusesAFile) {
  testing::TempDir dir;
  std::filesystem::create_directory(dir.path() + "/target");
  std::filesystem::create_directory_symlink(dir.path() + "/target", dir.path() + "/link");
  ASSERT_TRUE(MakeDirsWithModes(dir.path() + "/link/x", 0700).ok());
  EXPECT_EQ(ModeOf(dir.path() + "/target/x"), 0700u);
  std::ofstream(dir.path() + "/file") << "x";
  EXPECT_EQ(MakeDirsWithModes(dir.path() + "/file/x", 0700).ToString(),
            "creating directory " + dir.path() + "/file: not a directory");
}

}  // namespace
}  // namespace kkadm::util
