package dev.filetables.transforms.commit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * Partition commits that must wait after the end of the input, run off the DoFn's thread.
 *
 * <p>On Flink the last files of a streaming write can be published after the final watermark when
 * the publish step is a {@code @RequiresStableInput} one (as the sink's was): the watermark hold of
 * files buffered for a checkpoint is dropped (Beam issue #39991), and the buffer is released by a
 * checkpoint or by the drain when the task finishes. The sink's keyed publish step holds the
 * watermark instead; this wait stays as a safeguard (a partition may still hold hidden files). A
 * commit step that waited for those files inside {@code @OnWindowExpiration} would keep its
 * operator busy, so the checkpoint that publishes them could never complete: it would wait in vain
 * and commit without them. Once the window has expired, neither elements nor timers reach the DoFn
 * again, so the wait runs here, on one daemon thread per DoFn instance, and {@code @Teardown} waits
 * for it.
 */
final class EndOfInputCommits {
  /** A commit that runs once its partition's files are visible (or the wait is over). */
  @FunctionalInterface
  interface Commit {
    void run() throws Exception;
  }

  private final ExecutorService executor;
  private final List<Future<?>> commits = new ArrayList<>();

  EndOfInputCommits(String name) {
    this.executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, name);
              thread.setDaemon(true);
              return thread;
            });
  }

  synchronized void submit(Commit commit) {
    commits.add(
        executor.submit(
            () -> {
              commit.run();
              return null;
            }));
  }

  /**
   * Waits up to {@code timeout} for every submitted commit and stops the thread; the first failure
   * (or a timeout) is thrown, naming what was not committed.
   */
  void awaitAll(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout.getMillis());
    List<Future<?>> all;
    synchronized (this) {
      all = new ArrayList<>(commits);
      commits.clear();
    }
    executor.shutdown();
    try {
      awaitEach(all, deadline, timeout);
    } finally {
      executor.shutdownNow(); // also when interrupted: no commit may run on after the task
    }
  }

  private static void awaitEach(List<Future<?>> all, long deadline, Duration timeout)
      throws Exception {
    @Nullable Exception first = null;
    for (Future<?> commit : all) {
      try {
        commit.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        if (first == null) {
          first = e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
      } catch (TimeoutException e) {
        if (first == null) {
          first =
              new TimeoutException("end-of-input partition commits still running after " + timeout);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
