package dev.filetables.transforms.commit;

import org.apache.beam.sdk.state.ValueState;
import org.checkerframework.checker.nullness.qual.Nullable;

/** In-memory {@link TriggerState}s for unit tests of the triggers (no pipeline). */
final class TriggerStateFake {
  private TriggerStateFake() {}

  static TriggerState empty() {
    return new TriggerState(new Value<>(), new Value<>(), new Value<>());
  }

  private static final class Value<T> implements ValueState<T> {
    private @Nullable T value;

    @Override
    public void write(T input) {
      value = input;
    }

    @Override
    public @Nullable T read() {
      return value;
    }

    @Override
    public ValueState<T> readLater() {
      return this;
    }

    @Override
    public void clear() {
      value = null;
    }
  }
}
