// FakeClock: a Clock whose time moves only when someone sleeps (or the test advances it).
#pragma once

#include <chrono>
#include <functional>

#include "app/util/clock.h"

namespace kkadm::testing {

class FakeClock final : public util::Clock {
 public:
  explicit FakeClock(TimePoint start = TimePoint(std::chrono::seconds(1800000000))) : now_(start) {}
  TimePoint Now() const override { return now_; }
  void Sleep(std::chrono::milliseconds d) override {
    now_ += d;
    slept_ += d;
    if (on_sleep) on_sleep();
  }
  void Advance(std::chrono::nanoseconds d) { now_ += std::chrono::duration_cast<Duration>(d); }
  std::chrono::milliseconds slept() const { return slept_; }
  // Called after each Sleep: what the world does while the code under test waits.
  std::function<void()> on_sleep;

 private:
  using Duration = TimePoint::duration;
  TimePoint now_;
  std::chrono::milliseconds slept_{0};
};

}  // namespace kkadm::testing
