// LogCapture: routes spdlog to a string for the test's lifetime, at a chosen level (kkadm's default
// is warnings; -v 5 is debug).
#pragma once

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <sstream>
#include <string>

namespace kkadm::testing {

class LogCapture {
 public:
  explicit LogCapture(spdlog::level::level_enum level = spdlog::level::warn)
      : previous_(spdlog::default_logger()) {
    auto logger = std::make_shared<spdlog::logger>(
        "capture", std::make_shared<spdlog::sinks::ostream_sink_st>(text_));
    logger->set_pattern("%L %v");
    logger->set_level(level);
    spdlog::set_default_logger(logger);
  }
  ~LogCapture() { spdlog::set_default_logger(previous_); }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::shared_ptr<spdlog::logger> previous_;
};

}  // namespace kkadm::testing
