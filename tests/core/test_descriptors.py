"""The socket-holding services raise their open-file limit as far as the process may."""
from __future__ import annotations

import json
import subprocess
import sys

# In a child whose soft limit starts at 256, so this test process keeps its own limits.
SCRIPT = """
import json, resource
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
from starbase_core.descriptors import raise_open_files_limit
first = raise_open_files_limit(wanted=1000)
resource.setrlimit(resource.RLIMIT_NOFILE, (256, 2000))      # a hard limit below what is wanted
second = raise_open_files_limit(wanted=5000)
print(json.dumps({"first": first, "second": second, "now": resource.getrlimit(resource.RLIMIT_NOFILE)}))
"""


def test_the_soft_limit_is_raised_and_the_hard_one_only_when_the_process_may():
    out = json.loads(subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                                    check=True).stdout)
    assert out["first"] == [256, 1000]
    # Lowering a hard limit is for ever (without CAP_SYS_RESOURCE): then the soft one goes up to it;
    # a privileged process (root here, CAP_SYS_RESOURCE) raises both.
    assert out["second"] in ([256, 2000], [256, 5000])
    assert out["now"] in ([2000, 2000], [5000, 5000])
