package dev.filetables.pipelines;

import dev.filetables.io.files.TablePaths;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Where a run's next job restores from: the newest complete retained checkpoint or savepoint of the
 * run's latest job that has one.
 *
 * <p>A job's checkpoint {@code n} is {@code <checkpoints>/<job id>/chk-<n>}; it is complete once
 * its {@code _metadata} exists (Flink writes that file last, under a temporary name renamed when
 * done: a {@code kill -9} during a checkpoint leaves a {@code chk-<n>} without it). A savepoint
 * Flink took into its default directory is {@code <savepoints>/savepoint-<first 6 hex digits of the
 * job id>-<random>}. Within a job the newest is the one whose {@code _metadata} was written last.
 * Across jobs the latest job with a point wins: each job of a run restored from the newest point
 * before it, so everything it checkpointed is newer.
 */
final class RestorePoints {
  static final String METADATA = "_metadata";
  private static final String CHECKPOINT_PREFIX = "chk-";
  private static final String SAVEPOINT_PREFIX = "savepoint-";

  /** A complete checkpoint or savepoint of a job. */
  static final class Point {
    final Path path;
    final String jobId;
    final long writtenMillis;

    /** The checkpoint number; -1 for a savepoint (its number is inside its metadata). */
    final long number;

    Point(Path path, String jobId, long writtenMillis, long number) {
      this.path = path;
      this.jobId = jobId;
      this.writtenMillis = writtenMillis;
      this.number = number;
    }

    boolean isSavepoint() {
      return number < 0;
    }

    /** {@code checkpoint 12 of job <id>} or {@code savepoint <name> of job <id>}. */
    String describe() {
      return (isSavepoint() ? "savepoint " + path.getFileName() : "checkpoint " + number)
          + " of job "
          + jobId;
    }

    @Override
    public String toString() {
      return path.toString();
    }
  }

  private static final Comparator<Point> NEWEST_LAST =
      Comparator.<Point>comparingLong(p -> p.writtenMillis).thenComparingLong(p -> p.number);

  private RestorePoints() {}

  /** The newest complete point of {@code job}, looking where its record says they go. */
  static Optional<Point> newestOf(RunRecord.Job job) throws IOException {
    List<Point> points = new ArrayList<>();
    if (job.checkpoints.isPresent()) {
      Path jobDir = TablePaths.of(job.checkpoints.get()).resolve(job.id);
      for (Path entry : list(jobDir)) {
        String name = entry.getFileName().toString();
        if (name.startsWith(CHECKPOINT_PREFIX) && isNumber(name.substring(4))) {
          complete(entry, job.id, Long.parseLong(name.substring(4))).ifPresent(points::add);
        }
      }
    }
    if (job.savepoints.isPresent()) {
      String prefix = SAVEPOINT_PREFIX + job.id.substring(0, Math.min(6, job.id.length())) + "-";
      for (Path entry : list(TablePaths.of(job.savepoints.get()))) {
        if (entry.getFileName().toString().startsWith(prefix)) {
          complete(entry, job.id, -1).ifPresent(points::add);
        }
      }
    }
    return points.stream().max(NEWEST_LAST);
  }

  /** The run's restore point: the newest point of its latest job that has one. */
  static Optional<Point> newestOfRun(List<RunRecord.Job> jobs) throws IOException {
    for (int i = jobs.size() - 1; i >= 0; i--) {
      Optional<Point> point = newestOf(jobs.get(i));
      if (point.isPresent()) {
        return point;
      }
    }
    return Optional.empty();
  }

  private static Optional<Point> complete(Path dir, String jobId, long number) throws IOException {
    Path metadata = dir.resolve(METADATA);
    try {
      if (Files.isRegularFile(metadata) && Files.size(metadata) > 0) {
        return Optional.of(
            new Point(dir, jobId, Files.getLastModifiedTime(metadata).toMillis(), number));
      }
    } catch (NoSuchFileException e) {
      // deleted meanwhile: Flink discarding a subsumed checkpoint
    }
    return Optional.empty();
  }

  private static List<Path> list(Path dir) throws IOException {
    List<Path> entries = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return entries;
    }
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
      stream.forEach(entries::add);
    } catch (NoSuchFileException e) {
      // gone meanwhile
    }
    return entries;
  }

  private static boolean isNumber(String text) {
    return !text.isEmpty() && text.chars().allMatch(Character::isDigit) && text.length() < 19;
  }
}
