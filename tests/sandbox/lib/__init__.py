"""Shared modules of the kkadm sandbox stand-ins (stdlib only)."""
