// KeyPool: parallel key generation with a shared work index.
#include "app/util/pki/key_pool.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace kkadm::util::pki {

Status KeyPool::Generate(KeyType type, const std::vector<std::string>& names) {
  if (names.empty()) return Status();
  std::vector<std::optional<Result<PrivateKey>>> results(names.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < names.size();) results[i] = PrivateKey::Generate(type);
  };
  unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  size_t threads = std::min<size_t>(hw, names.size());
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();  // this thread works too
  for (auto& th : pool) th.join();
  for (auto& r : results) {
    if (!r->has_value()) return r->error();
  }
  std::lock_guard lock(mu_);
  for (size_t i = 0; i < names.size(); ++i) {
    keys_.insert_or_assign(names[i], Entry{type, std::move(*results[i]).value()});
  }
  return Status();
}

std::optional<PrivateKey> KeyPool::Take(const std::string& name, KeyType type) {
  std::lock_guard lock(mu_);
  auto it = keys_.find(name);
  if (it == keys_.end() || it->second.type != type) return std::nullopt;
  PrivateKey key = std::move(it->second.key);
  keys_.erase(it);
  return key;
}

Result<PrivateKey> KeyPool::TakeOrGenerate(const std::string& name, KeyType type) {
  if (auto key = Take(name, type)) return std::move(*key);
  return PrivateKey::Generate(type);
}

void KeyPool::Clear() {
  std::lock_guard lock(mu_);
  keys_.clear();
}

size_t KeyPool::size() const {
  std::lock_guard lock(mu_);
  return keys_.size();
}

}  // namespace kkadm::util::pki
