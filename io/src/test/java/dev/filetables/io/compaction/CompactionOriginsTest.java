package dev.filetables.io.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.ReplacedFiles;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.FileMergers;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.format.RowWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The origins an offline compaction records in a merged file's sidecar: every file whose rows the
 * merged file holds, with its modification time and the range of the merged file that reads exactly
 * its rows — also after a merged file is merged again with newer files.
 */
class CompactionOriginsTest {
  private static final Schema SCHEMA = Schema.builder().addInt64Field("id").build();

  @TempDir Path dir;

  /** Rows of each part file written, by name. */
  private final Map<String, List<Long>> written = new LinkedHashMap<>();

  private long nextId;

  private void land(FileFormat format, int counter, int rows, long mtime) throws IOException {
    String name = PartFileName.visible("w", "0", counter, format.extension());
    List<Long> ids = new ArrayList<>();
    try (OutputStream out = Files.newOutputStream(dir.resolve(name));
        RowWriter writer = format.createWriter(out, SCHEMA)) {
      for (int r = 0; r < rows; r++) {
        writer.write(Row.withSchema(SCHEMA).addValue(nextId).build());
        ids.add(nextId++);
      }
    }
    Files.setLastModifiedTime(dir.resolve(name), FileTime.fromMillis(mtime));
    written.put(name, ids);
  }

  private List<Long> read(FileFormat format, Path file, long start, long end) throws IOException {
    List<Long> ids = new ArrayList<>();
    try (SeekableByteChannel channel = Files.newByteChannel(file);
        RowReader reader =
            format.createReader(channel, channel.size(), ByteRange.of(start, end), SCHEMA)) {
      for (Row row = reader.next(); row != null; row = reader.next()) {
        ids.add(row.getInt64("id"));
      }
    }
    return ids;
  }

  private List<Path> merged() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith("part-compacted-"))
          .collect(Collectors.toList());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "parquet"}) // every format's placements: FileMergerTest
  void eachOriginReadsItsFilesRowsFromTheMergedFileAlsoWhenMergedTwice(String name)
      throws Exception {
    FileFormat format = FileFormats.forName(name, Map.of());
    long t0 = 1_600_000_000_000L;
    for (int f = 0; f < 4; f++) {
      land(format, f, f == 2 ? 0 : 30 + f, t0 + f * 1000);
    }
    OfflineCompaction compaction =
        new OfflineCompaction(
            FileMergers.of(format, SCHEMA), format.extension(), 1 << 30, Duration.ZERO);
    compaction.compact(List.of(dir), false);
    Path first = merged().get(0);
    assertOrigins(format, first, List.copyOf(written.keySet()), t0);

    // more files land; the merged file (smaller than the target) is merged again with them
    for (int f = 4; f < 7; f++) {
      land(format, f, 20, t0 + f * 1000);
    }
    compaction.compact(List.of(dir), false);
    List<Path> now = merged();
    assertEquals(1, now.size(), "one merged file: " + now);
    assertTrue(!now.get(0).equals(first), "merged again");
    assertEquals(
        List.of(first.getFileName().toString(), "part-w-0-4" + format.extension()),
        ReplacedFiles.read(now.get(0)).subList(0, 2),
        "it replaces the first merged file and the new files");
    assertOrigins(format, now.get(0), List.copyOf(written.keySet()), t0);
  }

  /** The merged file's origins are {@code names} in order, each reading exactly its rows. */
  private void assertOrigins(FileFormat format, Path merged, List<String> names, long t0)
      throws IOException {
    List<ReplacedFiles.Origin> origins = ReplacedFiles.readWhole(merged).orElseThrow().origins();
    assertEquals(
        names, origins.stream().map(ReplacedFiles.Origin::name).collect(Collectors.toList()));
    for (ReplacedFiles.Origin origin : origins) {
      long counter = PartFileName.parse(origin.name()).orElseThrow().counter();
      assertEquals(t0 + counter * 1000, origin.modificationTimeMillis(), origin.name());
      assertEquals(
          written.get(origin.name()),
          read(format, merged, origin.start(), origin.end()),
          origin.name() + " in " + merged.getFileName());
    }
  }
}
