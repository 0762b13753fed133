package dev.filetables.transforms.source.watch;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Starts the watcher: one empty element, emitted once, from a source that never ends and whose
 * watermark then stands just below the end of the global window.
 *
 * <p>Why not {@code Impulse}: on the Beam 2.62 Flink runner a running Impulse source holds the
 * watermark at its minimum (apache/beam#29558), so the watcher's own watermark never reached
 * downstream; with {@code --shutdownSourcesAfterIdleMs} the Impulse ends, and Flink then ends the
 * watcher's task too. This seed never ends and does not hold the watermark, so the watcher's output
 * watermark is its estimators' value. It stays below the global window's end: a watermark past it
 * would fire the runner's state clean-up timers.
 *
 * <p>Exactly one seed: the checkpoint mark records that the seed was emitted, and because the Flink
 * runner re-reads restored unbounded-source splits (apache/beam#31313) a keyed step also drops any
 * seed after the first (its state is checkpointed with the job). A second seed would start a
 * second set of shards that reads every file again.
 */
final class WatchSeed extends PTransform<PBegin, PCollection<byte[]>> {
  private static final long serialVersionUID = 1L;

  /** The seed source's watermark once the seed is out: far future, but inside the global window. */
  static final Instant DONE_WATERMARK =
      GlobalWindow.INSTANCE.maxTimestamp().minus(Duration.standardHours(1));

  @Override
  public PCollection<byte[]> expand(PBegin input) {
    return input
        .apply("Seed", Read.from(new SeedSource(true)))
        .apply("Key", MapElements.into(
                TypeDescriptors.kvs(TypeDescriptors.integers(), new TypeDescriptor<byte[]>() {}))
            .via(seed -> KV.of(0, seed)))
        .setCoder(KvCoder.of(VarIntCoder.of(), ByteArrayCoder.of()))
        .apply("FirstOnly", ParDo.of(new FirstSeedOnlyFn()))
        .setCoder(ByteArrayCoder.of());
  }

  /** Passes the first seed, drops any later one (a re-read after a restore). */
  static final class FirstSeedOnlyFn extends DoFn<KV<Integer, byte[]>, byte[]> {
    private static final long serialVersionUID = 1L;

    @StateId("seeded")
    private final StateSpec<ValueState<Boolean>> seededSpec = StateSpecs.value();

    @ProcessElement
    public void process(
        @Element KV<Integer, byte[]> seed,
        @StateId("seeded") ValueState<Boolean> seeded,
        OutputReceiver<byte[]> out) {
      if (seeded.read() == null) {
        seeded.write(true);
        out.output(seed.getValue());
      }
    }
  }

  /**
   * Split 0 emits the seed unless its checkpoint mark says it already did; the other splits emit
   * nothing. One split per reader, because a Flink source reader without a split never moves its
   * watermark and would hold back the watcher's.
   */
  static final class SeedSource extends UnboundedSource<byte[], SeedMark> {
    private static final long serialVersionUID = 1L;
    private final boolean seeds;

    SeedSource(boolean seeds) {
      this.seeds = seeds;
    }

    @Override
    public List<SeedSource> split(int desiredNumSplits, PipelineOptions options) {
      List<SeedSource> splits = new ArrayList<>();
      for (int i = 0; i < Math.max(1, desiredNumSplits); i++) {
        splits.add(new SeedSource(seeds && i == 0));
      }
      return splits;
    }

    @Override
    public UnboundedReader<byte[]> createReader(PipelineOptions options, SeedMark mark) {
      return new SeedReader(this, !seeds || (mark != null && mark.emitted));
    }

    @Override
    public Coder<SeedMark> getCheckpointMarkCoder() {
      return SerializableCoder.of(SeedMark.class);
    }

    @Override
    public Coder<byte[]> getOutputCoder() {
      return ByteArrayCoder.of();
    }
  }

  /** Whether the seed was emitted. */
  static final class SeedMark implements UnboundedSource.CheckpointMark, Serializable {
    private static final long serialVersionUID = 1L;
    final boolean emitted;

    SeedMark(boolean emitted) {
      this.emitted = emitted;
    }

    @Override
    public void finalizeCheckpoint() {}
  }

  static final class SeedReader extends UnboundedSource.UnboundedReader<byte[]> {
    private final SeedSource source;
    private boolean emitted;
    private boolean current;

    SeedReader(SeedSource source, boolean emitted) {
      this.source = source;
      this.emitted = emitted;
    }

    @Override
    public boolean start() {
      if (emitted) {
        return false;
      }
      emitted = true;
      current = true;
      return true;
    }

    @Override
    public boolean advance() {
      current = false;
      return false;
    }

    @Override
    public byte[] getCurrent() {
      if (!current) {
        throw new NoSuchElementException();
      }
      return new byte[0];
    }

    @Override
    public Instant getCurrentTimestamp() {
      if (!current) {
        throw new NoSuchElementException();
      }
      return BoundedWindow.TIMESTAMP_MIN_VALUE;
    }

    @Override
    public Instant getWatermark() {
      return emitted ? DONE_WATERMARK : BoundedWindow.TIMESTAMP_MIN_VALUE;
    }

    @Override
    public SeedMark getCheckpointMark() {
      return new SeedMark(emitted);
    }

    @Override
    public SeedSource getCurrentSource() {
      return source;
    }

    @Override
    public void close() {}
  }
}
