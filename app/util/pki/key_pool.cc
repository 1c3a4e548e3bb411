// KeyPool: a queue of named keys worked through by background threads.
#include "app/util/pki/key_pool.h"

#include <algorithm>

namespace kkadm::util::pki {

KeyPool::~KeyPool() { Clear(); }

void KeyPool::Start(KeyType type, const std::vector<std::string>& names) {
  if (names.empty() || !IsRsaType(type)) return;
  std::lock_guard lock(mu_);
  for (const auto& name : names) {
    auto it = slots_.find(name);
    // A key being generated right now is left to finish; its slot is reused when it is done.
    if (it != slots_.end() && it->second.state == State::kRunning) continue;
    if (it == slots_.end() || it->second.state == State::kDone) queue_.push_back(name);
    slots_.insert_or_assign(name, Slot{type, State::kQueued, std::nullopt});
  }
  // Workers still busy from an earlier Start pick the new names up too.
  size_t hw = std::max(1u, std::thread::hardware_concurrency());
  for (size_t t = active_workers_; t < std::min(hw, queue_.size()); ++t) {
    ++active_workers_;
    workers_.emplace_back([this] { Work(); });
  }
}

void KeyPool::Work() {
  std::unique_lock lock(mu_);
  while (!queue_.empty()) {
    std::string name = std::move(queue_.front());
    queue_.pop_front();
    auto it = slots_.find(name);
    if (it == slots_.end() || it->second.state != State::kQueued) continue;
    it->second.state = State::kRunning;
    KeyType type = it->second.type;
    lock.unlock();
    Result<PrivateKey> key = PrivateKey::Generate(type);
    lock.lock();
    it = slots_.find(name);
    if (it != slots_.end()) {
      it->second.key.emplace(std::move(key));
      it->second.state = State::kDone;
    }
    done_.notify_all();
  }
  --active_workers_;
}

Status KeyPool::Generate(KeyType type, const std::vector<std::string>& names) {
  Start(type, names);
  std::unique_lock lock(mu_);
  done_.wait(lock, [&] {
    return std::all_of(names.begin(), names.end(), [&](const std::string& n) {
      auto it = slots_.find(n);
      return it == slots_.end() || it->second.state == State::kDone;
    });
  });
  for (const auto& n : names) {
    auto it = slots_.find(n);
    if (it != slots_.end() && it->second.key && !it->second.key->has_value())
      return it->second.key->error();
  }
  return Status();
}

Result<std::optional<PrivateKey>> KeyPool::Take(const std::string& name, KeyType type) {
  std::unique_lock lock(mu_);
  auto it = slots_.find(name);
  if (it == slots_.end() || it->second.type != type) return std::optional<PrivateKey>();
  if (it->second.state == State::kQueued) {
    // No worker got to it yet: cheaper to make it here than to wait.
    slots_.erase(it);
    lock.unlock();
    auto key = PrivateKey::Generate(type);
    if (!key) return key.error();
    return std::optional<PrivateKey>(std::move(*key));
  }
  done_.wait(lock, [&] {
    auto found = slots_.find(name);
    return found == slots_.end() || found->second.state == State::kDone;
  });
  it = slots_.find(name);
  if (it == slots_.end()) return std::optional<PrivateKey>();
  Result<PrivateKey> key = std::move(*it->second.key);
  slots_.erase(it);
  if (!key) return key.error();
  return std::optional<PrivateKey>(std::move(*key));
}

Result<PrivateKey> KeyPool::TakeOrGenerate(const std::string& name, KeyType type) {
  auto key = Take(name, type);
  if (!key) return key.error();
  if (*key) return std::move(**key);
  return PrivateKey::Generate(type);
}

void KeyPool::JoinWorkers() {
  std::vector<std::thread> workers;
  {
    std::lock_guard lock(mu_);
    workers.swap(workers_);
  }
  for (auto& w : workers) w.join();
}

void KeyPool::Clear() {
  {
    std::lock_guard lock(mu_);
    queue_.clear();
  }
  JoinWorkers();
  std::lock_guard lock(mu_);
  slots_.clear();
}

size_t KeyPool::size() const {
  std::lock_guard lock(mu_);
  return slots_.size();
}

}  // namespace kkadm::util::pki
