"""The run as a whole, in one process or across a master and its workers (Locust event hooks).

- **Options**: `--starbase-…` (`options`), checked at start; the lobby must be on this machine unless
  `--starbase-allow-remote` (`target`).
- **Journals**: every process that runs users writes its journal (`journal`) under
  `<journal dir>/<run>/`, the run's id chosen by the master at the test's start and sent to the workers
  with Locust's options. A worker also sends its lines to the master every second; the master writes
  them into `received-<worker>.jsonl` in its own run directory, so it holds every journal without a
  shared disk.
- **Stopping**: when a run stops (its time is up, the web UI's stop button, a bound below), the master
  first asks each worker to stop its users and send the last of its journal, and waits for all of
  them, so the check sees every answer any player received.
- **Bounds**: besides Locust's `-t` and `-u`, `--starbase-games N` and `--starbase-max-commands N`
  stop the run once that many games have been played out, or commands and moves sent, in all.
- **Check**: at the end the master (or the single process) runs the chaos checker on the journals
  (`report.run_check`) and reports its verdict (`report`); a failed check makes the exit status 1.
"""
from __future__ import annotations

import logging
import os
import secrets
import time
from pathlib import Path
from typing import Any

import gevent
from locust import events
from locust.runners import MasterRunner, WorkerRunner

from starbase_load import report
from starbase_load.journal import JournalFile, ReceivedJournals
from starbase_load.metrics import COMMAND, GAME, REFUSED, TRUCKER, Metrics
from starbase_load.options import Settings, add_options
from starbase_load.target import target_problem

log = logging.getLogger("starbase_load")
JOURNAL_MSG, FLUSH_MSG, FLUSHED_MSG = "starbase_journal", "starbase_flush", "starbase_flushed"
SHIP_EVERY = 1.0
FLUSH_WAIT = 60.0


class _Run:
    """This process's part of the current run."""
    journal: JournalFile | None = None
    received: ReceivedJournals | None = None
    directory: Path | None = None
    flushed: set[str] = set()
    verdict: dict | None = None
    greenlets: list[gevent.Greenlet] = []


RUN = _Run()


def journal(environment: Any) -> JournalFile | None:
    """This process's journal (a process running users outside a Locust run gets one on first use)."""
    if RUN.journal is None and not isinstance(environment.runner, MasterRunner):
        _open_journal(environment, Settings.of(environment))
    return RUN.journal


def _node(environment: Any) -> str:
    runner = environment.runner
    return runner.client_id if isinstance(runner, WorkerRunner) else f"local-{os.getpid()}"


def _open_journal(environment: Any, settings: Settings) -> None:
    run = getattr(environment.parsed_options, "starbase_run", "") or time.strftime("%Y%m%d-%H%M%S")
    RUN.directory = Path(settings.journal_dir) / run
    RUN.journal = JournalFile(RUN.directory / f"journal-{_node(environment)}.jsonl",
                              keep_unsent=isinstance(environment.runner, WorkerRunner))


@events.init_command_line_parser.add_listener
def _add_options(parser: Any, **_: Any) -> None:
    add_options(parser)


@events.init.add_listener
def _on_init(environment: Any, runner: Any = None, **_: Any) -> None:
    runner = runner or environment.runner
    settings = Settings.of(environment)            # a bad option stops the run here, said plainly
    if isinstance(runner, WorkerRunner):
        runner.register_message(FLUSH_MSG, _on_flush)
        return
    if environment.host and (problem := target_problem(environment.host, settings.allow_remote)):
        raise SystemExit(f"starbase load: {problem}")
    if settings.spectators == 0:
        raise SystemExit("starbase load: --starbase-spectators 0: leave the Spectator class out instead")
    for user_class in environment.user_classes:
        if user_class.__name__ == "Spectator" and settings.spectators > 0:
            user_class.fixed_count = settings.spectators
    if isinstance(runner, MasterRunner):
        runner.register_message(JOURNAL_MSG, _on_journal)
        runner.register_message(FLUSHED_MSG, _on_flushed)


@events.test_start.add_listener
def _on_test_start(environment: Any, **_: Any) -> None:
    settings = Settings.of(environment)
    runner = environment.runner
    RUN.verdict, RUN.flushed, RUN.journal = None, set(), None
    if not isinstance(runner, WorkerRunner):
        if problem := target_problem(environment.host or "", settings.allow_remote):
            log.error("starbase load: %s", problem)
            gevent.spawn(runner.quit if _headless(environment) else runner.stop)
            return
        if environment.parsed_options is not None:     # the run's id travels to the workers with the options
            environment.parsed_options.starbase_run = f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
        RUN.greenlets.append(gevent.spawn(_watch_bounds, environment, settings))
    if isinstance(runner, MasterRunner):
        RUN.directory = Path(settings.journal_dir) / environment.parsed_options.starbase_run
        RUN.received = ReceivedJournals(RUN.directory)
    else:
        _open_journal(environment, settings)
        if isinstance(runner, WorkerRunner):
            RUN.greenlets.append(gevent.spawn(_ship_every_second, environment))


def _headless(environment: Any) -> bool:
    return bool(getattr(environment.parsed_options, "headless", True))


# ---- journals across processes ----------------------------------------------------------------------

def _ship(environment: Any) -> None:
    if RUN.journal is not None and (lines := RUN.journal.take_unsent()):
        environment.runner.send_message(JOURNAL_MSG, {"node": environment.runner.client_id, "lines": lines})


def _ship_every_second(environment: Any) -> None:
    while True:
        gevent.sleep(SHIP_EVERY)
        _ship(environment)


def _on_journal(environment: Any, msg: Any, **_: Any) -> None:
    if RUN.received is not None:
        RUN.received.add(msg.data["node"], msg.data["lines"])


def _on_flush(environment: Any, msg: Any, **_: Any) -> None:
    def flush() -> None:
        environment.runner.stop()                      # no player acts after this: the journal is final
        _ship(environment)
        environment.runner.send_message(FLUSHED_MSG, {"node": environment.runner.client_id})
    gevent.spawn(flush)


def _on_flushed(environment: Any, msg: Any, **_: Any) -> None:
    RUN.flushed.add(msg.data["node"])


@events.test_stopping.add_listener
def _on_test_stopping(environment: Any, **_: Any) -> None:
    runner = environment.runner
    if not isinstance(runner, MasterRunner):
        return
    workers = {client.id for client in runner.clients.values() if client.state != "missing"}
    for worker in workers:
        runner.send_message(FLUSH_MSG, None, worker)
    deadline = time.monotonic() + FLUSH_WAIT
    while not workers <= RUN.flushed and time.monotonic() < deadline:
        gevent.sleep(0.1)
    if missing := workers - RUN.flushed:
        log.error("starbase load: no final journal from %d worker(s) within %.0f s", len(missing), FLUSH_WAIT)


# ---- bounds and the check ---------------------------------------------------------------------------

def _watch_bounds(environment: Any, settings: Settings) -> None:
    if not settings.games and not settings.max_commands:
        return
    while True:
        gevent.sleep(1.0)
        entries = environment.runner.stats.entries.values()
        games = sum(e.num_requests - e.num_failures for e in entries
                    if e.method == GAME and e.name.startswith("finished "))
        sent = sum(e.num_requests for e in entries if e.method in (COMMAND, REFUSED, TRUCKER))
        reason = (f"{games} games played out" if settings.games and games >= settings.games else
                  f"{sent} commands sent" if settings.max_commands and sent >= settings.max_commands else "")
        if reason:
            log.info("starbase load: %s, stopping", reason)
            gevent.spawn(environment.runner.quit if _headless(environment) else environment.runner.stop)
            return


@events.test_stop.add_listener
def _on_test_stop(environment: Any, **_: Any) -> None:
    for greenlet in RUN.greenlets:
        if greenlet is not gevent.getcurrent():
            greenlet.kill(block=False)
    RUN.greenlets = []
    if isinstance(environment.runner, WorkerRunner):
        return
    settings = Settings.of(environment)
    if RUN.journal is not None:
        RUN.journal.close()
    if not settings.check or RUN.directory is None:
        return
    files = RUN.received.files() if RUN.received is not None else sorted(RUN.directory.glob("journal-*.jsonl"))
    verdict = RUN.verdict = report.run_check(settings, files)
    print("\n" + report.render(verdict) + "\n", flush=True)
    report.to_statistics(Metrics(environment), verdict)
    html_file = getattr(environment.parsed_options, "html_file", None)
    beside = Path(html_file) if html_file else RUN.directory / "report"
    report.write_beside(beside, verdict)
    if not report.passed(verdict):
        environment.process_exit_code = 1


@events.quitting.add_listener
def _on_quitting(environment: Any, **_: Any) -> None:
    html_file = getattr(environment.parsed_options, "html_file", None)
    if RUN.verdict is not None and html_file:
        report.add_to_html(Path(html_file), RUN.verdict)
