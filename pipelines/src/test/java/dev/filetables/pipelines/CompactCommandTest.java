package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.CompactedFileName;
import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.ListedFiles;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.ReplacedFiles;
import dev.filetables.io.files.TableListing;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableSpec;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code filetables compact}: merges, dry run, the swap protocol under a concurrent reader,
 * recovery.
 */
class CompactCommandTest {
  private static final int PARTITIONS = 3;
  private static final int FILES_PER_PARTITION = 12;
  private static final int ROWS_PER_FILE = 40;

  @TempDir Path dir;

  private Path table(String format) throws Exception {
    Path sql = dir.resolve("t.sql");
    Files.writeString(
        sql,
        "CREATE TABLE t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
            + " 'connector' = 'filesystem', 'path' = '"
            + dir.resolve("t")
            + "', 'format' = '"
            + format
            + "')");
    TableSpec table = TableFiles.load(sql.toString());
    FileFormat fileFormat = FileFormats.of(table.options());
    long id = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      Path partition = dir.resolve("t").resolve("dt=2020-05-2" + p);
      Files.createDirectories(partition);
      for (int f = 0; f < FILES_PER_PARTITION; f++) {
        String name =
            PartFileName.visible(
                "11111111-2222-3333-4444-555555555555", "0", f, fileFormat.extension());
        try (OutputStream out = Files.newOutputStream(partition.resolve(name));
            RowWriter writer = fileFormat.createWriter(out, table.fileSchema())) {
          for (int r = 0; r < ROWS_PER_FILE; r++) {
            writer.write(Row.withSchema(table.fileSchema()).addValues(id, "row " + id).build());
            id++;
          }
        }
      }
    }
    return sql;
  }

  /** Lists and reads the whole table as a FileTables reader does; returns the ids it read. */
  private static List<Long> readAll(TableSpec table) throws Exception {
    FileFormat format = FileFormats.of(table.options());
    List<DataFile> files =
        TableListing.list(
            table.options().rootPath(),
            table.partitionKeys(),
            table.options().partitionDefaultName(),
            PartitionFilter.all(),
            Optional.empty());
    List<Long> ids = new ArrayList<>();
    for (DataFile file : files) {
      try (SeekableByteChannel channel = ListedFiles.open(Path.of(file.path()))) {
        long size = channel.size();
        try (RowReader reader =
            format.createReader(channel, size, ByteRange.of(0, size), table.fileSchema())) {
          for (Row row = reader.next(); row != null; row = reader.next()) {
            ids.add(row.getInt64("id"));
          }
        }
      }
    }
    return ids;
  }

  private List<Path> files(String glob) throws Exception {
    try (Stream<Path> all = Files.walk(dir.resolve("t"))) {
      return all.filter(Files::isRegularFile)
          .filter(p -> p.getFileSystem().getPathMatcher("glob:" + glob).matches(p.getFileName()))
          .collect(Collectors.toList());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "parquet", "orc"})
  void mergesAtomicallyForAConcurrentReaderAndCleansUpLater(String format) throws Exception {
    Path sql = table(format);
    TableSpec table = TableFiles.load(sql.toString());
    long total = (long) PARTITIONS * FILES_PER_PARTITION * ROWS_PER_FILE;
    long fileSize = Files.size(files("part-*").get(0));
    String target = Long.toString(fileSize * 4);

    CliRunner dry = CliRunner.run("compact", sql.toString(), "--target-size", target, "--dry-run");
    assertEquals(0, dry.exitCode, dry.toString());
    assertTrue(dry.out.contains("before: 36 files"), dry.out);
    assertTrue(dry.out.contains("after:  9 files"), dry.out);
    assertEquals(
        PARTITIONS * FILES_PER_PARTITION, files("part-*").size(), "a dry run changes nothing");

    // a reader loop: every complete listing + read sees each row exactly once
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong reads = new AtomicLong();
    List<String> problems = new java.util.concurrent.CopyOnWriteArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              while (!stop.get()) {
                try {
                  List<Long> ids = readAll(table);
                  if (ids.size() != total || ids.stream().distinct().count() != total) {
                    problems.add(
                        ids.size() + " rows, " + ids.stream().distinct().count() + " distinct");
                  }
                  reads.incrementAndGet();
                } catch (Exception e) {
                  problems.add(e.toString());
                }
              }
            });
    reader.start();
    try {
      Thread.sleep(100);
      CliRunner run = CliRunner.run("compact", sql.toString(), "--target-size", target);
      assertEquals(0, run.exitCode, run.toString());
      assertTrue(run.out.contains("after:  9 files"), run.out);
      Thread.sleep(200);
    } finally {
      stop.set(true);
      reader.join();
    }
    assertEquals(List.of(), problems, "reads: " + reads.get());
    assertTrue(reads.get() > 0);
    List<Path> merged = files("part-" + CompactedFileName.OFFLINE_UUID + "-*");
    assertEquals(9, merged.size());
    int replaced = 0;
    for (Path m : merged) {
      replaced += ReplacedFiles.read(m).size();
    }
    assertEquals(PARTITIONS * FILES_PER_PARTITION, replaced, "every small file is replaced once");
    // replaced files are out of sight, kept under hidden names until the grace period has passed
    assertEquals(9, files("part-*").size());
    assertEquals(PARTITIONS * FILES_PER_PARTITION, files(".part-*.replaced").size());

    // a crash of an earlier run before its commit point left a hidden output and a sidecar
    Path partition = merged.get(0).getParent();
    Files.writeString(
        partition.resolve(
            ".part-compacted-c0123456789abcdef-2"
                + FileFormats.of(table.options()).extension()
                + ".inprogress"),
        "partial");
    Files.writeString(
        partition.resolve(
            ".part-compacted-c0123456789abcdef-2"
                + FileFormats.of(table.options()).extension()
                + ".replaces"),
        "x\n");

    CliRunner again =
        CliRunner.run("compact", sql.toString(), "--target-size", target, "--grace", "0 s");
    assertEquals(0, again.exitCode, again.toString());
    assertTrue(again.out.contains("before: 9 files"), again.out);
    int listed =
        TableListing.list(
                table.options().rootPath(),
                table.partitionKeys(),
                table.options().partitionDefaultName(),
                PartitionFilter.all(),
                Optional.empty())
            .size();
    assertTrue(
        listed <= 9,
        "parquet and orc merge their (smaller than the target) merged files again: " + listed);
    assertEquals(listed, files("part-*").size(), "replaced inputs deleted");
    for (Path m : files("part-" + CompactedFileName.OFFLINE_UUID + "-*")) {
      assertTrue(Files.exists(ReplacedFiles.sidecarOf(m)), "live sidecars are kept: " + m);
    }
    assertTrue(
        files(".*.replaces").stream()
            .noneMatch(p -> p.getFileName().toString().contains("c0123456789abcdef")),
        "the sidecar of a merged file that was never published is deleted");
    assertEquals(List.of(), files(".*.inprogress"));
    assertEquals(List.of(), files(".*.replaced"), "grace names deleted once the grace has passed");
    List<Long> ids = readAll(table);
    assertEquals(total, ids.size());
    assertEquals(total, ids.stream().distinct().count());
  }
}
