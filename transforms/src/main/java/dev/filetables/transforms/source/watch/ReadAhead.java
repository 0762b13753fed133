package dev.filetables.transforms.source.watch;

import dev.filetables.transforms.source.FileRangeReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.metrics.MetricsContainer;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Parses a range's records on a helper thread while the shard's own thread claims and emits them,
 * in the same order: the bounded read gets this overlap from the runner (reading and what follows
 * run in separate tasks), the watched source, whose shard does both, gets it here. Only what is
 * taken from it is claimed, so parsing ahead changes no position: a checkpoint or failure leaves
 * the parsed but untaken steps unclaimed, and they are read again by whoever resumes the range.
 *
 * <p>The cursor belongs to the helper thread once {@link #start}ed; the helper closes it at the end
 * of the range or after {@link #close}. Bad data is reported by {@link FileRangeReader.Step#taken}
 * on the taking thread; what the cursor counts itself (a vanished file) goes to the taking thread's
 * metrics container, which the helper runs in.
 */
final class ReadAhead implements AutoCloseable {
  /** Steps handed over at once: one queue operation per batch, not per row. */
  static final int BATCH = 256;

  /** Batches parsed ahead at most (bounds the memory of a range read ahead). */
  private static final int BATCHES_AHEAD = 8;

  /**
   * {@code -Dfiletables.watch.read-ahead=false} parses on the shard's own thread instead: for
   * comparing both in one build (bench watch), not a tuning knob.
   */
  static final boolean ENABLED = !"false".equals(System.getProperty("filetables.watch.read-ahead"));

  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final ExecutorService HELPERS =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "filetables-watch-read-ahead-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
          });

  /** The end of the range, or a failure to rethrow where it happened in the sequence. */
  private static final class End {
    final @Nullable Throwable failure;

    End(@Nullable Throwable failure) {
      this.failure = failure;
    }
  }

  private final FileRangeReader.Cursor cursor;

  /** Parsing on the taking thread ({@link #ENABLED} false). */
  private final boolean inline;

  private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(BATCHES_AHEAD);
  private volatile boolean closed;

  /** Counted down when the helper's task has returned (at once when parsing inline). */
  private final CountDownLatch helperDone = new CountDownLatch(1);

  private List<FileRangeReader.Step> batch = List.of();
  private int next;
  private @Nullable End end;

  private ReadAhead(FileRangeReader.Cursor cursor, boolean inline) {
    this.cursor = cursor;
    this.inline = inline;
  }

  /** Starts parsing {@code cursor} (positioned where taking is to begin) on a helper thread. */
  static ReadAhead start(FileRangeReader.Cursor cursor) {
    if (!ENABLED) {
      ReadAhead inline = new ReadAhead(cursor, true);
      inline.helperDone.countDown();
      return inline;
    }
    ReadAhead readAhead = new ReadAhead(cursor, false);
    MetricsContainer metrics = MetricsEnvironment.getCurrentContainer();
    HELPERS.execute(() -> readAhead.produce(metrics));
    return readAhead;
  }

  private void produce(@Nullable MetricsContainer metrics) {
    try {
      produceSteps(metrics);
    } finally {
      helperDone.countDown();
    }
  }

  private void produceSteps(@Nullable MetricsContainer metrics) {
    List<FileRangeReader.Step> steps = new ArrayList<>(BATCH);
    Throwable failure = null;
    try (var scope = metrics == null ? null : MetricsEnvironment.scopedMetricsContainer(metrics)) {
      for (FileRangeReader.Step step = cursor.next(); step != null; step = cursor.next()) {
        steps.add(step);
        if (steps.size() == BATCH) {
          if (!hand(steps)) {
            return;
          }
          steps = new ArrayList<>(BATCH);
        }
      }
    } catch (Throwable e) {
      failure = e; // after the steps parsed before it
    } finally {
      cursor.close();
    }
    if ((steps.isEmpty() || hand(steps)) && !closed) {
      hand(new End(failure));
    }
  }

  /**
   * True once the helper's task has returned within {@code millis}: a closed read-ahead leaks no
   * busy thread.
   */
  boolean helperStopped(long millis) throws InterruptedException {
    return helperDone.await(millis, TimeUnit.MILLISECONDS);
  }

  /** Queues {@code item}; false when closed meanwhile (nobody takes any more). */
  private boolean hand(Object item) {
    try {
      while (!closed) {
        if (queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
          return true;
        }
      }
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The next step of the range, or null at its end.
   *
   * @throws IOException what the cursor threw at this point of the range (a {@code
   *     BadRecordException} under the {@code fail} policy, a failing file)
   */
  @SuppressWarnings("unchecked")
  FileRangeReader.@Nullable Step next() throws IOException {
    if (inline) {
      return cursor.next();
    }
    while (next == batch.size()) {
      if (end != null) {
        return rethrow(end);
      }
      Object item;
      try {
        item = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading ahead");
      }
      if (item instanceof End) {
        end = (End) item;
      } else {
        batch = (List<FileRangeReader.Step>) item;
        next = 0;
      }
    }
    return batch.get(next++);
  }

  private static FileRangeReader.@Nullable Step rethrow(End end) throws IOException {
    Throwable e = end.failure;
    if (e == null) {
      return null;
    }
    if (e instanceof IOException) {
      throw (IOException) e;
    }
    if (e instanceof RuntimeException) {
      throw (RuntimeException) e;
    }
    if (e instanceof Error) {
      throw (Error) e;
    }
    throw new IOException(e);
  }

  /** Stops the helper (it closes the cursor); steps not taken are dropped. */
  @Override
  public void close() {
    if (inline) {
      cursor.close();
      return;
    }
    closed = true;
    queue.clear();
  }
}
