// EchoServer: runs tests/util/servers/tls_echo.py on an ephemeral 127.0.0.1 port for one test and
// reads back what it recorded. TestPki: a throwaway CA + server/client certs from mkcerts.sh.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/util/servers/test_process.h"

namespace kkadm::testing {

struct TestPki {
  std::string dir;
  // Creates the PKI under `dir` with the openssl CLI; false when that failed.
  bool Create(const std::string& directory) {
    dir = directory;
    return RunShell("bash " + ServersDir() + "/mkcerts.sh " + dir + " >/dev/null 2>&1");
  }
  std::string Pem(const std::string& name) const { return ReadFileOrEmpty(dir + "/" + name); }
  std::string File(const std::string& name) const { return dir + "/" + name; }
};

class EchoServer {
 public:
  enum class Mode { kPlain, kTls, kMutualTls };

  // `responses`: the list tls_echo.py answers with, one {"status", "body", "delay"} object per
  // request (the last repeats). `work_dir` holds its files. This is a std::vector, not a
  // nlohmann::json: `{Answer(...)}` with a single json element would copy that element rather
  // than make a one-element array, and the server would get an object instead of a list.
  EchoServer(const std::string& work_dir, const std::vector<nlohmann::json>& responses, Mode mode,
             const TestPki* pki = nullptr)
      : dir_(work_dir) {
    WriteFile(dir_ + "/responses.json", nlohmann::json(responses).dump());
    std::vector<std::string> argv = {
        "python3", ServersDir() + "/tls_echo.py", "--port-file", dir_ + "/port",
        "--log",   dir_ + "/requests.log",        "--responses", dir_ + "/responses.json"};
    if (mode != Mode::kPlain) {
      argv.insert(argv.end(),
                  {"--cert", pki->File("server.crt"), "--key", pki->File("server.key")});
    }
    if (mode == Mode::kMutualTls) {
      argv.push_back("--client-ca");
      argv.push_back(pki->File("ca.crt"));
    }
    process_ = std::make_unique<BackgroundProcess>(argv, dir_ + "/server.log");
    for (int i = 0; i < 3000 && port_ == 0; ++i) {
      std::string port = ReadFileOrEmpty(dir_ + "/port");
      if (!port.empty())
        port_ = std::stoi(port);
      else
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    scheme_ = mode == Mode::kPlain ? "http" : "https";
  }

  int port() const { return port_; }
  std::string url() const { return scheme_ + "://127.0.0.1:" + std::to_string(port_); }

  // The requests seen so far, one JSON object each (method, path, headers, body, client_cn).
  std::vector<nlohmann::json> Requests() const {
    std::vector<nlohmann::json> out;
    std::istringstream in(ReadFileOrEmpty(dir_ + "/requests.log"));
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
  }

 private:
  std::string dir_;
  std::string scheme_;
  int port_ = 0;
  std::unique_ptr<BackgroundProcess> process_;
};

}  // namespace kkadm::testing
