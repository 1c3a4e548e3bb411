// util::ReadInputFile: input files of this machine are read only when regular, and bounded.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "app/util/input_file.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

TEST(InputFileTest, ReadsARegularFileUpToTheLimit) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/c.yaml";
  std::ofstream(path) << "0123456789";
  EXPECT_EQ(*ReadInputFile(path, 10), "0123456789");
  EXPECT_EQ(ReadInputFile(path, 9).status().ToString(), "over the limit of 9 bytes");
}

TEST(InputFileTest, RefusesWhatIsNotARegularFileAtOnce) {
  testing::TempDir dir;
  const std::string fifo = dir.path() + "/fifo.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(ReadInputFile(fifo, 100).status().ToString(), "a FIFO");  // no writer: would block
  EXPECT_EQ(ReadInputFile("/dev/zero", 100).status().ToString(), "a device");
  EXPECT_EQ(ReadInputFile(dir.path(), 100).status().ToString(), "a directory");
  EXPECT_EQ(ReadInputFile(dir.path() + "/absent", 100).status().ToString(),
            "No such file or directory");
  EXPECT_EQ(ReadInputFile(dir.path() + "/absent", 100).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace kkadm::util
