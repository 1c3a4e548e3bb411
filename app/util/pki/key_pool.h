// KeyPool: private keys generated ahead of time, in parallel, and handed out by name. RSA key
// generation dominates the cost of building a PKI, and the keys are independent of each other.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "app/util/pki/key.h"
#include "app/util/status.h"

namespace kkadm::util::pki {

class KeyPool {
 public:
  // Generates one `type` key per name on min(names, hardware threads) threads and adds them to
  // the pool (replacing a key already held under the same name). On failure nothing is added.
  Status Generate(KeyType type, const std::vector<std::string>& names);

  // Removes and returns the key held for `name` if it has type `type`; nullopt otherwise.
  std::optional<PrivateKey> Take(const std::string& name, KeyType type);

  // The held key if any, else a freshly generated one.
  Result<PrivateKey> TakeOrGenerate(const std::string& name, KeyType type);

  // Drops every key still held.
  void Clear();
  size_t size() const;

 private:
  struct Entry {
    KeyType type;
    PrivateKey key;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry> keys_;
};

}  // namespace kkadm::util::pki
