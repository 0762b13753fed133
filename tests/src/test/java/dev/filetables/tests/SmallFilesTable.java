package dev.filetables.tests;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.ListedFiles;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.TableListing;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.format.RowWriter;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.TableSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.beam.sdk.values.Row;

/**
 * A table of many small part files, as an offline compaction finds it: {@code (id BIGINT, name
 * STRING)} partitioned by {@code dt}, ids 0..n-1 each in one row, written directly with the
 * format's writer (on the local disk, S3 or HDFS). Reads it as FileTables and as DuckDB do, rows as
 * id multisets.
 */
final class SmallFilesTable {
  static final int PARTITIONS = 3;
  static final int FILES_PER_PARTITION = 12;
  static final int ROWS_PER_FILE = 40;
  static final long ROWS = (long) PARTITIONS * FILES_PER_PARTITION * ROWS_PER_FILE;

  final String root;
  final TableSpec table;
  final String ddl;
  final FileFormat format;

  private SmallFilesTable(String root, String ddl) {
    this.root = root;
    this.ddl = ddl;
    this.table = DdlParser.parse(ddl);
    this.format = FileFormats.of(table.options());
  }

  /** Writes the table under {@code root} (a local path or a store URI) in {@code format}. */
  static SmallFilesTable write(String root, String format) throws IOException {
    SmallFilesTable t =
        new SmallFilesTable(
            root,
            "CREATE TABLE t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                + " 'connector' = 'filesystem', 'path' = '"
                + root
                + "', 'format' = '"
                + format
                + "')");
    long id = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      Path partition = TablePaths.of(root + "/dt=2020-05-2" + p);
      Files.createDirectories(partition);
      for (int f = 0; f < FILES_PER_PARTITION; f++) {
        String name =
            PartFileName.visible(
                "11111111-2222-3333-4444-555555555555", "0", f, t.format.extension());
        try (OutputStream out = Files.newOutputStream(partition.resolve(name));
            RowWriter writer = t.format.createWriter(out, t.table.fileSchema())) {
          for (int r = 0; r < ROWS_PER_FILE; r++) {
            writer.write(Row.withSchema(t.table.fileSchema()).addValues(id, "row " + id).build());
            id++;
          }
        }
      }
    }
    return t;
  }

  /** The DDL as a file, for the CLI. */
  Path ddlFile(Path dir) throws IOException {
    return Files.writeString(dir.resolve("t.sql"), ddl);
  }

  /** Every id once. */
  static Map<Long, Long> expected() {
    return counts(LongStream.range(0, ROWS).boxed().collect(Collectors.toList()));
  }

  /** Id → how often it was read. */
  static Map<Long, Long> counts(List<Long> ids) {
    Map<Long, Long> counts = new TreeMap<>();
    ids.forEach(id -> counts.merge(id, 1L, Long::sum));
    return counts;
  }

  /** What a FileTables reader lists now. */
  List<DataFile> list() throws IOException {
    return TableListing.list(
        table.options().rootPath(),
        table.partitionKeys(),
        table.options().partitionDefaultName(),
        PartitionFilter.all(),
        Optional.empty());
  }

  /** The ids in files a FileTables listing returned (opened as FileTables' readers open them). */
  List<Long> read(List<DataFile> listed) throws IOException {
    List<Long> ids = new ArrayList<>();
    for (DataFile file : listed) {
      try (SeekableByteChannel channel = ListedFiles.open(TablePaths.of(file.path()))) {
        ids.addAll(ids(channel, file.size()));
      }
    }
    return ids;
  }

  /** The ids of one open file. */
  List<Long> ids(SeekableByteChannel channel, long size) throws IOException {
    List<Long> ids = new ArrayList<>();
    try (RowReader reader =
        format.createReader(channel, size, ByteRange.of(0, size), table.fileSchema())) {
      for (Row row = reader.next(); row != null; row = reader.next()) {
        ids.add(row.getInt64("id"));
      }
    }
    return ids;
  }

  /**
   * The ids DuckDB reads from {@code local} (the table's files as plain local files), listing them
   * itself with a glob as its users do.
   */
  List<Long> duckDb(Path local) throws Exception {
    String glob = "'" + local.toString().replace("'", "''") + "/**/*" + format.extension() + "'";
    String scan =
        format.name().equals("parquet")
            ? "read_parquet(" + glob + ")"
            : "read_json("
                + glob
                + ", format = 'newline_delimited', columns = {'id': 'BIGINT', 'name': 'VARCHAR'})";
    List<Long> ids = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id FROM " + scan)) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }
}
