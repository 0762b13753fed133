package dev.filetables.pipelines;

import dev.filetables.io.files.TablePaths;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.pipelines.orders.Orders;
import dev.filetables.pipelines.orders.OrdersSource;
import dev.filetables.transforms.FileTableIO;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.Validation;

/**
 * The streaming job a Flink cluster runs: synthetic orders from a replayable unbounded source
 * ({@link OrdersSource}) into a {@code dt}/{@code hour}-partitioned table with {@code
 * partition-time} commit and {@code _SUCCESS} files. A plain Beam main class, so it runs the way
 * Beam users run jobs: {@code flink run -c dev.filetables.pipelines.OrdersStreamJob <job jar>
 * --output=...}, or from {@code bin/filetables job orders-stream --preset=flink-cluster
 * --output=...}, or from any JVM with {@code --runner=FlinkRunner --flinkMaster=host:port} (the job
 * jar is staged by itself).
 *
 * <p>{@code --preset=<name>} loads {@code runner-configs/<name>.args} first (explicit options win).
 * Unless told otherwise it checkpoints every 10 s (exactly once) and, with {@code --rows}, finishes
 * after the last row. The synthetic event times stay within the first hour while rows flow, so with
 * {@code partition-time} partitions are due only at the end of the input, and are committed then
 * (once their last files, published at the job's final checkpoint, are visible). {@code
 * --commitTrigger=process-time} commits while the job runs.
 *
 * <p>Restore: submit the same command with {@code --savepointPath=<savepoint>}; the transform names
 * ({@value #READ_NAME}, {@value #WRITE_NAME}) are the operator uids Beam derives, keep them when
 * changing the job. With a savepoint path the source works around apache/beam#31313 (see {@link
 * OrdersSource#restoring}); that needs the same {@code --sourceId} and parallelism as the first
 * job.
 */
public final class OrdersStreamJob {
  static final String READ_NAME = "ReadOrders";
  static final String WRITE_NAME = "WriteOrders";
  static final long DEFAULT_CHECKPOINT_MILLIS = 10_000;

  /** The job's own options next to Beam's and Flink's. */
  public interface Options extends FlinkPipelineOptions {
    @Description("Root directory of the orders table (a local path the task managers can write)")
    @Validation.Required
    String getOutput();

    void setOutput(String value);

    @Description("Rows to produce in total; 0 = endless")
    @Default.Long(0)
    long getRows();

    void setRows(long value);

    @Description("Rows per second over all source splits; 0 = as fast as possible")
    @Default.Double(1000)
    double getRowsPerSecond();

    void setRowsPerSecond(double value);

    @Description("Number of hourly partitions the rows go round-robin over")
    @Default.Integer(24)
    int getPartitions();

    void setPartitions(int value);

    @Description("Table format: parquet, orc, avro, json or csv")
    @Default.String("parquet")
    String getTableFormat();

    void setTableFormat(String value);

    @Description("Roll part files after this long (rollover and inactivity), e.g. '10 s'")
    @Default.String("10 s")
    String getRollInterval();

    void setRollInterval(String value);

    @Description(
        "sink.partition-commit.trigger: partition-time (the watermark passes the partition's hour"
            + " + 1 h) or process-time (as soon as files are published)")
    @Default.String("partition-time")
    String getCommitTrigger();

    void setCommitTrigger(String value);

    @Description(
        "auto-compaction: merge the closed files of each partition (up to the rolling file size,"
            + " or after the roll interval) before they become visible")
    @Default.Boolean(false)
    boolean getAutoCompaction();

    void setAutoCompaction(boolean value);

    @Description(
        "Write id in the part file names (default: a random UUID); the post-job publish of a job that"
            + " ends uses it. A job restored from a savepoint should keep the first job's")
    String getWriteUuid();

    void setWriteUuid(String value);

    @Description("Identity of the source; a job restored from a savepoint must use the first job's")
    @Default.String("orders")
    String getSourceId();

    void setSourceId(String value);
  }

  private OrdersStreamJob() {}

  public static void main(String[] args) throws Exception {
    run(args);
  }

  /**
   * Runs the job (waits for it when attached or in this JVM); {@code bin/filetables job
   * orders-stream}.
   */
  static void run(String... args) throws Exception {
    Options options = options(args);
    RunnerOptions.stageJobJarOnRemoteCluster(options);
    PipelineResult result = pipeline(options).run();
    if (RunnerOptions.runsInThisJvm(options) || options.getAttachedMode()) {
      PipelineResult.State state = result.waitUntilFinish();
      System.err.println("orders-stream: job ended " + state);
      if (state != PipelineResult.State.DONE) {
        throw new IllegalStateException("the job ended in state " + state);
      }
      PublishLeftoversCommand.afterJob(table(options), options.getWriteUuid(), state, System.err);
    } else {
      System.err.println(
          "orders-stream: submitted job '"
              + options.getJobName()
              + "' to "
              + options.getFlinkMaster()
              + " (write "
              + options.getWriteUuid()
              + "; once it has ended: bin/filetables publish-leftovers"
              + " <table.sql> --write-uuid "
              + options.getWriteUuid()
              + ")");
    }
  }

  /** Parses the arguments (a {@code --preset} first) and applies the job's defaults. */
  static Options options(String... args) {
    List<String> preset = new ArrayList<>();
    List<String> explicit = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith("--preset=")) {
        preset.addAll(RunnerPresets.standard().load(arg.substring("--preset=".length())));
      } else {
        explicit.add(arg);
      }
    }
    Map<String, String> merged = RunnerOptions.merge(preset, explicit);
    merged.putIfAbsent("runner", "--runner=FlinkRunner");
    Options options =
        PipelineOptionsFactory.fromArgs(merged.values().toArray(new String[0]))
            .withValidation()
            .as(Options.class);
    options.setStreaming(true);
    if (options.getCheckpointingInterval() == null || options.getCheckpointingInterval() <= 0) {
      options.setCheckpointingInterval(DEFAULT_CHECKPOINT_MILLIS);
    }
    if (!merged.containsKey("fasterCopy")) {
      options.setFasterCopy(true);
    }
    if (options.getWriteUuid() == null) {
      options.setWriteUuid(java.util.UUID.randomUUID().toString());
    }
    return options;
  }

  /** ReadOrders → WriteOrders. */
  static Pipeline pipeline(Options options) {
    Orders orders = Orders.withPartitions(options.getPartitions());
    OrdersSource source =
        OrdersSource.of(orders)
            .withSourceId(options.getSourceId())
            .withRowsPerSecond(options.getRowsPerSecond());
    if (options.getRows() > 0) {
      source = source.withTotalRows(options.getRows());
    }
    if (options.getSavepointPath() != null) {
      source = source.restoring();
    }
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply(READ_NAME, Read.from(source))
        .setRowSchema(Orders.SCHEMA)
        .apply(WRITE_NAME, write(options));
    return pipeline;
  }

  private static FileTableIO.Write write(Options options) {
    FileTableIO.Write write = FileTableIO.write(table(options));
    return options.getWriteUuid() == null ? write : write.withWriteUuid(options.getWriteUuid());
  }

  /**
   * The orders table: hourly partitions committed with a success file once the watermark passes
   * them (or, with {@code process-time}, once files are published).
   */
  static TableSpec table(Options options) {
    Map<String, String> tableOptions = new LinkedHashMap<>();
    tableOptions.put(TableOptions.ROLLING_ROLLOVER_INTERVAL, options.getRollInterval());
    tableOptions.put(TableOptions.ROLLING_INACTIVITY_INTERVAL, options.getRollInterval());
    tableOptions.put(TableOptions.ROLLING_CHECK_INTERVAL, "1 s");
    tableOptions.put(TableOptions.TIME_EXTRACTOR_PATTERN, "$dt $hour:00:00");
    tableOptions.put(TableOptions.COMMIT_TRIGGER, options.getCommitTrigger());
    tableOptions.put(
        TableOptions.COMMIT_DELAY,
        "partition-time".equals(options.getCommitTrigger()) ? "1 h" : "0 s");
    tableOptions.put(TableOptions.COMMIT_POLICY_KIND, "success-file");
    if (options.getAutoCompaction()) {
      tableOptions.put(TableOptions.AUTO_COMPACTION, "true");
    }
    String path = TablePaths.of(options.getOutput()).toAbsolutePath().normalize().toString();
    return Orders.table("orders", path, options.getTableFormat(), tableOptions);
  }
}
