// KeyPool: private keys generated ahead of time, in background threads, and handed out by name.
// RSA key generation dominates the cost of building a PKI and the keys are independent, so the
// certs phase starts them all at once and each sub-phase takes its key when it needs it, while
// the sub-phases before it sign and write their files.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/util/pki/key.h"
#include "app/util/status.h"

namespace kkadm::util::pki {

class KeyPool {
 public:
  KeyPool() = default;
  KeyPool(const KeyPool&) = delete;
  KeyPool& operator=(const KeyPool&) = delete;
  ~KeyPool();  // cancels what has not started and waits for what has

  // Queues one `type` key per name (replacing a key held under the same name) and returns at
  // once; min(queued, hardware threads) background threads work through the queue in order.
  // ECDSA keys are not queued: one takes ~50 us to make, less than starting a thread, so
  // TakeOrGenerate makes them where they are needed.
  void Start(KeyType type, const std::vector<std::string>& names);

  // Start() and wait for every queued key; the first generation error, if any.
  Status Generate(KeyType type, const std::vector<std::string>& names);

  // The key queued or held for `name` if it has type `type`: waits while it is being generated,
  // generates it on this thread if no worker has started it. nullopt when there is none; the
  // error when its generation failed.
  Result<std::optional<PrivateKey>> Take(const std::string& name, KeyType type);

  // The pool's key if any, else a freshly generated one.
  Result<PrivateKey> TakeOrGenerate(const std::string& name, KeyType type);

  // Cancels queued keys, waits for running ones, drops everything held.
  void Clear();
  // Keys queued, running or held.
  size_t size() const;

 private:
  enum class State { kQueued, kRunning, kDone };
  struct Slot {
    KeyType type;
    State state = State::kQueued;
    std::optional<Result<PrivateKey>> key;
  };

  void Work();
  void JoinWorkers();

  mutable std::mutex mu_;
  std::condition_variable done_;
  std::map<std::string, Slot> slots_;
  std::deque<std::string> queue_;
  std::vector<std::thread> workers_;  // finished ones are joined by Clear()
  size_t active_workers_ = 0;
};

}  // namespace kkadm::util::pki
