"""Group commit: the writes that arrive while a commit is syncing share the next one.

With ``synchronous=FULL`` every ``COMMIT`` waits for the disk, and a table's writes are computed
one after another (each from the ledger the previous one left), so with one transaction per write
a busy table manages one write per sync. Here a write is a *job* handed to the store's
:class:`GroupCommit`:

* The first thread that finds no commit in progress leads: it takes every queued job (at most
  :data:`MAX_BATCH`), runs them in order in one ``BEGIN IMMEDIATE`` transaction (a job that raises
  before writing anything gets its own error, one that raises after writing fails the batch),
  commits once and wakes the others. A thread whose job was committed by a leader returns its result; one whose job
  is still queued leads the next batch.
* A job is answered only after the ``COMMIT`` that holds it returned: an acknowledged write is as
  durable as with a transaction of its own. When the commit fails, every job of the batch gets
  that error and nothing of the batch is recorded.
* Jobs keep what must last until the commit (a table's lock, so nobody reads a ledger folded
  ahead of the file) with :meth:`Batch.hold`, with what undoes their work in memory should the
  commit fail.

Group commit is SQLite's (:attr:`~companion.storage.Storage.shares_commits`). With PostgreSQL each
write is its own transaction (:class:`OwnCommit`): the server already flushes the WAL of
concurrent commits together, and a batch of several tables' writes would take their row locks in
no fixed order, so two processes' batches could deadlock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager, ExitStack
from typing import Any, Generic, TypeVar

from .storage import Storage

T = TypeVar("T")
#: jobs committed together at most (a bound on how long one batch holds the file)
MAX_BATCH = 64


class Batch:
    """What the jobs of one transaction share: the connection, what they hold until the commit,
    and what to undo when it fails."""

    def __init__(self, conn: Any, stack: ExitStack) -> None:
        self.conn = conn
        self._stack = stack
        self._held: dict[Hashable, Any] = {}
        self._undo: list[Callable[[], None]] = []

    def hold(self, key: Hashable, manager: Callable[[], AbstractContextManager[Any]], undo: Callable[[], None]) -> Any:
        """Enter ``manager()`` once per ``key`` in this batch and keep it until the commit ends;
        ``undo`` runs (once per key) if the commit fails, before ``manager`` is left."""
        if key not in self._held:
            self._held[key] = self._stack.enter_context(manager())
            self._undo.append(undo)
        return self._held[key]

    def failed(self) -> None:
        """The commit failed: undo what the jobs did in memory."""
        for undo in self._undo:
            undo()


class Job(Generic[T]):
    """One write waiting for its commit."""

    def __init__(self, work: Callable[[Batch], T]) -> None:
        self.work = work
        self.done = False
        self.result: T | None = None
        self.error: BaseException | None = None


class GroupCommit:
    """The group commit of one store (see the module's docstring)."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._cond = threading.Condition()
        self._queue: list[Job[Any]] = []
        self._leading = False

    def run(self, work: Callable[[Batch], T]) -> T:
        """Run ``work`` in a transaction shared with the writes queued beside it; its result once
        committed (its error, or the commit's, is raised here)."""
        job: Job[T] = Job(work)
        with self._cond:
            self._queue.append(job)
            while not job.done and self._leading:
                self._cond.wait()
            if not job.done:
                self._leading = True
                batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
        if not job.done:
            try:
                self._commit(batch)
            finally:
                with self._cond:
                    self._leading = False
                    self._cond.notify_all()
        if job.error is not None:
            raise job.error
        return job.result  # type: ignore[return-value]

    def _commit(self, jobs: list[Job[Any]]) -> None:
        """Run ``jobs`` in one transaction and mark them done; a failed commit is every job's error
        (what they did in memory undone while their locks are still held)."""
        batch: Batch | None = None
        try:
            with ExitStack() as stack:
                try:
                    with self.store.transaction() as conn:
                        batch = Batch(conn, stack)
                        for job in jobs:
                            _run_job(conn, batch, job)
                except BaseException:
                    if batch is not None:
                        batch.failed()
                    raise
        except BaseException as err:
            for job in jobs:
                job.error, job.result = err, None
            if not isinstance(err, Exception):
                raise
        finally:
            for job in jobs:
                job.done = True


def _run_job(conn: Any, batch: Batch, job: Job[Any]) -> None:
    """One job: an error before it wrote anything is its own; one after it wrote fails the batch
    (only the batch's rollback undoes what it wrote). No savepoint per job: under load each
    statement is a wait for the GIL on the path every queued write waits on."""
    before = conn.total_changes
    try:
        job.result = job.work(batch)
    except Exception as err:
        if conn.total_changes != before:
            raise
        job.error = err


class OwnCommit:
    """Each write in a transaction of its own, with the same :class:`Batch` (PostgreSQL)."""

    def __init__(self, store: Storage) -> None:
        self.store = store

    def run(self, work: Callable[[Batch], T]) -> T:
        """Run ``work`` in its own transaction; its result once committed. When the commit itself
        fails, what ``work`` did in memory is undone (:meth:`Batch.failed`) while it still holds
        what it held."""
        with ExitStack() as stack:
            batch: Batch | None = None
            worked = False
            try:
                with self.store.transaction() as conn:
                    batch = Batch(conn, stack)
                    result = work(batch)
                    worked = True
            except BaseException:
                if worked and batch is not None:
                    batch.failed()
                raise
            return result


def group_commit(store: Storage) -> GroupCommit | OwnCommit:
    """How ``store`` commits writes: a group commit where the back end shares commits, else one
    transaction per write."""
    if store.shares_commits:
        return store.attached(GroupCommit)
    return store.attached(OwnCommit)
