// EventWriter: JSON Lines with the common fields first, secrets redacted unless shown.
#include "app/util/event_writer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/fakes/fake_clock.h"

namespace kkadm::util {
namespace {

constexpr const char* kToken = "abcdef.0123456789abcdef";
const std::string kKey(64, 'a');

TEST(EventWriterTest, WritesOneObjectPerLineWithTheCommonFieldsFirst) {
  testing::FakeClock clock;
  std::ostringstream a, b;
  EventWriter writer(clock, "init", false);
  writer.AddStream(a);
  writer.AddStream(b);
  writer.Emit("PhaseStarted", {{"phase", "certs/ca"}}, {});
  clock.Advance(std::chrono::milliseconds(1500));
  writer.Emit("PhaseFinished", {{"phase", "certs/ca"}, {"durationSeconds", 1.5}}, {});
  EXPECT_EQ(a.str(), b.str());
  std::istringstream lines(a.str());
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line, R"({"apiVersion":"output.kkadm.io/v1alpha1","kind":"PhaseStarted",)"
                  R"("time":"2027-01-15T08:00:00.000Z","command":"init","phase":"certs/ca"})");
  ASSERT_TRUE(std::getline(lines, line));
  const nlohmann::json second = nlohmann::json::parse(line);
  EXPECT_EQ(second["time"], "2027-01-15T08:00:01.500Z");
  EXPECT_EQ(second["durationSeconds"], 1.5);
  EXPECT_FALSE(std::getline(lines, line));
}

TEST(EventWriterTest, SecretFieldsAreRedactedUnlessShown) {
  testing::FakeClock clock;
  for (const bool show : {false, true}) {
    std::ostringstream out;
    EventWriter writer(clock, "init", show);
    writer.AddStream(out);
    writer.Emit("JoinCommand", {{"token", kToken}, {"certificateKey", kKey}, {"tokenId", "abcdef"}},
                {"token", "certificateKey"});
    const nlohmann::json event = nlohmann::json::parse(out.str());
    EXPECT_EQ(event["token"], show ? kToken : kRedacted);
    EXPECT_EQ(event["certificateKey"], show ? kKey : kRedacted);
    EXPECT_EQ(event["tokenId"], "abcdef");
  }
}

TEST(EventWriterTest, TokensAndKeysQuotedInErrorsAreRedactedButPinsInOtherFieldsAreNot) {
  testing::FakeClock clock;
  std::ostringstream out;
  EventWriter writer(clock, "join", false);
  writer.AddStream(out);
  const std::string pin = "sha256:" + std::string(64, 'b');
  writer.Emit("CommandFinished",
              {{"error", std::string("token ") + kToken + ". key " + kKey},
               {"reason", std::string("bad ") + kToken},
               {"pin", pin}},
              {});
  const nlohmann::json event = nlohmann::json::parse(out.str());
  EXPECT_EQ(event["error"], "token <redacted>. key <redacted>");
  EXPECT_EQ(event["reason"], "bad <redacted>");
  EXPECT_EQ(event["pin"], pin);
}

TEST(EventWriterTest, TextThatIsNotUtf8IsReplacedNotThrownOn) {
  testing::FakeClock clock;
  std::ostringstream out;
  EventWriter writer(clock, "reset", false);
  writer.AddStream(out);
  writer.Emit("Warning", {{"message", std::string("bad \xff byte")}}, {});
  const nlohmann::json event = nlohmann::json::parse(out.str());
  EXPECT_EQ(event["message"], "bad \xEF\xBF\xBD byte");
}

TEST(RedactSecretWordsTest, LeavesOrdinaryWordsAlone) {
  EXPECT_EQ(RedactSecretWords("phase certs failed: abcdef.0123 is short"),
            "phase certs failed: abcdef.0123 is short");
  EXPECT_EQ(RedactSecretWords(std::string("[") + kToken + "]"), "[<redacted>]");
}

}  // namespace
}  // namespace kkadm::util
