package dev.filetables.transforms.source.watch;

import dev.filetables.io.format.FileFormats;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.source.DeadLetterTable;
import dev.filetables.transforms.source.ReadResult;
import dev.filetables.transforms.source.ReadSteps;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.transforms.Impulse;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * The unbounded read of a table with {@code source.monitor-interval} > 0: watches the table
 * directory and reads every new file once, rows with event timestamps and a watermark.
 *
 * <h2>Design</h2>
 *
 * <p>One splittable DoFn ({@link WatchAndReadFn}) watches and reads; its initial restriction is cut
 * into {@code shards} restrictions, and a file belongs to the shard its path hashes to. The table
 * is listed at the monitor interval, once per worker process for the shards running there ({@code
 * SharedListings}; a shard's cursor is the start of the listing it used), level by level like the
 * bounded read (so partition directories created at any depth after the start are found; hidden
 * {@code .}/{@code _} names, {@code *.inprogress} files and files outside {@code
 * source.path.regex-pattern} are skipped; a file is only seen once it has its final name, i.e.
 * after its atomic rename), then reads its new files range by range ({@code FileFormat.split}: byte
 * ranges synced to line starts for CSV/JSON, row groups for Parquet), each row claimed in the
 * restriction before it is emitted. A helper thread parses the head range ahead ({@code
 * ReadAhead}); only claimed rows count, so this changes no position. It matters for throughput
 * because shards, not ranges, are spread over the workers, and at random (Beam keys each
 * restriction with random bytes): with a few large files one worker often gets most of them, and
 * parsing ahead lets it use a second core, as the bounded read's separate read and downstream tasks
 * do.
 *
 * <p><b>Dirty data.</b> Ranges are read through {@code FileRangeReader}: {@code source.bad-records}
 * = {@code fail} fails the job naming file, position and the option; {@code skip} counts and logs;
 * {@code dead-letter} also outputs {@link DeadLetterTable} rows ({@link ReadResult#deadLetters}),
 * which the caller writes. Bad records are claimed in the restriction like rows, so a resume
 * neither repeats nor loses them. A file deleted after it was listed is a warning, whatever the
 * policy.
 *
 * <p><b>Bounded state.</b> A shard remembers a modification-time cursor (the start of its last
 * listing), the files taken in whose modification time lies within {@code source.monitor.lateness}
 * before the cursor (a 64-bit path hash and a time each, ~10 bytes), and at most {@code
 * maxPendingFiles} files taken in but not read yet (more new files wait in the directory; the
 * cursor stops at the first of them). A file modified before {@code cursor - lateness} is never
 * taken in: the lateness must cover the delay between a file's last write and its rename into place
 * (the rename keeps the older modification time) plus one monitor interval. Listing cost can be cut
 * with {@code source.monitor.skip-committed-partitions}: a partition whose success file is older
 * than the window is not listed at all.
 *
 * <p><b>Watermark.</b> With {@code WATERMARK FOR col AS col - INTERVAL d}, rows carry {@code col}
 * as timestamp and a shard's watermark is the largest event time it emitted minus {@code d}.
 * Without it, rows carry their file's time (partition time with a configured time extractor, else
 * modification time) and the watermark is the oldest pending file time, bounded by the listing
 * horizon (window start, or the newest partition time listed). The pipeline's watermark is the
 * minimum over shards. A shard with nothing pending and no new file for {@code source.idle-timeout}
 * lets its watermark follow processing time minus the timeout, so an idle directory (or a shard
 * that few files hash to) does not hold back downstream partition commits forever.
 *
 * <p><b>Exactly once.</b> The restriction is the truth: a checkpoint takes it whole (files taken
 * in, rows emitted of the current range), so a restore from a checkpoint or savepoint neither
 * re-reads nor skips. The SDF path keeps its restrictions in keyed state on the Flink runner, so
 * the re-read of restored unbounded-source splits (apache/beam#31313) does not apply.
 *
 * <p><b>Watermark on Flink (Beam 2.62).</b> The Flink runner emits an operator's watermark only
 * when no bundle is open, and a polling watcher keeps its bundle open (each resume timer starts one
 * before the previous closed), so its watermark reaches downstream only with {@code
 * --finishBundleBeforeCheckpointing=true}: each checkpoint then closes the bundle and emits the
 * watermark (WatchedSourceWatermarkFlinkTest). The {@code Impulse} is not the cause: on Flink it
 * emits the maximum watermark after its element. Without the option use {@code process-time}
 * commits on Flink.
 */
@Internal
public final class WatchedRead implements ReadSteps<PBegin> {
  private static final long serialVersionUID = 1L;

  /** Default number of shards (parallel watcher restrictions). */
  public static final int DEFAULT_SHARDS = 4;

  /** Default bound on the files a shard has taken in but not read yet. */
  public static final int DEFAULT_MAX_PENDING_FILES = 1000;

  private final WatchSettings settings;

  private WatchedRead(WatchSettings settings) {
    this.settings = settings;
  }

  /** Watches {@code table} (which must set {@code source.monitor-interval} > 0). */
  public static WatchedRead of(
      TableSpec table, PartitionFilter filter, int shards, long targetSplitSize) {
    if (table.options().sourceMonitorInterval().isEmpty()) {
      throw new IllegalArgumentException(
          "Table `" + table.name() + "` is not watched: set 'source.monitor-interval' > 0");
    }
    if (shards <= 0) {
      throw new IllegalArgumentException("watch shards must be positive, got " + shards);
    }
    FileFormats.of(table.options()); // fails now for a bad format
    return new WatchedRead(
        WatchSettings.of(table, filter, shards, targetSplitSize, DEFAULT_MAX_PENDING_FILES));
  }

  @Override
  public ReadResult applyTo(PBegin input) {
    TableSpec table = settings.table();
    PCollectionTuple read =
        input
            .apply("Start", Impulse.create())
            .apply(
                "WatchAndRead",
                ParDo.of(new WatchAndReadFn(settings))
                    .withOutputTags(
                        WatchAndReadFn.ROWS, TupleTagList.of(WatchAndReadFn.DEAD_LETTERS)));
    return ReadResult.of(
        read.get(WatchAndReadFn.ROWS).setRowSchema(table.schema()),
        read.get(WatchAndReadFn.DEAD_LETTERS).setRowSchema(DeadLetterTable.SCHEMA));
  }
}
