// Clock: time as kkadm sees it, injected so tests control it (abseil's clock_interface.h).
#pragma once

#include <chrono>

namespace kkadm::util {

class Clock {
 public:
  using TimePoint = std::chrono::system_clock::time_point;
  virtual ~Clock() = default;
  virtual TimePoint Now() const = 0;
  virtual void Sleep(std::chrono::milliseconds duration) = 0;
};

// The machine's wall clock; Sleep really sleeps.
Clock& RealClock();

}  // namespace kkadm::util
