"""Modules of the sandbox's stand-in kubelet (tests/sandbox/kubelet.py)."""
