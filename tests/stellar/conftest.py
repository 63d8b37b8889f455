"""Makes the scenario helpers beside this file importable as `stellar_given`."""
import sys
from pathlib import Path

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
