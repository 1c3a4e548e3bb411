#include "app/phases/certs/expiration.h"

#include <gtest/gtest.h>

#include "app/util/rfc3339.h"

namespace kkadm::phases::certs {
namespace {

using std::chrono::hours;
using std::chrono::seconds;

const auto kNow = *util::ParseRfc3339("2025-12-31T23:36:00Z", util::Rfc3339Case::kUpper);

ExpirationInfo Sample() {
  ExpirationInfo info;
  info.certificates.push_back(
      {.name = "admin.conf", .expires = kNow + hours(24 * 365) - seconds(30), .ca_name = "ca"});
  info.certificates.push_back({.name = "apiserver-etcd-client",
                               .expires = kNow - hours(2),
                               .ca_name = "etcd-ca",
                               .externally_managed = true});
  info.certificates.push_back({.name = "super-admin.conf", .missing = true});
  info.authorities.push_back({.name = "ca", .expires = kNow + hours(24 * 3650) - seconds(60)});
  info.authorities.push_back({.name = "front-proxy-ca", .missing = true});
  return info;
}

TEST(ExpirationTest, TextIsKubeadmsTwoTables) {
  EXPECT_EQ(
      ExpirationText(Sample(), kNow),
      "CERTIFICATE                  EXPIRES                  RESIDUAL TIME   "
      "CERTIFICATE AUTHORITY   EXTERNALLY MANAGED\n"
      "admin.conf                   Dec 31, 2026 23:35 UTC   364d            "
      "ca                      no      \n"
      "apiserver-etcd-client        Dec 31, 2025 21:36 UTC   <invalid>       "
      "etcd-ca                 yes     \n"
      "!MISSING! super-admin.conf                                            "
      "                        \n"
      "\n"
      "CERTIFICATE AUTHORITY      EXPIRES                  RESIDUAL TIME   EXTERNALLY MANAGED\n"
      "ca                         Dec 29, 2035 23:35 UTC   9y              no      \n"
      "!MISSING! front-proxy-ca                                            \n");
}

TEST(ExpirationTest, ResidualTimeIsInWholeSecondsAndNegativeOnceExpired) {
  const ExpirationInfo info = Sample();
  EXPECT_EQ(ResidualSeconds(info.certificates[0], kNow), 365 * 86400 - 30);
  EXPECT_EQ(ResidualSeconds(info.certificates[1], kNow), -7200);
  EXPECT_EQ(ResidualSeconds(info.certificates[2], kNow), 0);
}

TEST(ExpirationTest, DocumentHasKubeadmsFieldsInOrder) {
  const auto doc = ExpirationDocument(Sample(), kNow);
  EXPECT_EQ(doc.dump(),
            R"({"kind":"CertificateExpirationInfo","apiVersion":"output.kubeadm.k8s.io/v1alpha3",)"
            R"("certificates":[{"name":"admin.conf","expirationDate":"2026-12-31T23:35:30Z",)"
            R"("residualTime":31535970,"externallyManaged":false,"caName":"ca","missing":false},)"
            R"({"name":"apiserver-etcd-client","expirationDate":"2025-12-31T21:36:00Z",)"
            R"("residualTime":-7200,"externallyManaged":true,"caName":"etcd-ca","missing":false},)"
            R"({"name":"super-admin.conf","expirationDate":null,"residualTime":0,)"
            R"("externallyManaged":false,"missing":true}],)"
            R"("certificateAuthorities":[{"name":"ca","expirationDate":"2035-12-29T23:35:00Z",)"
            R"("residualTime":315359940,"externallyManaged":false,"missing":false},)"
            R"({"name":"front-proxy-ca","expirationDate":null,"residualTime":0,)"
            R"("externallyManaged":false,"missing":true}]})");
}

}  // namespace
}  // namespace kkadm::phases::certs
