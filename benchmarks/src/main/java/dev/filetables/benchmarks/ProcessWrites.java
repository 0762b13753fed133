package dev.filetables.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The bytes a process has written through system calls so far ({@code wchar} of Linux's {@code
 * /proc/<pid>/io}): read before and after a request, it shows what a local server wrote to disk for
 * it (its responses add a few hundred bytes). Empty where there is no such file.
 */
final class ProcessWrites {
  private final Path io;

  private ProcessWrites(Path io) {
    this.io = io;
  }

  /** The process {@code pid}'s counter. */
  static Optional<ProcessWrites> of(long pid) {
    Path io = Path.of("/proc", Long.toString(pid), "io");
    return Files.isReadable(io) ? Optional.of(new ProcessWrites(io)) : Optional.empty();
  }

  long bytes() {
    try {
      for (String line : Files.readAllLines(io)) {
        if (line.startsWith("wchar:")) {
          return Long.parseLong(line.substring("wchar:".length()).strip());
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + io + ": " + e.getMessage(), e);
    }
    throw new IllegalStateException(io + " has no wchar line");
  }
}
