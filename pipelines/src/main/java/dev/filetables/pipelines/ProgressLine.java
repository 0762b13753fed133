package dev.filetables.pipelines;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A one-line progress display for long jobs on a terminal: every second it rewrites (with {@code
 * \r}) a line such as {@code 412,000 rows, 37 files (12 in progress), 8.0 s}.
 *
 * <p>Rows come from {@link RowCounter}; files are counted by walking the sink directory: visible
 * data files plus hidden in-progress part files. Does nothing unless started on a terminal.
 */
final class ProgressLine implements AutoCloseable {
  private final PrintStream err;
  private final LongSupplier rows;
  private final Optional<Path> sinkRoot;
  private final long startNanos = System.nanoTime();
  private final Thread thread;
  private volatile boolean running = true;
  private int lastLength;

  private ProgressLine(PrintStream err, LongSupplier rows, Optional<Path> sinkRoot) {
    this.err = err;
    this.rows = rows;
    this.sinkRoot = sinkRoot;
    this.thread = new Thread(this::loop, "filetables-progress");
    thread.setDaemon(true);
  }

  /** Starts the display when {@code terminal} is true; otherwise returns a no-op. */
  static AutoCloseable startIf(
      boolean terminal, PrintStream err, LongSupplier rows, Optional<Path> sinkRoot) {
    if (!terminal) {
      return () -> {};
    }
    ProgressLine line = new ProgressLine(err, rows, sinkRoot);
    line.thread.start();
    return line;
  }

  private void loop() {
    while (running) {
      try {
        TimeUnit.SECONDS.sleep(1);
      } catch (InterruptedException e) {
        return;
      }
      if (running) {
        print(render());
      }
    }
  }

  String render() {
    StringBuilder text = new StringBuilder("  ").append(Human.count(rows.getAsLong(), "row"));
    sinkRoot.ifPresent(
        root -> {
          FileCount files = FileCount.under(root);
          text.append(", ").append(Human.count(files.visible + files.inProgress, "file"));
          if (files.inProgress > 0) {
            text.append(" (").append(Human.count(files.inProgress)).append(" in progress)");
          }
        });
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
    return text.append(", ").append(Human.duration(seconds * 1000)).toString();
  }

  private synchronized void print(String text) {
    int pad = Math.max(0, lastLength - text.length());
    err.print("\r" + text + " ".repeat(pad));
    err.flush();
    lastLength = text.length();
  }

  /** Stops the thread and clears the line so the next output starts at column 0. */
  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      if (lastLength > 0) {
        err.print("\r" + " ".repeat(lastLength) + "\r");
        err.flush();
      }
    }
  }

  /** Data files under a table root: visible ones and hidden in-progress ones. */
  static final class FileCount {
    long visible;
    long inProgress;

    static FileCount under(Path root) {
      FileCount count = new FileCount();
      if (!Files.isDirectory(root)) {
        return count;
      }
      try {
        Files.walkFileTree(
            root,
            new SimpleFileVisitor<>() {
              @Override
              public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String name = file.getFileName().toString();
                if (name.endsWith(".inprogress")) {
                  count.inProgress++;
                } else if (attrs.isRegularFile() && !isHiddenBelow(root, file)) {
                  count.visible++;
                }
                return FileVisitResult.CONTINUE;
              }

              @Override
              public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE; // files come and go while the job runs
              }
            });
      } catch (IOException e) {
        // a partial count is fine for a progress display
      }
      return count;
    }

    private static boolean isHiddenBelow(Path root, Path file) {
      for (Path part : root.relativize(file)) {
        String name = part.toString();
        if (name.startsWith(".") || name.startsWith("_")) {
          return true;
        }
      }
      return false;
    }
  }
}
