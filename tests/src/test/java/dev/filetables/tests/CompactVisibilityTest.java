package dev.filetables.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.compaction.OfflineCompaction;
import dev.filetables.io.compaction.OfflineCompactionFailpoints;
import dev.filetables.io.compaction.OfflineCompactionFailpoints.Point;
import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.ListedFiles;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.pipelines.storage.StorageServers;
import dev.filetables.tests.stores.StoreViews;
import dev.filetables.transforms.FileTableMaintenance;
import dev.filetables.transforms.source.FileRange;
import dev.filetables.transforms.source.FileRangeReader;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 17, point 4: right after an offline compaction returns, a reader that lists the table —
 * DuckDB with its own glob, native Flink SQL (local disk), FileTables — reads every row exactly
 * once, while a FileTables reader that listed the table before the compaction (some files opened
 * and partly read, some opened, some not yet) still reads every row exactly once from its old
 * listing. On the local disk, the real S3 server and the real HDFS, in JSON and Parquet (whose
 * reader reads the footer and the row groups with separate requests on S3).
 */
class CompactVisibilityTest {
  private static final Logger LOG = LoggerFactory.getLogger(CompactVisibilityTest.class);

  @TempDir Path scratch;

  static Stream<Arguments> storesAndFormats() {
    List<Arguments> all = new ArrayList<>();
    for (String store : List.of("local", "s3", "hdfs")) {
      for (String format : List.of("json", "parquet")) {
        all.add(Arguments.of(store, format));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("storesAndFormats")
  void everyReaderSeesEachRowOnceRightAfterCompactAndEarlierListingsStayConsistent(
      String store, String format) throws Exception {
    StorageServers servers = store.equals("local") ? null : StorageServers.shared();
    String root =
        servers == null
            ? scratch.resolve("t").toString()
            : servers.root(store) + "/compact-view/t-" + UUID.randomUUID();
    SmallFilesTable t = SmallFilesTable.write(root, format);
    Map<Long, Long> expected = SmallFilesTable.expected();

    // a FileTables reader lists before the compaction ...
    List<DataFile> listed = t.list();
    assertEquals(SmallFilesTable.PARTITIONS * SmallFilesTable.FILES_PER_PARTITION, listed.size());
    FileRangeReader reader = new FileRangeReader(t.table);
    List<Long> earlier = new ArrayList<>();
    List<FileRangeReader.Cursor> started = new ArrayList<>();
    List<SeekableByteChannel> opened = new ArrayList<>();
    List<DataFile> openedFiles = new ArrayList<>();
    List<DataFile> notYet = new ArrayList<>();
    for (int i = 0; i < listed.size(); i++) {
      DataFile file = listed.get(i);
      if (i % 3 == 0) { // ... opens some files and reads their first row ...
        FileRangeReader.Cursor cursor =
            reader.open(FileRange.of(file, ByteRange.of(0, file.size())));
        earlier.add(cursor.next().row().getInt64("id"));
        started.add(cursor);
      } else if (i % 3 == 1) { // ... opens others without reading ...
        opened.add(ListedFiles.open(TablePaths.of(file.path())));
        openedFiles.add(file);
      } else { // ... and has not opened the rest yet
        notYet.add(file);
      }
    }

    long target = 4 * listed.get(0).size();
    List<OfflineCompaction.Result> results = compact(servers, store, t, target);
    assertEquals(9, results.stream().mapToInt(OfflineCompaction.Result::groups).sum());
    assertEquals(36, results.stream().mapToInt(OfflineCompaction.Result::retired).sum());

    // right after it returns, readers that list the table see every row once
    Path local = servers == null ? Path.of(root) : StoreViews.localView(servers, root, scratch);
    assertEquals(expected, SmallFilesTable.counts(t.duckDb(local)), "DuckDB");
    if (servers == null) {
      assertEquals(expected, SmallFilesTable.counts(nativeFlink(t)), "native Flink SQL");
    }
    assertEquals(9, t.list().size(), "FileTables lists the merged files only");
    assertEquals(expected, SmallFilesTable.counts(t.read(t.list())), "FileTables, listing now");

    // the reader that listed before reads on from its listing: every row once as well
    for (FileRangeReader.Cursor cursor : started) {
      for (FileRangeReader.Step step = cursor.next(); step != null; step = cursor.next()) {
        earlier.add(step.row().getInt64("id"));
      }
      assertTrue(
          !cursor.result().vanished() && !cursor.result().badFile(), cursor.result().toString());
      cursor.close();
    }
    for (int i = 0; i < opened.size(); i++) {
      try (SeekableByteChannel channel = opened.get(i)) {
        earlier.addAll(t.ids(channel, openedFiles.get(i).size()));
      }
    }
    for (DataFile file : notYet) {
      FileRangeReader.Result result =
          reader.read(
              FileRange.of(file, ByteRange.of(0, file.size())),
              row -> earlier.add(row.getInt64("id")),
              letter -> {});
      assertTrue(!result.vanished() && !result.badFile(), result.toString());
    }
    assertEquals(expected, SmallFilesTable.counts(earlier), "FileTables, listed before compact");
  }

  private List<OfflineCompaction.Result> compact(
      StorageServers servers, String store, SmallFilesTable t, long target) throws Exception {
    if (!store.equals("s3")) {
      return FileTableMaintenance.compact(
          t.table, PartitionFilter.all(), target, Duration.ofMinutes(5), false);
    }
    // on S3, also count the requests
    S3Options options =
        PipelineOptionsFactory.fromArgs(servers.pipelineArgs().toArray(new String[0]))
            .create()
            .as(S3Options.class);
    options.setS3ClientFactoryClass(CountingS3Clients.class);
    FileSystems.setDefaultPipelineOptions(options);
    AtomicReference<Map<String, Long>> atLastCommit = new AtomicReference<>();
    OfflineCompactionFailpoints.set(
        (point, file) -> {
          if (point == Point.COMMITTED) {
            atLastCommit.set(CountingS3Clients.snapshot());
          }
        });
    try {
      Map<String, Long> before = CountingS3Clients.snapshot();
      List<OfflineCompaction.Result> results =
          FileTableMaintenance.compact(
              t.table, PartitionFilter.all(), target, Duration.ofMinutes(5), false);
      Map<String, Long> all = CountingS3Clients.since(before);
      Map<String, Long> moving = CountingS3Clients.since(atLastCommit.get());
      LOG.info("S3 requests of a compaction of 36 files into 9 in 3 partitions: {}", all);
      LOG.info("of which after the last commit (moving 36 files out of sight): {}", moving);
      assertEquals(36L, moving.getOrDefault("CopyObject", 0L), "one copy per replaced file");
      assertEquals(36L, moving.getOrDefault("DeleteObject", 0L), "one delete per replaced file");
      return results;
    } finally {
      OfflineCompactionFailpoints.reset();
      servers.makeDefault();
    }
  }

  /** The ids native Flink 1.19 SQL reads with its own filesystem connector (local disk). */
  private static List<Long> nativeFlink(SmallFilesTable t) throws Exception {
    Configuration config = new Configuration();
    config.set(CoreOptions.DEFAULT_PARALLELISM, 1);
    TableEnvironment flink =
        TableEnvironment.create(
            EnvironmentSettings.newInstance().inBatchMode().withConfiguration(config).build());
    flink.executeSql(
        "CREATE TABLE t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
            + " 'connector' = 'filesystem', 'path' = '"
            + Path.of(t.root).toUri()
            + "', 'format' = '"
            + t.format.name()
            + "')");
    List<Long> ids = new ArrayList<>();
    try (CloseableIterator<Row> it = flink.executeSql("SELECT id FROM t").collect()) {
      while (it.hasNext()) {
        ids.add((Long) it.next().getField(0));
      }
    }
    return ids;
  }
}
