package dev.filetables.tests.streaming;

import dev.filetables.io.files.PartFileName;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.testfixtures.TableContents;
import dev.filetables.tests.streaming.StreamingScenarios.SinkUnderTest;
import dev.filetables.transforms.FileTableIO;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The FileTables streaming sinks under test: orders tables written with {@link FileTableIO#write}.
 */
final class StreamingTables {
  private StreamingTables() {}

  /**
   * A JSON table that also rolls by size (64 kb, several times between checkpoints) and a Parquet
   * table that rolls by time only; both roll within about a second so files are published while the
   * job runs, not only at its end.
   */
  static List<SinkUnderTest> jsonAndParquet(Path dir) {
    return jsonAndParquet(dir, dir);
  }

  /** {@link #jsonAndParquet(Path)} with each table under a directory of its own (two stores). */
  static List<SinkUnderTest> jsonAndParquet(Path jsonDir, Path parquetDir) {
    return List.of(
        fileTable(
            jsonDir,
            "orders_json",
            "json",
            Map.of(
                TableOptions.ROLLING_FILE_SIZE, "64kb",
                TableOptions.ROLLING_ROLLOVER_INTERVAL, "2 s",
                TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 s",
                TableOptions.ROLLING_CHECK_INTERVAL, "500 ms")),
        fileTable(
            parquetDir,
            "orders_parquet",
            "parquet",
            Map.of(
                TableOptions.ROLLING_ROLLOVER_INTERVAL, "1 s",
                TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 s",
                TableOptions.ROLLING_CHECK_INTERVAL, "500 ms")));
  }

  /** A table compacted as it is written: ~1 s files merged into 256 kb ones within 2 s. */
  static SinkUnderTest compacted(Path dir, String name, String format, Map<String, String> more) {
    return fileTable(dir, name, format, compactionOptions(more));
  }

  static Map<String, String> compactionOptions(Map<String, String> more) {
    Map<String, String> options = new HashMap<>(more);
    options.putAll(
        Map.of(
            TableOptions.ROLLING_ROLLOVER_INTERVAL, "1 s",
            TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 s",
            TableOptions.ROLLING_CHECK_INTERVAL, "500 ms",
            TableOptions.AUTO_COMPACTION, "true",
            TableOptions.COMPACTION_FILE_SIZE, "256kb",
            TableOptions.COMPACTION_MAX_DELAY, "2 s"));
    return options;
  }

  static SinkUnderTest fileTable(
      Path dir, String name, String format, Map<String, String> options) {
    return new SinkUnderTest(
        Orders.table(name, StreamingScenarios.tablePath(dir, name).toString(), format, options),
        StreamingTables::write);
  }

  /**
   * {@link FileTableIO#write} under the table's {@link #writeUuid}: a job restored from a savepoint
   * or retained checkpoint of an earlier one keeps the write's id, as the docs tell users to
   * ({@code withWriteUuid}), so it recognises (and cleans) the earlier job's hidden files.
   */
  static FileTableIO.Write write(TableSpec table) {
    return FileTableIO.write(table).withWriteUuid(writeUuid(table));
  }

  /** One write id per table (its root path): the same for every job built for it. */
  static String writeUuid(TableSpec table) {
    return UUID.nameUUIDFromBytes(
            table.options().rootPath().toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  /**
   * Visible files whose name is not a published part file name ({@code
   * part-<uuid>-<writer>-<n><ext>}).
   */
  static List<Path> strangeVisibleFiles(TableContents contents) {
    List<Path> strange = new ArrayList<>();
    for (TableContents.VisibleFile file : contents.files()) {
      String name = file.path().getFileName().toString();
      if (PartFileName.parse(name).map(PartFileName.Parts::inProgress).orElse(true)) {
        strange.add(file.path());
      }
    }
    return strange;
  }
}
