package dev.filetables.transforms;

import static org.apache.beam.sdk.util.Preconditions.checkArgumentNotNull;

import com.google.auto.value.AutoValue;
import dev.filetables.io.files.DataFile;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.partition.time.PartitionDeriver;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.commit.PartitionCommit;
import dev.filetables.transforms.sink.DerivePartitionsFn;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.SinkInputCheck;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import dev.filetables.transforms.sink.batch.PublishFiles;
import dev.filetables.transforms.sink.batch.WriteRows;
import dev.filetables.transforms.sink.streaming.StreamingWrite;
import dev.filetables.transforms.source.DeadLetterTable;
import dev.filetables.transforms.source.FileRange;
import dev.filetables.transforms.source.ReadRanges;
import dev.filetables.transforms.source.watch.WatchedRead;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.Impulse;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reading and writing file tables: Hive-style partitioned directories of csv, json, avro, parquet
 * or orc files, configured by a {@link TableSpec} with Flink filesystem connector options. {@link
 * #write} takes bounded input (the batch write described below) and unbounded input (the streaming
 * sink: rolling files published at checkpoints, see {@link StreamingWrite} for its design).
 *
 * <pre>{@code
 * TableSpec table = DdlParser.parse("CREATE TABLE t (...) PARTITIONED BY (dt) WITH (...)");
 * rows.apply(FileTableIO.write(table));
 * PCollection<Row> read = pipeline.apply(FileTableIO.read(table).withPartitionFilter("dt >= '2020-05-20'"));
 * }</pre>
 *
 * <h2>How a batch write keeps readers from seeing partial data</h2>
 *
 * <p>Writers only ever create <em>hidden</em> files ({@code
 * .part-<uuid>-<writer>-<n><ext>.inprogress}): every reader of the layout (this one, Flink, Spark,
 * Hive, DuckDB globs on the extension) skips names starting with '.', so a running or failed write
 * is invisible. Each write has its own uuid, generated when the pipeline is built; its files can
 * therefore never overwrite or delete another write's files, and writing twice into a table simply
 * adds the second write's files.
 *
 * <p>Once every writer has finished, all in-progress files meet at one key (a GroupByKey). That
 * barrier is the point: the runner only starts the publish step when the writers' output is
 * complete and committed, so publishing never races a still-running or later-discarded writer
 * attempt. The publisher renames each file to its visible name with an atomic move, then deletes
 * any other in-progress file of the same uuid in those directories: the output of writer attempts
 * that failed and were retried, whose files were never handed to the publisher.
 *
 * <p>On retry: a retried writer bundle writes new files (random writer id per bundle) or rewrites
 * its own names (shard-numbered writers truncate their old file); only the files of the successful
 * attempt reach the publisher. A retried publish is idempotent: a file whose hidden name is gone
 * and whose visible name exists was already published; leftover deletion tolerates files already
 * gone. A write that fails as a whole leaves only hidden files, which readers ignore.
 *
 * <h2>Batch writers</h2>
 *
 * <p>Bounded input keeps this stateless path rather than the streaming sink's stateful one: on
 * Flink batch a bundle is a whole task, so per-bundle writers already give one file per (partition,
 * task) without putting every row through keyed state.
 *
 * <ul>
 *   <li>Default: each bundle keeps one open file per partition and rolls it at {@code
 *       sink.rolling-policy.file-size}; on Flink batch that is one file per (partition, task).
 *   <li>{@code sink.parallelism}=N: rows are spread over N writers (round robin, or by partition
 *       with {@code sink.shuffle-by-partition.enable}), writer ids 0..N-1.
 *   <li>{@code sink.shuffle-by-partition.enable} alone: one writer per partition.
 * </ul>
 *
 * <h2>Reading</h2>
 *
 * <p>Files are listed when the pipeline runs, pruning partition directories with the partition
 * filter; each file is split into ranges of about {@link Read#withTargetSplitSize} bytes, spread
 * over workers, and read into rows of {@link TableSpec#schema()} with partition and metadata
 * columns filled in. What cannot be read (a bad record, a corrupt or unreadable file) is handled by
 * the table's {@code source.bad-records} policy: fail (default), skip, or write to a dead-letter
 * table (see {@link dev.filetables.transforms.source.FileRangeReader}). The read outputs its bad
 * records beside its rows; this transform writes them ({@link ReadWithDeadLetters}).
 *
 * <p>With {@code source.monitor-interval} > 0 the read is unbounded: the table directory is watched
 * and each new file is read once, with event timestamps and a watermark; see {@link WatchedRead}.
 */
public final class FileTableIO {
  private static final Logger LOG = LoggerFactory.getLogger(FileTableIO.class);

  /** Default size of the byte ranges a read splits files into. */
  public static final long DEFAULT_TARGET_SPLIT_SIZE = 32L * 1024 * 1024;

  private FileTableIO() {}

  /**
   * Writes rows with the table's physical columns; outputs the published files. Exception: at the
   * end of a finite stream on Flink, the files that wait for the job's final checkpoint are output
   * under their visible names just before that checkpoint publishes them (see {@link
   * FileTableMaintenance#finishWrite} for when it cannot).
   */
  public static Write write(TableSpec table) {
    return new AutoValue_FileTableIO_Write.Builder()
        .setTable(table)
        .setBufferSize(StreamingWrite.DEFAULT_BUFFER_SIZE)
        .build();
  }

  /** Reads the table's rows (physical and metadata columns). */
  public static Read read(TableSpec table) {
    return new AutoValue_FileTableIO_Read.Builder()
        .setTable(table)
        .setTargetSplitSize(DEFAULT_TARGET_SPLIT_SIZE)
        .setWatchShards(WatchedRead.DEFAULT_SHARDS)
        .build();
  }

  /** See {@link FileTableIO}. */
  @AutoValue
  public abstract static class Write
      extends PTransform<PCollection<Row>, PCollection<WrittenFile>> {
    private static final long serialVersionUID = 1L;

    public abstract TableSpec getTable();

    public abstract long getBufferSize();

    public abstract @Nullable String getWriteUuid();

    abstract Builder toBuilder();

    @AutoValue.Builder
    abstract static class Builder {
      abstract Builder setTable(TableSpec table);

      abstract Builder setBufferSize(long bytes);

      abstract Builder setWriteUuid(@Nullable String uuid);

      abstract Write build();
    }

    /**
     * Unbounded input only: bytes at which the streaming sink completes an open file's segment and
     * begins the next one even within a bundle (default 16 MB, capped at the rolling file size).
     * Rows are never kept in Beam state (each bundle's rows go to a hidden segment file); this
     * bounds what a segment writer holds in memory, which matters for Parquet segments (their row
     * group's pages stay in memory until the segment is closed).
     */
    public Write withBufferSize(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("buffer size must be positive, got " + bytes);
      }
      return toBuilder().setBufferSize(bytes).build();
    }

    /**
     * The write id in part file names, {@code part-<uuid>-<writer>-<counter>} (default: a random
     * UUID chosen when the pipeline is built). Pass the same id to {@code
     * PartitionCommit.withWriteUuid}. For a streaming job restarted from a savepoint, keeping the
     * id lets the new run recognise the old run's hidden files (clean-up of failed attempts, the
     * commit's wait for in-progress files). Different writes into one table must never share an id
     * (each run of a batch pipeline is a write of its own: leave it unset there). Letters, digits
     * and '-' only.
     */
    public Write withWriteUuid(String uuid) {
      checkArgumentNotNull(uuid, "write uuid must not be null");
      if (!uuid.matches("[A-Za-z0-9-]+")) {
        throw new IllegalArgumentException(
            "A write uuid may hold letters, digits and '-' only (it is part of file names), got '"
                + uuid
                + "'");
      }
      return toBuilder().setWriteUuid(uuid).build();
    }

    @Override
    public PCollection<WrittenFile> expand(PCollection<Row> input) {
      TableSpec table = getTable();
      TableOptions options = table.options();
      if (!input.hasSchema()) {
        throw new IllegalArgumentException(
            "FileTableIO.write(`"
                + table.name()
                + "`) needs a PCollection<Row> with a schema"
                + " (use setRowSchema or a schema-aware transform)");
      }
      SinkInputCheck.check(table, input.getSchema());
      OptionalInt parallelism = options.sinkParallelism();
      if (parallelism.isPresent() && parallelism.getAsInt() <= 0) {
        throw new IllegalArgumentException(
            "Option '"
                + TableOptions.SINK_PARALLELISM
                + "' must be a positive integer, got "
                + parallelism.getAsInt());
      }
      if (options.autoCompaction() && input.isBounded() == PCollection.IsBounded.BOUNDED) {
        LOG.info(
            "Table `{}`: '{}' applies to unbounded input; a bounded write already writes one file"
                + " per partition and writer (use `filetables compact` to merge existing files)",
            table.name(),
            TableOptions.AUTO_COMPACTION);
      }
      FileFormat format = FileFormats.of(options); // fails here, not on a worker, for a bad format
      checkWritableCharset(options);
      PartFiles files =
          new PartFiles(
              options.rootPath(),
              getWriteUuid() != null ? getWriteUuid() : UUID.randomUUID().toString(),
              format.extension());

      PCollection<Row> rows = input;
      Optional<PartitionDeriver> deriver = PartitionDeriver.forTable(table); // checks settings now
      if (deriver.isPresent()) {
        rows =
            rows.apply("DerivePartitions", ParDo.of(new DerivePartitionsFn(deriver.get())))
                .setRowSchema(input.getSchema());
      }
      PCollection<WrittenFile> published;
      @Nullable PCollection<WrittenFile> closed = null;
      if (input.isBounded() == PCollection.IsBounded.UNBOUNDED) {
        PCollectionTuple written =
            rows.apply("StreamingWrite", new StreamingWrite(table, files, getBufferSize()));
        published = written.get(StreamingWrite.PUBLISHED);
        closed = written.get(StreamingWrite.CLOSED);
      } else {
        if (!(input.getWindowingStrategy().getWindowFn() instanceof GlobalWindows)) {
          // files are per partition, not per window; the publisher needs one global group
          rows = rows.apply("GlobalWindow", Window.into(new GlobalWindows()));
        }
        published =
            rows.apply("WriteFiles", new WriteRows(table, files))
                .setCoder(WrittenFileCoder.of())
                .apply("Publish", new PublishFiles(files));
      }
      if (PartitionCommit.isConfigured(table)) {
        // Commit only sees published (visible) files and also waits for this write's hidden files.
        PartitionCommit commit = PartitionCommit.of(table).withWriteUuid(files.writeUuid());
        long commitInterval = StreamingWrite.commitInterval(input.getPipeline().getOptions());
        if (input.isBounded() == PCollection.IsBounded.UNBOUNDED && commitInterval > 0) {
          // the last files of a finite stream are published when the final checkpoint completes,
          // up to one interval after the end of the input
          commit = commit.withCommitInterval(org.joda.time.Duration.millis(commitInterval));
        }
        if (input.isBounded() == PCollection.IsBounded.BOUNDED) {
          // no late data can follow the end of a bounded input: nothing to remember after a commit
          commit = commit.withStateRetention(org.joda.time.Duration.millis(1));
        }
        PCollection<WrittenFile> toCommit = published;
        if (closed != null) {
          // The commit also gets the closed hidden files: announcements that reach it before the
          // end of the input, when their published selves may come too late (see
          // PartitionCommitFn).
          toCommit =
              PCollectionList.of(published)
                  .and(closed)
                  .apply("PublishedAndAnnounced", Flatten.pCollections())
                  .setCoder(WrittenFileCoder.of());
        }
        toCommit.apply("CommitPartitions", commit);
      }
      return published;
    }

    /** {@code <format>.charset} is for reading files others wrote; this sink writes UTF-8 only. */
    private static void checkWritableCharset(TableOptions options) {
      String charset = options.formatOptions().get("charset");
      if (charset != null
          && !java.nio.charset.Charset.forName(charset.trim())
              .equals(java.nio.charset.StandardCharsets.UTF_8)) {
        throw new IllegalArgumentException(
            "Option '"
                + options.format()
                + ".charset' = '"
                + charset
                + "' applies to reading only;"
                + " FileTableIO.write writes "
                + options.format()
                + " as UTF-8: remove the option from"
                + " the sink table (or set it to UTF-8)");
      }
    }

    @Override
    public void populateDisplayData(DisplayData.Builder builder) {
      super.populateDisplayData(builder);
      TableOptions options = getTable().options();
      builder
          .add(DisplayData.item("table", getTable().name()).withLabel("Table"))
          .add(DisplayData.item("path", options.path()).withLabel("Table path"))
          .add(DisplayData.item("format", options.format()).withLabel("Format"))
          .add(
              DisplayData.item("partitionKeys", String.join(", ", getTable().partitionKeys()))
                  .withLabel("Partition keys"))
          .add(
              DisplayData.item("rollingFileSize", options.rollingFileSize())
                  .withLabel("Rolling file size (bytes)"))
          .add(
              DisplayData.item("shuffleByPartition", options.shuffleByPartition())
                  .withLabel("Shuffle by partition"))
          .add(
              DisplayData.item("bufferSize", getBufferSize())
                  .withLabel("Rows buffered in state per open file, unbounded input (bytes)"));
      if (options.sinkParallelism().isPresent()) {
        builder.add(
            DisplayData.item("sinkParallelism", options.sinkParallelism().getAsInt())
                .withLabel("Sink parallelism"));
      }
    }
  }

  /** See {@link FileTableIO}. */
  @AutoValue
  public abstract static class Read extends PTransform<PBegin, PCollection<Row>> {
    private static final long serialVersionUID = 1L;

    public abstract TableSpec getTable();

    public abstract @Nullable String getPartitionFilterSql();

    public abstract @Nullable PartitionFilter getPartitionFilter();

    public abstract long getTargetSplitSize();

    public abstract int getWatchShards();

    abstract Builder toBuilder();

    @AutoValue.Builder
    abstract static class Builder {
      abstract Builder setTable(TableSpec table);

      abstract Builder setWatchShards(int shards);

      abstract Builder setPartitionFilterSql(@Nullable String sql);

      abstract Builder setPartitionFilter(@Nullable PartitionFilter filter);

      abstract Builder setTargetSplitSize(long bytes);

      abstract Read build();
    }

    /**
     * Reads only partitions matching a SQL condition on partition columns, e.g. {@code dt =
     * '2020-05-20' AND hour IN ('11', '12')}. Parsed (and checked) when the pipeline is built;
     * non-matching directories are never listed.
     */
    public Read withPartitionFilter(String sqlWhere) {
      checkArgumentNotNull(sqlWhere, "partition filter must not be null");
      return toBuilder().setPartitionFilterSql(sqlWhere).setPartitionFilter(null).build();
    }

    /** Reads only partitions accepted by {@code filter}. */
    public Read withPartitionFilter(PartitionFilter filter) {
      checkArgumentNotNull(filter, "partition filter must not be null");
      return toBuilder().setPartitionFilter(filter).setPartitionFilterSql(null).build();
    }

    /** Target size of the byte ranges files are split into for parallel reading (default 32 MB). */
    public Read withTargetSplitSize(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("target split size must be positive, got " + bytes);
      }
      return toBuilder().setTargetSplitSize(bytes).build();
    }

    /**
     * Watched tables only ({@code source.monitor-interval} > 0): the number of parallel watcher
     * shards, each reading the files whose path hashes to it (default 4). Each shard lists the
     * directory at every poll.
     */
    public Read withWatchShards(int shards) {
      if (shards <= 0) {
        throw new IllegalArgumentException("watch shards must be positive, got " + shards);
      }
      return toBuilder().setWatchShards(shards).build();
    }

    @Override
    public PCollection<Row> expand(PBegin input) {
      TableSpec table = getTable();
      TableOptions options = table.options();
      FileFormats.of(options); // fails here, not on a worker, for a bad format
      PartitionFilter filter = resolveFilter(table);
      Optional<TableSpec> deadLetterTable = DeadLetterTable.of(table);
      if (options.sourceMonitorInterval().isPresent()) {
        // unbounded: watch the directory and read each new file once (design: WatchedRead)
        return input.apply(
            "Watch",
            ReadWithDeadLetters.of(
                WatchedRead.of(table, filter, getWatchShards(), getTargetSplitSize()),
                deadLetterTable));
      }
      PCollection<DataFile> files =
          input
              .apply("Start", Impulse.create())
              .apply("ListFiles", ReadRanges.listFiles(table, filter))
              .setCoder(SerializableCoder.of(DataFile.class))
              .apply("SpreadFiles", Reshuffle.viaRandomKey());
      PCollection<FileRange> ranges =
          files
              .apply("SplitFiles", ReadRanges.splitFiles(options, getTargetSplitSize()))
              .setCoder(SerializableCoder.of(FileRange.class))
              .apply("SpreadRanges", Reshuffle.viaRandomKey());
      return ranges
          .apply("ReadRanges", ReadWithDeadLetters.of(ReadRanges.readRows(table), deadLetterTable))
          .setRowSchema(table.schema());
    }

    private PartitionFilter resolveFilter(TableSpec table) {
      if (getPartitionFilterSql() != null) {
        return PartitionFilter.parse(
            getPartitionFilterSql(), table.schema(), table.partitionKeys());
      }
      return getPartitionFilter() != null ? getPartitionFilter() : PartitionFilter.all();
    }

    @Override
    public void populateDisplayData(DisplayData.Builder builder) {
      super.populateDisplayData(builder);
      TableOptions options = getTable().options();
      builder
          .add(DisplayData.item("table", getTable().name()).withLabel("Table"))
          .add(DisplayData.item("path", options.path()).withLabel("Table path"))
          .add(DisplayData.item("format", options.format()).withLabel("Format"))
          .add(
              DisplayData.item("partitionKeys", String.join(", ", getTable().partitionKeys()))
                  .withLabel("Partition keys"))
          .add(
              DisplayData.item("targetSplitSize", getTargetSplitSize())
                  .withLabel("Target split size (bytes)"))
          .add(
              DisplayData.item("badRecords", options.badRecordPolicy().optionValue())
                  .withLabel("Bad records"));
      options
          .deadLetterPath()
          .ifPresent(
              p ->
                  builder.add(
                      DisplayData.item("deadLetterPath", p.toString())
                          .withLabel("Dead-letter table")));
      if (getPartitionFilterSql() != null) {
        builder.add(
            DisplayData.item("partitionFilter", getPartitionFilterSql())
                .withLabel("Partition filter"));
      } else if (getPartitionFilter() != null) {
        builder.add(
            DisplayData.item("partitionFilter", getPartitionFilter().toString())
                .withLabel("Partition filter"));
      }
      options
          .sourcePathRegexPattern()
          .ifPresent(
              regex -> builder.add(DisplayData.item("pathRegex", regex).withLabel("Path regex")));
    }
  }
}
