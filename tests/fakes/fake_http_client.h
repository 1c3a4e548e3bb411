// FakeHttpServer: answers util::HttpClient requests from a handler, and records every request with
// the options of the client that sent it, so a test can assert what went over the wire and with
// which credentials. Factory() makes clients bound to it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/util/http_client.h"

namespace kkadm::testing {

class FakeHttpServer {
 public:
  struct Seen {
    util::HttpClientOptions options;  // of the client that sent the request
    util::HttpRequest request;
  };
  using Handler = std::function<Result<util::HttpResponse>(const Seen&)>;

  // Answers every request; 404 with an empty body until a test sets it.
  Handler handler = [](const Seen&) {
    return Result<util::HttpResponse>(util::HttpResponse{404, "", {}});
  };

  const std::vector<Seen>& seen() const { return seen_; }
  std::vector<std::string> Urls() const {
    std::vector<std::string> out;
    for (const auto& s : seen_) out.push_back(s.request.url);
    return out;
  }
  // How many clients the factory made.
  int clients_made() const { return clients_made_; }

  std::function<std::unique_ptr<util::HttpClient>(const util::HttpClientOptions&)> Factory() {
    return [this](const util::HttpClientOptions& options) -> std::unique_ptr<util::HttpClient> {
      ++clients_made_;
      return std::make_unique<Client>(*this, options);
    };
  }

 private:
  class Client final : public util::HttpClient {
   public:
    Client(FakeHttpServer& server, util::HttpClientOptions options)
        : server_(server), options_(std::move(options)) {}
    Result<util::HttpResponse> Do(const util::HttpRequest& request) override {
      server_.seen_.push_back(Seen{options_, request});
      return server_.handler(server_.seen_.back());
    }

   private:
    FakeHttpServer& server_;
    util::HttpClientOptions options_;
  };

  std::vector<Seen> seen_;
  int clients_made_ = 0;
};

}  // namespace kkadm::testing
