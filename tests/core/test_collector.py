"""A service's collector once it has started: its startup heap out of sight, small even collections."""
import gc

from starbase_core.collector import OLD_THRESHOLD, YOUNG_THRESHOLD, quieter_gc


def test_a_started_service_freezes_its_heap_and_collects_in_small_pieces():
    thresholds = gc.get_threshold()
    try:
        quieter_gc()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (YOUNG_THRESHOLD, thresholds[1], OLD_THRESHOLD)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
