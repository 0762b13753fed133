package dev.filetables.transforms.runner;

import java.lang.reflect.Method;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Reads the few runner options the streaming sink depends on, without a compile-time dependency on
 * any runner: the options interface is looked up by name and viewed with {@link
 * PipelineOptions#as}, which works whether or not the user created the options from it.
 */
@Internal
public final class SinkRunnerOptions {
  static final String FLINK_OPTIONS = "org.apache.beam.runners.flink.FlinkPipelineOptions";
  static final String DIRECT_OPTIONS = "org.apache.beam.runners.direct.DirectOptions";

  private SinkRunnerOptions() {}

  /** True when the pipeline runs on Beam's Flink runner (FlinkRunner, TestFlinkRunner). */
  public static boolean isFlink(PipelineOptions options) {
    Class<?> runner = options.getRunner();
    return runner != null && runner.getName().startsWith("org.apache.beam.runners.flink.");
  }

  static boolean isDirect(PipelineOptions options) {
    Class<?> runner = options.getRunner();
    return runner != null && runner.getName().startsWith("org.apache.beam.runners.direct.");
  }

  /** Flink's {@code --checkpointingInterval} in ms; 0 or negative when checkpointing is off. */
  public static long flinkCheckpointingInterval(PipelineOptions options) {
    return get(options, FLINK_OPTIONS, "getCheckpointingInterval")
        .map(v -> ((Number) v).longValue())
        .orElse(-1L);
  }

  /** Flink's {@code --checkpointingMode} ({@code EXACTLY_ONCE} by default). */
  public static String flinkCheckpointingMode(PipelineOptions options) {
    return get(options, FLINK_OPTIONS, "getCheckpointingMode")
        .map(Object::toString)
        .orElse("EXACTLY_ONCE");
  }

  /**
   * Flink's {@code --finishBundleBeforeCheckpointing}: the bundle is finished before the checkpoint
   * barrier is sent on, so its output reaches the next steps inside the checkpoint, not after it.
   */
  public static boolean flinkFinishBundleBeforeCheckpointing(PipelineOptions options) {
    return get(options, FLINK_OPTIONS, "getFinishBundleBeforeCheckpointing")
        .map(v -> (Boolean) v)
        .orElse(false);
  }

  /** Flink's {@code --maxBundleSize} (elements per bundle); empty when not on the class path. */
  public static Optional<Long> flinkMaxBundleSize(PipelineOptions options) {
    return get(options, FLINK_OPTIONS, "getMaxBundleSize").map(v -> ((Number) v).longValue());
  }

  /** Flink's {@code --maxBundleTimeMills}; empty when not on the class path. */
  public static Optional<Long> flinkMaxBundleTimeMills(PipelineOptions options) {
    return get(options, FLINK_OPTIONS, "getMaxBundleTimeMills").map(v -> ((Number) v).longValue());
  }

  /**
   * The number of writers when {@code sink.parallelism} is unset: Flink's {@code --parallelism} if
   * set, the Direct runner's {@code --targetParallelism}, otherwise the processors of the machine
   * building the pipeline (what Flink's local and default parallelism also use).
   */
  public static int defaultWriters(PipelineOptions options) {
    if (isFlink(options)) {
      Optional<Integer> parallelism =
          get(options, FLINK_OPTIONS, "getParallelism").map(v -> ((Number) v).intValue());
      if (parallelism.isPresent() && parallelism.get() > 0) {
        return parallelism.get();
      }
    } else if (isDirect(options)) {
      Optional<Integer> target =
          get(options, DIRECT_OPTIONS, "getTargetParallelism").map(v -> ((Number) v).intValue());
      if (target.isPresent() && target.get() > 0) {
        return target.get();
      }
    }
    return Math.max(1, Runtime.getRuntime().availableProcessors());
  }

  private static Optional<Object> get(
      PipelineOptions options, String interfaceName, String getter) {
    try {
      Class<?> type = Class.forName(interfaceName, false, SinkRunnerOptions.class.getClassLoader());
      if (!PipelineOptions.class.isAssignableFrom(type)) {
        return Optional.empty();
      }
      PipelineOptions view = options.as(type.asSubclass(PipelineOptions.class));
      Method method = type.getMethod(getter);
      return Optional.ofNullable(method.invoke(view));
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      return Optional.empty(); // runner not on the class path, or an older version of it
    }
  }
}
