"""`python -m starbase_load [locust options]`: Locust with the Starbase scenario as its locustfile.

Every Locust option works (`--master`, `--worker --master-host H`, `--headless -u N -t 2m`,
`--html report.html`, `--csv prefix`, …) plus the scenario's `--starbase-…` options; `-f` is added
unless given, naming `starbase_load/locustfile.py` wherever the package is installed.
"""
import sys
from pathlib import Path

LOCUSTFILE = str(Path(__file__).with_name("locustfile.py"))


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if not any(a in ("-f", "--locustfile") or a.startswith("--locustfile=") for a in args):
        args = ["-f", LOCUSTFILE, *args]
    sys.argv = ["locust", *args]
    from locust.main import main as locust_main     # imports gevent and patches the process
    locust_main()


if __name__ == "__main__":
    main()
