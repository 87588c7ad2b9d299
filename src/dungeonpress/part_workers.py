"""Lay a book's parts out in worker processes (each imports WeasyPrint once and holds one part at a time)."""

from __future__ import annotations

from dungeonpress.errors import RenderError


class PartWorkers:
    """Runs a book's parts (products' `ctx.run_parts(fn, jobs)`) in `processes` worker processes.

    Each worker is forked from the run's fork server (or spawned where there is none), never from this process: it
    holds WeasyPrint and one part at a time, never a copy of this process's content. It is started when a book
    first asks and kept for the rest of the run. The longest documents are sent first so the last one to finish is
    short. `fn` and the jobs are plain values (pickled); results come back in the jobs' order, and a worker's error
    is raised here.
    """

    def __init__(self, processes: int = 2):
        self.processes = processes
        self._pool = None
        self._warming = []  # each worker's first task (start): once done, they are idle and take the next ones
        self._starter = None  # the thread that starts them (see start)

    def start(self) -> None:
        """Start the workers now (they import WeasyPrint while this process renders the book's HTML)."""
        if self.processes < 2 or self._pool is not None:
            return
        import os
        from concurrent.futures import ProcessPoolExecutor
        self._pool = ProcessPoolExecutor(self.processes, mp_context=_context(), initializer=_start_worker,
                                         initargs=(os.getpid(), dict(os.environ), os.getcwd()))
        # A pool starts a process for a task when none is idle: one task each starts them. Starting one waits until
        # the fork server has made its imports (0.6–0.8 s when it starts with the book): a thread waits, so this
        # process reads the content and renders the HTML meanwhile instead of after.
        import threading
        pool = self._pool

        def start_early():
            try:
                warming = [pool.submit(_import_engine) for _ in range(self.processes)]
            except RuntimeError:  # stopped (a run that failed) before they were asked for
                return
            if self._pool is pool:
                self._warming = warming
        self._starter = threading.Thread(target=start_early, name="start-part-workers", daemon=True)
        self._starter.start()

    def _launched(self) -> None:
        """Wait until the workers were asked for (the start's thread): jobs sent before would start others."""
        if self._starter is not None:
            self._starter.join()
            self._starter = None

    def ask(self, fn):
        """fn() in a worker: what only a process with WeasyPrint loaded can answer (this one never loads it)."""
        if self.processes < 2:
            return fn()
        self._warmed()
        return self._pool.submit(fn).result()

    def _warmed(self) -> None:
        """Start the pool and wait for its workers: a task sent while they still import would start another."""
        self.start()
        self._launched()
        for started in self._warming:
            started.result()

    def __call__(self, fn, jobs: list) -> list:
        if not jobs or self.processes < 2 or (len(jobs) < 2 and self._pool is None):
            return [fn(job) for job in jobs]
        self.start()
        self._launched()
        sizes = [len(getattr(job, "html", "")) for job in jobs]
        from concurrent.futures.process import BrokenProcessPool
        try:
            order = sorted(range(len(jobs)), key=lambda i: -sizes[i])
            futures = {i: self._pool.submit(_then_free, fn, jobs[i]) for i in order}
            return [futures[i].result() for i in range(len(jobs))]
        except BrokenProcessPool:
            self._end()
            raise RenderError("a worker laying out the book's parts stopped (killed, or out of memory: "
                              "see --item-memory)") from None

    def release(self) -> None:
        """Let the workers end without waiting for them: their book is laid out, and they end while it is bound
        (closing waited about 0.15 s for them after binding). Asked for more work later, the pool starts again."""
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None
            self._warming, self._starter = [], None

    def stop(self) -> None:
        """End the workers at once, whatever they are doing (a run that failed before its book was laid out: its
        error is not kept waiting for their import of WeasyPrint).

        While the start's thread still waits for the fork server's imports, it holds the pool's lock, and shutting
        the pool down would wait with it (1.1 s before a content error was told): a thread of its own ends the pool
        once the workers are started. A worker whose build is gone ends on its own (_end_with)."""
        if self._pool is not None:
            pool, starter = self._pool, self._starter
            self._pool = None
            self._warming, self._starter = [], None

            def end():
                if starter is not None:
                    starter.join()
                for process in list(pool._processes.values()):
                    process.terminate()
                pool.shutdown(wait=False, cancel_futures=True)
            if starter is not None and starter.is_alive():
                import threading
                threading.Thread(target=end, name="stop-part-workers", daemon=True).start()
            else:
                end()

    def close(self) -> None:
        self._end()

    def _end(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


class KeptPartWorkers(PartWorkers):
    """Part workers that outlive the builds of a long-lived process (serve's book server): every book it builds uses
    them, so after the first its parts meet workers that have imported the engine, loaded the book's fonts and laid a
    part out before. Releasing, stopping or closing them after a build keeps them; `end()` ends them. Both start at
    once, forked from the process's fork server: an edit's parts are spread over two workers already warm.
    A pool broken by a dead worker is dropped, and the next book starts another."""

    def release(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass

    def end(self) -> None:
        self._end()


def _context():
    """Where workers come from: forked from the run's fork server (the one `build all`, --batch and serve's workers
    come from), which imports WeasyPrint once for all of them, or spawned where there is none. Each spawned worker
    imported it again: about 0.6 s of CPU a worker; a forked one also starts with less memory of its own. A fork server
    the workers start themselves (a book built alone, serve's book server) imports only what they need
    (forks.PART_PRELOAD): their first part started 0.1-0.15 s sooner than behind an import of every product.

    An edit started one spawned worker until session 27 and laid its few parts out one after another in it (1.92 s
    against 2.04 s forked from a fork server that imported every product, medians of seven); from the lean fork server,
    two forked workers bring it back sooner (1.71 s against 1.81 s, medians of seven, alternated)."""
    from dungeonpress import forks
    return forks.worker_context(forks.PART_PRELOAD)


def _start_worker(parent: int, environ: dict, cwd: str) -> None:
    """A worker's start: take the build's environment and folder (a fork server keeps those it started with), watch
    the build, then import the engine (a forked worker has it already)."""
    import os
    os.environ.clear()
    os.environ.update(environ)
    os.chdir(cwd)
    _end_with(parent)
    _import_engine()
    from dungeonpress import collect
    collect.ready_to_lay_out()  # the engine lives as long as the worker: its parts' collections never walk it


def _end_with(parent: int, every: float = 0.5) -> None:
    """End this process when the build `parent` is gone: a build killed (SIGTERM, SIGKILL, a closed terminal) runs
    no clean-up, and its idle workers would wait for work forever. A thread asks, rather than PR_SET_PDEATHSIG,
    because that signal follows the *thread* that started the worker, and a pool may be started from a thread
    that ends before the build does (serve's request threads).

    The worker's own parent is the build (spawned) or the build's fork server, which ends as soon as the build
    does. Once orphaned, a process gets another parent (init, or a subreaper), so a changed parent id is the sign;
    a build killed before this worker first asked is caught by `parent` itself being gone."""
    import os
    import threading
    import time

    first = os.getppid()

    def watch():
        while os.getppid() == first and _alive(parent):
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _alive(pid: int) -> bool:
    import os
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of another user took the number: ours is gone
        return False
    return True


def _then_free(fn, job):
    """fn(job) in a worker, once what the jobs before it held (their boxes and pages) is handed back to the
    system: a worker lays out one part after another, and without this each left the heap a little higher than
    the last. Freed before a job rather than after it, so a result goes back without waiting for a collection
    (0.05–0.1 s after a chapter; the last job of an edit's waited for it)."""
    _free()
    return fn(job)


def _free() -> None:
    import ctypes

    from dungeonpress import collect
    collect.collect_between_items()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)  # glibc keeps freed memory for the process otherwise
    except (OSError, AttributeError):  # not glibc: what the process keeps, it keeps
        pass


def _import_engine() -> None:
    """What a worker does first: import WeasyPrint (through pdf), so its first part pays for no import."""
    from dungeonpress import pdf  # noqa: F401


def _native_versions() -> dict:
    from dungeonpress import pdf
    return pdf.native_versions()


PART_WORKERS = 2  # the machines we build on have two cores
