package dev.filetables.benchmarks;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.TableListing;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableSpec;
import dev.filetables.testfixtures.TableContents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Watches a table directory from a background thread and records when each visible file appeared
 * and, optionally, when each row (by {@code order_id}) became visible.
 *
 * <p>A file's visibility time is its status-change time ({@code unix:ctime}), which the publishing
 * rename sets, when the file system reports it and it is not later than the poll that first saw the
 * file; otherwise the time of that poll (so the resolution is the poll interval at worst).
 */
final class VisibilityWatcher implements AutoCloseable {
  private final TableSpec table;
  private final long pollMillis;
  private final boolean readRows;
  private final Map<String, Long> fileVisibleMillis = new ConcurrentHashMap<>();
  private final Map<Long, Long> rowVisibleMillis = new ConcurrentHashMap<>();
  private final AtomicLong lastNewFileMillis = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong rowsSeen = new AtomicLong();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Thread thread;
  private volatile boolean running = true;

  private VisibilityWatcher(TableSpec table, long pollMillis, boolean readRows) {
    this.table = table;
    this.pollMillis = pollMillis;
    this.readRows = readRows;
    this.thread = new Thread(this::run, "visibility-watcher-" + table.name());
    thread.setDaemon(true);
  }

  /** Starts watching; {@code readRows} also reads every new file to time its rows. */
  static VisibilityWatcher start(TableSpec table, long pollMillis, boolean readRows) {
    VisibilityWatcher watcher = new VisibilityWatcher(table, pollMillis, readRows);
    watcher.thread.start();
    return watcher;
  }

  private void run() {
    while (running) {
      try {
        poll();
        Thread.sleep(pollMillis);
      } catch (InterruptedException e) {
        return;
      } catch (IOException | RuntimeException e) {
        if (!running) {
          return; // close() interrupted a listing (HDFS calls are interruptible); it polls again
        }
        failure.compareAndSet(null, e);
        return;
      }
    }
  }

  private void poll() throws IOException {
    long now = System.currentTimeMillis();
    List<DataFile> files =
        TableListing.list(
            table.options().rootPath(),
            table.partitionKeys(),
            table.options().partitionDefaultName(),
            PartitionFilter.all(),
            Optional.empty());
    for (DataFile file : files) {
      if (fileVisibleMillis.containsKey(file.path())) {
        continue;
      }
      long visibleAt = visibleTime(TablePaths.of(file.path()), now);
      fileVisibleMillis.put(file.path(), visibleAt);
      lastNewFileMillis.accumulateAndGet(visibleAt, Math::max);
      if (readRows) {
        rowsSeen.addAndGet(
            TableContents.readFile(
                table,
                file,
                (row, f) ->
                    rowVisibleMillis.merge(row.getInt64("order_id"), visibleAt, Math::min)));
      }
    }
  }

  private static long visibleTime(Path file, long polledAt) {
    try {
      Object ctime = Files.getAttribute(file, "unix:ctime");
      if (ctime instanceof FileTime) {
        long millis = ((FileTime) ctime).toMillis();
        if (millis <= polledAt) {
          return millis;
        }
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // no ctime here: use the poll time
    }
    return polledAt;
  }

  /** Polls once more now (call after the job stopped), then stops the thread. */
  @Override
  public void close() throws IOException, InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(10_000);
    poll();
    Throwable error = failure.get();
    if (error != null) {
      throw new IOException("Watching " + table.options().rootPath() + " failed", error);
    }
  }

  /** Visible file path → when it became visible (epoch ms). */
  Map<String, Long> fileVisibleMillis() {
    return fileVisibleMillis;
  }

  /**
   * Row id → when a file holding it first became visible (epoch ms); only with {@code readRows}.
   */
  Map<Long, Long> rowVisibleMillis() {
    return rowVisibleMillis;
  }

  /** When the newest visible file appeared, or {@code Long.MIN_VALUE} before any. */
  long lastNewFileMillis() {
    return lastNewFileMillis.get();
  }

  /** Rows read from visible files so far (only with {@code readRows}). */
  long rowsSeen() {
    return rowsSeen.get();
  }
}
