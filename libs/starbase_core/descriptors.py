"""Open-file limit for processes that hold many sockets (the lobby, Trucker).

Each WebSocket is a descriptor. Distributions start processes with a soft limit of 1,024 (or the
20,000 the capacity review met) under a much higher hard one; an unprivileged process may raise its
soft limit up to the hard limit, so the socket-holding services do that at startup rather than fail
with "Too many open files" long before memory or CPU run out. Under Kubernetes the hard limit is the
container runtime's (1,048,576 on containerd's defaults).
"""
from __future__ import annotations

import resource


def raise_open_files_limit(wanted: int = 1_048_576) -> tuple[int, int]:
    """Raise the soft RLIMIT_NOFILE towards `wanted`, never past the hard limit; returns (before, after)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < wanted:
        try:        # a process with CAP_SYS_RESOURCE (root on a laptop) may raise the hard limit too
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return soft, wanted
        except (ValueError, OSError):
            pass
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):       # a sandbox may refuse: keep what we have
            return soft, soft
        return soft, target
    return soft, soft
