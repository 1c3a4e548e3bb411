// The real Clock, over std::chrono::system_clock.
#include <thread>

#include "app/util/clock.h"

namespace kkadm::util {
namespace {

class SystemClock final : public Clock {
 public:
  TimePoint Now() const override { return std::chrono::system_clock::now(); }
  void Sleep(std::chrono::milliseconds duration) override { std::this_thread::sleep_for(duration); }
};

}  // namespace

Clock& RealClock() {
  static SystemClock clock;
  return clock;
}

}  // namespace kkadm::util
