package dev.filetables.transforms.runner;

import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.annotations.Internal;

/**
 * When the runner last completed a commit point (a Flink checkpoint) for a write, as seen in this
 * JVM: the wall-clock time at which a bundle finalizer registered by the writer ran. The writer
 * uses it only to time rolls just before the next checkpoint (see the streaming sink's {@code
 * RollingPolicy.nextAligned}); nothing about correctness depends on it. One entry per write id, so
 * it stays tiny.
 */
@Internal
public final class CheckpointClock {
  private static final ConcurrentHashMap<String, AtomicLong> LAST = new ConcurrentHashMap<>();

  private CheckpointClock() {}

  public static void committed(String writeId, long wallMillis) {
    LAST.computeIfAbsent(writeId, id -> new AtomicLong(Long.MIN_VALUE))
        .accumulateAndGet(wallMillis, Math::max);
  }

  public static OptionalLong lastCommit(String writeId) {
    AtomicLong last = LAST.get(writeId);
    return last == null || last.get() == Long.MIN_VALUE
        ? OptionalLong.empty()
        : OptionalLong.of(last.get());
  }
}
