"""Lease-based leader election for the stand-ins, after client-go's leaderelection with a LeaseLock
(what kube-controller-manager does with --leader-elect): one coordination.k8s.io/v1 Lease, e.g.
kube-system/kube-controller-manager, names the holder; the holder renews it every retry period and
stops leading when it could not renew within the renew deadline; others take it over when it has
not changed for the lease duration, as observed on their own clock (so clocks need not agree).
Every write is a compare-and-swap on resourceVersion: of several candidates, one wins.
Difference: release() (on a clean stop) empties the Lease, as client-go's ReleaseOnCancel does,
so a restarted stand-in does not sit idle for a lease duration."""
import datetime
import time

from .kubeclient import ApiError


def micro_time(epoch):
    """metav1.MicroTime: RFC 3339 with microseconds, UTC."""
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class LeaderElector:
    def __init__(self, client, namespace, name, identity, lease_seconds=15.0, renew_seconds=10.0,
                 clock=time.monotonic, wall=time.time):
        self.client, self.identity = client, identity
        self.namespace, self.name = namespace, name
        self.collection = "/apis/coordination.k8s.io/v1/namespaces/%s/leases" % namespace
        self.path = "%s/%s" % (self.collection, name)
        self.lease_seconds, self.renew_seconds = lease_seconds, renew_seconds
        self.clock, self.wall = clock, wall
        self.observed, self.observed_at = None, 0.0  # last spec seen, and when (our clock) it changed
        self.renewed_at = None                        # our clock at our last successful write

    def leading(self):
        """True while the last successful acquire/renew is younger than the renew deadline."""
        return self.renewed_at is not None and self.clock() - self.renewed_at < self.renew_seconds

    def try_acquire_or_renew(self):
        """One attempt (client-go's tryAcquireOrRenew). Returns True when we hold the Lease now.
        A conflict (another candidate wrote first) is a plain False; other API errors raise."""
        now = self.clock()
        try:
            lease = self.client.get(self.path)
        except ApiError as e:
            if e.code != 404:
                raise
            return self._write("POST", self.collection, self._lease(None, self._spec(None)), now)
        spec = lease.get("spec") or {}
        if spec != self.observed:
            self.observed, self.observed_at = spec, now
        holder = spec.get("holderIdentity") or ""
        lease_seconds = spec.get("leaseDurationSeconds") or self.lease_seconds
        if holder and holder != self.identity and self.observed_at + lease_seconds > now:
            return False
        return self._write("PUT", self.path, self._lease(lease, self._spec(spec)), now)

    def release(self):
        """Gives the Lease up if we hold it (holder emptied, duration 1 s). Errors are ignored."""
        if not self.leading():
            return
        try:
            lease = self.client.get(self.path)
            spec = lease.get("spec") or {}
            if spec.get("holderIdentity") != self.identity:
                return
            stamp = micro_time(self.wall())
            lease["spec"] = {"holderIdentity": "", "leaseDurationSeconds": 1, "acquireTime": stamp,
                             "renewTime": stamp, "leaseTransitions": spec.get("leaseTransitions", 0)}
            self.client.request("PUT", self.path, lease)
        except (ApiError, OSError, ValueError):
            pass
        self.renewed_at = None

    def _spec(self, old):
        stamp = micro_time(self.wall())
        spec = {"holderIdentity": self.identity, "leaseDurationSeconds": int(self.lease_seconds),
                "acquireTime": stamp, "renewTime": stamp, "leaseTransitions": 0}
        if old is not None:
            if old.get("holderIdentity") == self.identity and old.get("acquireTime"):
                spec["acquireTime"] = old["acquireTime"]
                spec["leaseTransitions"] = old.get("leaseTransitions", 0)
            else:
                spec["leaseTransitions"] = old.get("leaseTransitions", 0) + 1
        return spec

    def _lease(self, current, spec):
        if current is None:
            return {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
                    "metadata": {"name": self.name, "namespace": self.namespace}, "spec": spec}
        lease = dict(current)
        lease["spec"] = spec
        return lease

    def _write(self, method, path, lease, now):
        try:
            stored = self.client.request(method, path, lease)
        except ApiError as e:
            if e.code == 409:  # AlreadyExists or Conflict: someone else wrote first
                return False
            raise
        self.observed, self.observed_at = stored.get("spec") or lease["spec"], now
        self.renewed_at = now
        return True
