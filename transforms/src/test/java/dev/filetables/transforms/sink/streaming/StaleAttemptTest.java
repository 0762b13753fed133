package dev.filetables.transforms.sink.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMerger;
import dev.filetables.io.format.FileMergers;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.segment.SegmentCombiner;
import dev.filetables.transforms.sink.segment.SegmentKind;
import dev.filetables.transforms.sink.segment.SegmentWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn.BundleFinalizer;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stale writer attempt — a task whose TaskManager froze past the heartbeat timeout and woke up
 * after the task was restored elsewhere — runs on for a moment with its old state. It must neither
 * overwrite nor delete a file of the attempt that replaced it. Two writer instances of one key act
 * on one directory in the order that hurts; the visible files are then read as plain lines (not by
 * FileTables): every row once.
 */
class StaleAttemptTest {
  private static final Schema SCHEMA =
      Schema.builder().addInt64Field("id").addStringField("s").build();
  private static final WriterKey KEY = WriterKey.of("dt=1", 0);

  @TempDir Path root;

  /** The parts of one writer instance, as {@code RollingWriterFn.setup} wires them. */
  private final class Attempt {
    final WriterAttempt tag = WriterAttempt.begin();
    final PartFiles files = new PartFiles(root, "uuid-1", ".csv");
    final FileFormat format = FileFormats.forName("csv", Map.of());
    final FileMerger merger = FileMergers.of(format, SCHEMA);
    final SegmentSizes sizes = new SegmentSizes();
    final LeftoverFiles leftovers = new LeftoverFiles(files, tag);
    final BundleSegments segments =
        new BundleSegments(
            SegmentKind.FORMAT,
            format,
            SCHEMA,
            files,
            new SegmentCombiner(16),
            merger,
            sizes,
            true,
            tag);
    final PartFileFinisher finisher =
        new PartFileFinisher(
            files, SegmentKind.FORMAT, merger, Long.MAX_VALUE, leftovers, sizes, false, tag);
    // a stale attempt never sees a checkpoint complete: its finalizers never run
    final BundleFinalizer finalizer = (expiry, callback) -> {};

    OpenFile open(long counter) throws IOException {
      leftovers.deleteBeforeOpen(KEY, counter - 1);
      return new OpenFile(KEY.partitionPath(), files.inProgressName("0", counter), counter, 0);
    }

    /** One bundle of the key: a new segment of {@code file} with rows {@code from..to-1}. */
    void bundle(OpenFile file, long from, long to) throws IOException {
      segments.startBundle();
      SegmentWriter writer = segments.segmentOf(KEY, file, finalizer);
      for (long id = from; id < to; id++) {
        writer.write(Row.withSchema(SCHEMA).addValues(id, "v").build());
        file.add(id, 0);
      }
      segments.completeAll();
    }

    WrittenFile close(OpenFile file) throws IOException {
      segments.close(KEY);
      return finisher.finish(file);
    }
  }

  @Test
  void aStaleAttemptNeitherOverwritesNorDeletesTheFilesOfItsSuccessor() throws Exception {
    Attempt stale = new Attempt();
    OpenFile file = stale.open(1_000);
    stale.bundle(file, 0, 10);
    stale.bundle(file, 10, 20);
    OpenFile checkpointed = OpenFile.copyOf(file); // the last completed checkpoint
    stale.bundle(file, 20, 30); // then the TaskManager froze

    Thread.sleep(2); // attempts are ordered by their start, in milliseconds
    Attempt restored = new Attempt();
    OpenFile replay = OpenFile.copyOf(checkpointed);
    restored.bundle(replay, 20, 25); // the replay, with other bundle boundaries
    restored.bundle(replay, 25, 30);
    WrittenFile first = restored.close(replay);
    OpenFile next = restored.open(2_000);
    restored.bundle(next, 30, 35);

    // the stale attempt wakes up: its bundle goes on, it closes its file and opens another
    stale.bundle(file, 30, 40);
    stale.close(file);
    stale.leftovers.deleteBeforeOpen(KEY, 1_000L);

    // only the restored attempt's checkpoints complete: it publishes, and cleans up later
    FileOps.publish(TablePaths.of(first.path()));
    restored.bundle(next, 35, 40);
    FileOps.publish(TablePaths.of(restored.close(next).path()));
    assertTrue(restored.leftovers.mayForget(KEY, 2_000), "no hidden file is left to wait for");

    List<Long> ids = visibleIds(root.resolve(KEY.partitionPath()));
    assertEquals(LongStream.range(0, 40).boxed().collect(Collectors.toList()), ids);
    assertEquals(List.of(), hiddenFiles(root.resolve(KEY.partitionPath())));
  }

  @Test
  void aRestoredAttemptDeletesWhatAFailedOlderAttemptLeft() throws Exception {
    Attempt failed = new Attempt();
    OpenFile file = failed.open(1_000);
    failed.bundle(file, 0, 10);
    failed.close(file);
    OpenFile after = failed.open(1_500); // opened after the checkpoint: unknown to restored state
    failed.bundle(after, 10, 20);

    Thread.sleep(2);
    Attempt restored = new Attempt();
    restored.open(1_001); // the restored state's last counter was 1,000
    Path dir = root.resolve(KEY.partitionPath());
    assertEquals(
        List.of(),
        hiddenFiles(dir).stream()
            .filter(name -> PartFileName.parse(name).get().counter() == 1_500)
            .collect(Collectors.toList()),
        "the failed attempt's file above the restored counter is gone");
  }

  private static List<Long> visibleIds(Path dir) throws IOException {
    List<Long> ids = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.sorted().collect(Collectors.toList())) {
        if (!PartFileName.isHidden(file.getFileName().toString())) {
          for (String line : Files.readAllLines(file)) {
            ids.add(Long.parseLong(line.substring(0, line.indexOf(','))));
          }
        }
      }
    }
    ids.sort(null);
    return ids;
  }

  private static List<String> hiddenFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(PartFileName::isHidden)
          .sorted()
          .collect(Collectors.toList());
    }
  }
}
