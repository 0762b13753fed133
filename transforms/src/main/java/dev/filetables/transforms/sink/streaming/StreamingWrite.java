package dev.filetables.transforms.sink.streaming;

import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.runner.CheckpointClock;
import dev.filetables.transforms.runner.SinkRunnerOptions;
import dev.filetables.transforms.runner.TimerHolds;
import dev.filetables.transforms.sink.PartFiles;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import dev.filetables.transforms.sink.publish.AutoCompaction;
import dev.filetables.transforms.sink.publish.DurablePublish;
import dev.filetables.transforms.sink.segment.SegmentCombiner;
import dev.filetables.transforms.sink.segment.SegmentFiles;
import dev.filetables.transforms.sink.segment.SegmentKind;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/**
 * The streaming partitioned sink: writes an unbounded (or bounded) {@code PCollection<Row>} into
 * rolling part files and publishes each file only at a commit point. Outputs the published files
 * ({@link #PUBLISHED}) and the closed hidden files they come from ({@link #CLOSED}, for the
 * commit).
 *
 * <pre>
 * rows ─► AssignWriters ─► RollingWriter (stateful, per partition × writer) ─► Publish (stateful, per partition)
 *         key + project,     segment per bundle on disk, rolls, emits hidden file  after its checkpoint: rename,
 *         batch per key                                                           drop segments
 * </pre>
 *
 * Rows travel to the writer in {@link RowBatch batches} per key, encoded as the writer's spill
 * segments store them, so the per-element costs of the keyed shuffle (key encoding, network record,
 * state and timer binding) are paid per batch; see {@link AssignWritersFn} for when batches are
 * output and why Flink needs {@code --finishBundleBeforeCheckpointing=true} for them ({@link
 * #batching}).
 *
 * <h2>Exactly-once without trusting DoFn memory</h2>
 *
 * Rows never live in Beam state; the state of a {@link WriterKey} (partition, writer) only names
 * files: the open file's name, times and counts and how many <em>segments</em> it has ({@link
 * OpenFile}). Each bundle writes the rows a key gets to disk directly, as that key's next hidden
 * segment {@code .part-<uuid>-<writer>-<counter><ext>.seg-<n>.inprogress}: at the key's first row
 * of the bundle the writer begins segment n = the count in state and stores n + 1 right away;
 * {@code @FinishBundle} completes every segment of the bundle. While the file is open, its segment
 * files are combined now and then into fewer ({@link SegmentCombiner}: at most 16 per open file;
 * the replaced ones are deleted once a completed checkpoint no longer needs them, see {@link
 * BundleSegments}). When the file rolls, its segments are merged into the hidden part file ({@link
 * SegmentFiles#merge}: byte concatenation for csv/json, block copy for Avro, and for Parquet either
 * one encoding of spilled rows or row-group copy, {@code sink.parquet.merge}; for ORC one encoding
 * of spilled rows). State and timers of the key are then cleared.
 *
 * <p>A segment counted in committed state is always complete on disk: the Flink runner finishes the
 * open bundle inside its {@code snapshotState}, before it snapshots the keyed state (Beam 2.62
 * {@code DoFnOperator}; with {@code --finishBundleBeforeCheckpointing=true} even earlier, before
 * the barrier), and the Direct runner commits a bundle's state after {@code @FinishBundle}. After a
 * failure, the runner restores the state of the last completed checkpoint and replays the input
 * that came after it. The restored count says which segment comes next, so the replay rewrites
 * segment n (and the merged file) under the same names, replacing what the failed attempt wrote;
 * segments the failed attempt wrote beyond the count are never merged and are deleted with the
 * file's other segments when it is published. Nothing the failed attempt did is trusted, and
 * nothing it wrote is visible.
 *
 * <h2>Visibility only at commit points</h2>
 *
 * A closed file is handed to {@link DurablePublish}, a stateful step keyed by partition that keeps
 * the file's name, size and counts in state with the {@code CheckpointMarks} mark of the bundle it
 * arrived in, and renames it to its visible name {@code part-<uuid>-<writer>-<counter><ext>} (and
 * deletes its segments, also those a failed attempt wrote beyond the recorded count) once that mark
 * is durable: the bundle finalizer of that bundle ran, i.e. the checkpoint taken after the file's
 * arrival completed ({@code --checkpointingInterval} is the commit interval). With aligned
 * (exactly-once) checkpoints that checkpoint also holds the writer state in which the file is
 * closed: no restore can put the file's rows back into an open file, so the rename never exposes
 * rows that are written again later. A processing-time timer polls for durability several times per
 * checkpoint interval; files in restored state are durable at once. Both steps are idempotent, as a
 * restore may hand the same file over again. On the Direct runner a bundle's output and state
 * changes are committed together and never restored, so a file is published when it arrives.
 *
 * <p>Not a {@code @RequiresStableInput} step: after a restore, Beam 2.62's Flink runner reuses the
 * restored stable-input buffer for elements that arrive after the first new checkpoint and releases
 * them when that checkpoint completes, before any checkpoint contains them ({@code
 * StableInputEarlyReleaseWitnessTest}). A second failure right then restored the writer to before
 * such a file was closed, after it was published (seen as a restore failing for good on segments
 * already merged and deleted, with {@code --finishBundleBeforeCheckpointing}). The publish step is
 * the compaction step's grouping with every file its own group ({@code sink.publish.GroupFilesFn}
 * has the full argument).
 *
 * <p>The last files of an input that ends (finite source, drain) that no checkpoint covers yet are
 * published when the job's final checkpoint completes, from an intent file the end of the input
 * writes (see {@code FinalCheckpointPublisher}); what that callback leaves undone, the post-job
 * publish finishes ({@code FileTableMaintenance.publishLeftovers}).
 *
 * <h2>Leftovers of failed attempts</h2>
 *
 * A failed attempt may have opened files after the checkpoint it is rolled back to; the restored
 * state does not know them and they will never be published. They stay hidden (no reader reads
 * them), but a partition commit would wait for them, so the writer deletes them: part file counters
 * only grow per writer key, and the key keeps the counter of its latest file ({@code lastCounter})
 * until all its files are published, so every hidden file of the key with a higher counter is a
 * leftover. Rows are assigned to writers by a function of the row, so the replayed rows reach the
 * same key, which deletes leftovers when it opens or closes a file, and once more before it forgets
 * its counter ({@link LeftoverFiles}). Files of other writes (other uuids) are never touched.
 *
 * <h2>Rolling, per partition and writer</h2>
 *
 * Each key has at most one open file, rolled by {@link RollingPolicy} for every format: at {@code
 * sink.rolling-policy.file-size} (the real bytes of its segments; spilled rows scaled by the
 * part-file-to-spill ratio learnt from earlier rolls), after {@code rollover-interval} open, or
 * after {@code inactivity-interval} without rows, on the grid of {@code check-interval}. Files are
 * not rolled at every commit point, only when the policy says so, so Parquet and Avro files are as
 * big as the policy allows. A file with no rows is never opened. At the end of the input (bounded
 * input, drain), an event-time timer at the end of the global window closes every open file.
 *
 * <h2>Latency</h2>
 *
 * A closed file becomes visible at the first completed checkpoint after its close. On Flink the
 * writer times its rolls to checkpoints when the checkpoint interval is at most twice the rollover
 * and inactivity intervals, in two ways:
 *
 * <ul>
 *   <li><b>Roll at the commit point</b> (with {@code --finishBundleBeforeCheckpointing=true}): a
 *       bundle ends at every checkpoint, before its barrier is sent on. A file that gets a row when
 *       its deadline is less than one commit interval away is marked in state ({@link
 *       OpenFile#closesAtBundleEnd}) and closed by {@code @FinishBundle}; the file reaches the
 *       publisher inside that checkpoint and becomes visible when it completes, as with Flink's
 *       roll on checkpoint. {@code @FinishBundle} cannot touch state: the mark itself says the file
 *       is closed. Committed state with the mark was snapshotted after the bundle that set it
 *       ended, hence after the file was merged and emitted into the same checkpoint; the key's next
 *       element or timer clears it and releases its watermark hold. A failure before the snapshot
 *       restores older state without the mark, and the replay rewrites the same segments and file
 *       names. With rollover at the commit interval every file closes at the first checkpoint after
 *       its first row: a row waits at most a commit interval plus the checkpoint's own duration.
 *   <li><b>Predicted checkpoints</b> (files without rows near their deadline: inactivity, or
 *       without the option): the writer learns when checkpoints happen (a bundle finalizer runs
 *       when a checkpoint completes, {@link CheckpointClock}) and moves each time-based roll to
 *       shortly before the checkpoint nearest to its deadline ({@link RollingPolicy#nextAligned}),
 *       so that checkpoint publishes it. A wrong guess (the first checkpoints, a changed schedule)
 *       costs latency, never correctness.
 * </ul>
 *
 * Otherwise rolls follow check-interval, and a closed file waits for the next checkpoint.
 *
 * <h2>Watermark</h2>
 *
 * While a file is open its timers hold the writer's output watermark at the smallest event
 * timestamp of its rows; the file is emitted at that timestamp (or at the timestamp of the row that
 * filled it) and the hold is released ({@link TimerHolds}: {@code Timer.clear()} alone keeps it on
 * Beam 2.62's Flink runner). The publish step holds its output watermark the same way while files
 * wait for their checkpoint, so a downstream partition-time commit cannot pass rows still in an
 * open or hidden file. (A {@code @RequiresStableInput} step would not: the Flink runner may drop
 * holds of stable-input buffers, Beam issue #39991; the commit step still checks which files it has
 * seen.) Idle partitions close by inactivity, so no partition holds the watermark forever.
 *
 * <h2>Compaction</h2>
 *
 * With {@code auto-compaction = true} the closed files do not go to {@link DurablePublish} but to
 * {@link AutoCompaction}: grouped per partition (names and sizes in keyed state) until they reach
 * {@code compaction.file-size}, wait {@code compaction.max-delay} or the input ends, then merged
 * into one hidden file named after its inputs and published by the grouping step itself once a
 * completed checkpoint covers the group's files, the same way as above; the inputs are deleted
 * after. Files of several commit points may be merged.
 *
 * <h2>Writers and distribution</h2>
 *
 * {@code sink.parallelism} = N writers. With {@code sink.shuffle-by-partition.enable}, a
 * partition's rows go to writer hash(partition) mod N (or to writer 0 of the partition when N is
 * unset: one writer per partition); otherwise rows are spread over the N writers by a hash of the
 * row's values. Unset N defaults to the runner's parallelism ({@link
 * SinkRunnerOptions#defaultWriters}).
 *
 * <h2>Memory and state</h2>
 *
 * No rows in state: per key a few numbers, so checkpoints stay small whatever the data rate. In
 * memory, per key with rows in the open bundle, one segment writer: a 64 KB stream buffer, or for
 * Parquet segments ({@code sink.parquet.merge = row-group-copy}) the pages of one row group,
 * bounded by the segment size ({@code FileTableIO.Write#withBufferSize}, default {@link
 * #DEFAULT_BUFFER_SIZE}). Writers are closed at the end of every bundle. State of a key is cleared
 * when its file closes, except its last counter, which a processing-time timer drops about a minute
 * later once none of the key's files is still hidden; so closed and idle partitions keep nothing
 * (Flink never garbage-collects global-window state by itself). Part file counters are wall-clock
 * milliseconds at opening, kept increasing per key by that counter.
 *
 * <h2>Runner requirements</h2>
 *
 * Flink needs {@code --checkpointingInterval} and {@code --checkpointingMode=EXACTLY_ONCE} (the
 * default), both checked when the pipeline is built: without checkpoints no file would ever become
 * visible, and only aligned checkpoints guarantee that the checkpoint after a file's arrival at the
 * publish step holds the writer's close of it. The sink has no {@code @RequiresStableInput} step,
 * so a job whose input ends finishes without {@code --enableStableInputDrain}.
 *
 * <p>Bundles set how many segments a file has: one per bundle in which its key got rows. Flink's
 * defaults end a bundle every 1000 elements or 1 s; {@code --maxBundleSize=1000000
 * --maxBundleTimeMills=10000} (the {@code flink-local} preset) lets bundles end at checkpoints
 * instead (a bundle always ends at a checkpoint). Processing-time timers (rolls) fire inside open
 * bundles and output leaves at once, so visibility is not delayed; the Flink runner emits
 * watermarks only between bundles, so event-time progress downstream (partition-time commits) can
 * lag by up to the bundle time. The sink logs a warning when the bundle options make segments tiny.
 */
@Internal
public final class StreamingWrite extends PTransform<PCollection<Row>, PCollectionTuple> {
  private static final long serialVersionUID = 1L;

  /**
   * The commit interval of the streaming sink: Flink's checkpointing interval in ms, 0 on runners
   * that never restore (Direct), where files are published at once.
   */
  public static long commitInterval(org.apache.beam.sdk.options.PipelineOptions options) {
    return SinkRunnerOptions.isFlink(options)
        ? SinkRunnerOptions.flinkCheckpointingInterval(options)
        : 0;
  }

  /** The published (visible) files: what the sink outputs. */
  public static final TupleTag<WrittenFile> PUBLISHED = new TupleTag<WrittenFile>("published") {};

  /**
   * The closed files under their hidden names, as the writers emit them, before the commit point
   * publishes them (or compaction merges them): a partition commit learns from them, before the end
   * of the input, of partitions whose files become visible only after it.
   */
  public static final TupleTag<WrittenFile> CLOSED = new TupleTag<WrittenFile>("closed") {};

  /** Default bytes at which an open segment is completed even within a bundle. */
  public static final long DEFAULT_BUFFER_SIZE = 16L * 1024 * 1024;

  private final TableSpec table;
  private final PartFiles files;
  private final long bufferSize;

  public StreamingWrite(TableSpec table, PartFiles files, long bufferSize) {
    if (bufferSize <= 0) {
      throw new IllegalArgumentException("buffer size must be positive, got " + bufferSize);
    }
    this.table = table;
    this.files = files;
    this.bufferSize = bufferSize;
  }

  @Override
  public PCollectionTuple expand(PCollection<Row> input) {
    PipelineOptions options = input.getPipeline().getOptions();
    checkRunner(options);
    TableOptions tableOptions = table.options();
    OptionalInt parallelism = tableOptions.sinkParallelism();
    boolean byPartition = tableOptions.shuffleByPartition();
    int writers =
        parallelism.isPresent()
            ? parallelism.getAsInt()
            : byPartition ? 0 : SinkRunnerOptions.defaultWriters(options);
    RollingPolicy policy = RollingPolicy.of(tableOptions, bufferSize);
    // on Flink, time-based rolls are timed just before checkpoints (commit points)
    long commitInterval =
        SinkRunnerOptions.isFlink(options)
            ? SinkRunnerOptions.flinkCheckpointingInterval(options)
            : 0;

    PCollection<Row> rows = input;
    if (!(input.getWindowingStrategy().getWindowFn() instanceof GlobalWindows)) {
      // files belong to partitions, not windows: one open file per key across all windows
      rows = input.apply("GlobalWindow", Window.into(new GlobalWindows()));
    }
    PCollection<WrittenFile> closed =
        rows.apply(
                "AssignWriters",
                ParDo.of(
                    new AssignWritersFn(
                        table, input.getSchema(), byPartition, writers, batching(options))))
            .setCoder(KvCoder.of(WriterKeyCoder.of(), RowBatch.BatchCoder.of()))
            .apply(
                "RollingWriter",
                ParDo.of(
                    new RollingWriterFn(
                        table,
                        files,
                        policy,
                        segmentKind(),
                        commitInterval,
                        SegmentCombiner.fromSystemProperty(),
                        SinkRunnerOptions.isFlink(options))))
            .setCoder(WrittenFileCoder.of());
    if (tableOptions.autoCompaction()) {
      // closed files stay hidden until merged; the compaction stage is the commit point then
      return PCollectionTuple.of(
              PUBLISHED,
              closed.apply("Compact", new AutoCompaction(table, files.writeUuid(), commitInterval)))
          .and(CLOSED, closed);
    }
    PCollection<WrittenFile> published =
        closed.apply("Publish", new DurablePublish(files.writeUuid(), commitInterval));
    return PCollectionTuple.of(PUBLISHED, published).and(CLOSED, closed);
  }

  /**
   * Whether rows cross the writer's shuffle in batches ({@link AssignWritersFn}): not on Flink
   * without {@code --finishBundleBeforeCheckpointing=true}, where a bundle's output at a checkpoint
   * waits for the next input row.
   */
  static boolean batching(PipelineOptions options) {
    return !SinkRunnerOptions.isFlink(options)
        || SinkRunnerOptions.flinkFinishBundleBeforeCheckpointing(options);
  }

  /** Elements per bundle below which the sink's segments are called tiny. */
  static final long SMALL_BUNDLE_SIZE = 100_000;

  /** Bundle time below which bundles are called short (when checkpoints are further apart). */
  static final long SHORT_BUNDLE_MILLIS = 10_000;

  /**
   * A warning when Flink's bundle options make the sink's segments (one per bundle and open file)
   * tiny: Flink's defaults end a bundle every 1000 elements or 1 s, not at checkpoints. Called by
   * the writer at run time: the defaults of these options depend on {@code --streaming}, which the
   * runner sets only after the pipeline is built, and reading an option fixes its default.
   */
  static Optional<String> smallBundleWarning(String table, PipelineOptions options) {
    if (!SinkRunnerOptions.isFlink(options)) {
      return Optional.empty();
    }
    long size = SinkRunnerOptions.flinkMaxBundleSize(options).orElse(Long.MAX_VALUE);
    long millis = SinkRunnerOptions.flinkMaxBundleTimeMills(options).orElse(Long.MAX_VALUE);
    long checkpoints = SinkRunnerOptions.flinkCheckpointingInterval(options);
    if (size >= SMALL_BUNDLE_SIZE && millis >= Math.min(checkpoints, SHORT_BUNDLE_MILLIS)) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "FileTableIO.write(`%s`): Flink bundles end after --maxBundleSize=%d elements or"
                + " --maxBundleTimeMills=%d ms; the streaming sink writes one segment file per bundle"
                + " and open part file, so these small bundles make many tiny segments (more files"
                + " to merge and, for Parquet, small row groups). Set --maxBundleSize=1000000 and"
                + " --maxBundleTimeMills=%d (at least the checkpointing interval, up to %d ms), as"
                + " the flink-local preset does; a bundle also ends at every checkpoint.",
            table, size, millis, Math.max(checkpoints, SHORT_BUNDLE_MILLIS), SHORT_BUNDLE_MILLIS));
  }

  /**
   * Spill segments for Parquet unless {@code sink.parquet.merge = row-group-copy}: measured on the
   * throughput benchmark they cost less CPU than a Parquet writer per bundle and give part files of
   * full row groups instead of one row group per bundle. Spill segments for ORC always, for the
   * same reason: an ORC writer per bundle would make a stripe per bundle (and an ORC writer buffers
   * a stripe's columns, costly per segment). Row formats and Avro merge cheaply as they are.
   */
  SegmentKind segmentKind() {
    TableOptions options = table.options();
    String format = options.format().toLowerCase(java.util.Locale.ROOT);
    boolean spill =
        format.equals("orc")
            || format.equals("parquet") && options.parquetMerge().equals("rewrite");
    return spill ? SegmentKind.SPILL : SegmentKind.FORMAT;
  }

  private void checkRunner(PipelineOptions options) {
    if (!SinkRunnerOptions.isFlink(options)) {
      return;
    }
    if (SinkRunnerOptions.flinkCheckpointingInterval(options) <= 0) {
      throw new IllegalArgumentException(
          "FileTableIO.write(`"
              + table.name()
              + "`) on an unbounded input needs checkpointing on the Flink runner: set"
              + " --checkpointingInterval=<ms>. Files become visible when a checkpoint completes,"
              + " so the interval is the commit interval (e.g. --checkpointingInterval=10000).");
    }
    if (!"EXACTLY_ONCE".equalsIgnoreCase(SinkRunnerOptions.flinkCheckpointingMode(options))) {
      // the publish (or compaction) step makes a file visible once a completed checkpoint holds the
      // writer's close of it, which only aligned exactly-once checkpoints guarantee
      throw new IllegalArgumentException(
          "FileTableIO.write(`"
              + table.name()
              + "`) needs --checkpointingMode=EXACTLY_ONCE (the default) on the Flink runner, got "
              + SinkRunnerOptions.flinkCheckpointingMode(options));
    }
  }
}
