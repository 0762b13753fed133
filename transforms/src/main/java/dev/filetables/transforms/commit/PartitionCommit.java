package dev.filetables.transforms.commit;

import static org.apache.beam.sdk.util.Preconditions.checkArgumentNotNull;

import com.google.auto.value.AutoValue;
import dev.filetables.io.commit.PartitionCommitPolicies;
import dev.filetables.io.partition.time.PartitionTimeExtractors;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.sink.WrittenFile;
import dev.filetables.transforms.sink.WrittenFileCoder;
import java.time.ZoneId;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the partitions of a file table as their files become visible: Flink's partition commit
 * ({@code sink.partition-commit.*}) for Beam pipelines.
 *
 * <p>Input: the <em>published</em> (visible) files of a write, as the streaming sink outputs them,
 * with element timestamps at or before the rows' event times; it may also hold
 * <em>announcements</em>, files under their hidden in-progress names ({@code
 * StreamingWrite.CLOSED}, as {@code FileTableIO.write} flattens them in), which only make a
 * partition known before its files are visible so that it is committed at the end of the input even
 * if they become visible after it. Output: one {@link CommittedPartition} per commit. Each
 * partition is committed once its trigger says it is complete — {@code partition-time}: the
 * watermark is past {@code partition time + delay}; {@code process-time}: {@code delay} after its
 * first file — and no in-progress file of the write is left in its directory; the policies ({@code
 * success-file}, {@code custom}) then run in their listed order. Late files re-open a committed
 * partition, which is committed again; at the end of the input every pending partition is committed
 * (one whose last files are published only after the final watermark, as on Flink, once they are
 * visible: that commit is logged but not in the output, as nothing can be output after the end of
 * the input). See {@link PartitionCommitFn} for the details and {@link CommitMetrics} for the
 * metrics.
 *
 * <pre>{@code
 * PCollection<WrittenFile> published = ...;   // visible files of the sink
 * published.apply("CommitPartitions", PartitionCommit.of(table).withWriteUuid(writeUuid));
 * }</pre>
 */
@AutoValue
public abstract class PartitionCommit
    extends PTransform<PCollection<WrittenFile>, PCollection<CommittedPartition>> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(PartitionCommit.class);

  public static final Duration DEFAULT_STATE_RETENTION = Duration.standardDays(1);
  public static final Duration DEFAULT_OVERDUE_GRACE = Duration.standardMinutes(5);
  public static final Duration DEFAULT_END_OF_INPUT_WAIT = Duration.standardSeconds(30);

  public abstract TableSpec getTable();

  public abstract @Nullable String getWriteUuid();

  public abstract @Nullable ZoneId getSessionTimeZone();

  public abstract Duration getStateRetention();

  public abstract Duration getOverdueGrace();

  public abstract Duration getEndOfInputWait();

  public abstract Duration getCommitInterval();

  abstract Builder toBuilder();

  @AutoValue.Builder
  abstract static class Builder {
    abstract Builder setTable(TableSpec table);

    abstract Builder setWriteUuid(@Nullable String uuid);

    abstract Builder setSessionTimeZone(@Nullable ZoneId zone);

    abstract Builder setStateRetention(Duration retention);

    abstract Builder setOverdueGrace(Duration grace);

    abstract Builder setEndOfInputWait(Duration wait);

    abstract Builder setCommitInterval(Duration interval);

    abstract PartitionCommit build();
  }

  /** Commits the partitions of {@code table} per its {@code sink.partition-commit.*} options. */
  public static PartitionCommit of(TableSpec table) {
    checkArgumentNotNull(table, "table must not be null");
    return new AutoValue_PartitionCommit.Builder()
        .setTable(table)
        .setStateRetention(DEFAULT_STATE_RETENTION)
        .setOverdueGrace(DEFAULT_OVERDUE_GRACE)
        .setEndOfInputWait(DEFAULT_END_OF_INPUT_WAIT)
        .setCommitInterval(Duration.ZERO)
        .build();
  }

  /**
   * True when a sink for {@code table} should commit partitions: the table is partitioned and lists
   * commit policies (as in Flink, which adds its committer only then).
   */
  public static boolean isConfigured(TableSpec table) {
    return !table.partitionKeys().isEmpty() && !table.options().commitPolicyKinds().isEmpty();
  }

  /**
   * The uuid of the write whose in-progress files hold a commit back (the part file uuid). Without
   * it, the uuids of the partition's pending files are used, which misses a partition's file whose
   * siblings were not published yet; the sink should always pass its uuid.
   */
  public PartitionCommit withWriteUuid(String writeUuid) {
    checkArgumentNotNull(writeUuid, "write uuid must not be null");
    return toBuilder().setWriteUuid(writeUuid).build();
  }

  /**
   * The zone the pipeline renders local times in (default: the JVM's), only used to warn about the
   * 8-hour trap of TIMESTAMP_LTZ watermarks with a UTC {@code watermark-time-zone}.
   */
  public PartitionCommit withSessionTimeZone(ZoneId zone) {
    checkArgumentNotNull(zone, "zone must not be null");
    return toBuilder().setSessionTimeZone(zone).build();
  }

  /**
   * How long a committed partition is remembered (default 1 day): late data within it is counted as
   * late and re-commits are numbered; after it, a partition's state is dropped.
   */
  public PartitionCommit withStateRetention(Duration retention) {
    checkPositive(retention, "state retention");
    return toBuilder().setStateRetention(retention).build();
  }

  /** How long after its expected commit time a pending partition is reported (default 5 min). */
  public PartitionCommit withOverdueGrace(Duration grace) {
    checkPositive(grace, "overdue grace");
    return toBuilder().setOverdueGrace(grace).build();
  }

  /**
   * At the end of input, how long to wait for the hidden files (and end-of-input intents) of the
   * write in a partition to disappear (default 30 s; the streaming sink on Flink adds its
   * checkpoint interval: the last files are published when the job's final checkpoint completes).
   * If some are still there then, the partition is not committed (a WARN names it): the post-job
   * publish ({@code FileTableMaintenance.publishLeftovers}) publishes them and commits it.
   */
  public PartitionCommit withEndOfInputWait(Duration wait) {
    checkArgumentNotNull(wait, "wait must not be null");
    return toBuilder().setEndOfInputWait(wait).build();
  }

  /**
   * The streaming sink on Flink: its checkpoint interval (0: none, the default). The last files of
   * a finite stream are published when the job's final checkpoint completes, up to one interval
   * after the end of the input, so the end-of-input wait grows by it.
   */
  public PartitionCommit withCommitInterval(Duration interval) {
    checkArgumentNotNull(interval, "interval must not be null");
    return toBuilder().setCommitInterval(interval).build();
  }

  @Override
  public PCollection<CommittedPartition> expand(PCollection<WrittenFile> files) {
    TableSpec table = getTable();
    TableOptions options = table.options();
    if (table.partitionKeys().isEmpty()) {
      throw new IllegalArgumentException(
          "PartitionCommit(`"
              + table.name()
              + "`): the table has no partition keys; only partitioned"
              + " tables are committed (use PartitionCommit.isConfigured to decide)");
    }
    // Fail here, not on a worker: custom classes must load, the extractor must exist.
    PartitionCommitPolicies.fromOptions(options);
    PartitionTimeExtractors.fromOptions(options);
    ZoneId session = getSessionTimeZone() != null ? getSessionTimeZone() : ZoneId.systemDefault();
    TimeZoneCheck.eightHourTrap(table, session).ifPresent(LOG::warn);

    PCollection<WrittenFile> global = files;
    if (!(files.getWindowingStrategy().getWindowFn() instanceof GlobalWindows)) {
      // a partition spans windows; its state and end-of-input commit live in the global window
      global = files.apply("GlobalWindow", Window.into(new GlobalWindows()));
    }
    return global
        .apply(
            "ByPartition",
            WithKeys.of(WrittenFile::partitionPath).withKeyType(TypeDescriptors.strings()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), WrittenFileCoder.of()))
        .apply(
            "Commit",
            ParDo.of(
                new PartitionCommitFn(
                    table,
                    getWriteUuid(),
                    getStateRetention(),
                    getOverdueGrace(),
                    getEndOfInputWait().plus(getCommitInterval()))))
        .setCoder(CommittedPartitionCoder.of());
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    TableOptions options = getTable().options();
    builder
        .add(DisplayData.item("table", getTable().name()).withLabel("Table"))
        .add(DisplayData.item("trigger", options.commitTrigger()).withLabel("Commit trigger"))
        .add(DisplayData.item("delay", options.commitDelay().toString()).withLabel("Commit delay"))
        .add(
            DisplayData.item("watermarkTimeZone", options.watermarkTimeZone().getId())
                .withLabel("Watermark time zone"))
        .add(
            DisplayData.item("policies", String.join(", ", options.commitPolicyKinds()))
                .withLabel("Commit policies"));
  }

  private static void checkPositive(Duration duration, String what) {
    checkArgumentNotNull(duration, what + " must not be null");
    if (duration.getMillis() <= 0) {
      throw new IllegalArgumentException(what + " must be positive, was " + duration);
    }
  }
}
