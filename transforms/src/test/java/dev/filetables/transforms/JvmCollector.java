package dev.filetables.transforms;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * Collects pipeline outputs in this JVM for assertions: embedded runners (Direct, Flink [local])
 * run here, so a static map keyed by a collector id is enough.
 */
public final class JvmCollector {
  private static final Map<String, Queue<Object>> COLLECTED = new ConcurrentHashMap<>();

  private JvmCollector() {}

  public static String newCollector() {
    String id = UUID.randomUUID().toString();
    COLLECTED.put(id, new ConcurrentLinkedQueue<>());
    return id;
  }

  @SuppressWarnings("unchecked")
  public static <T> List<T> collected(String id) {
    return new ArrayList<>((Collection<T>) (Collection<?>) COLLECTED.get(id));
  }

  /** Adds every element to the collector {@code id}. */
  public static class CollectFn<T> extends DoFn<T, Void> {
    private final String id;

    public CollectFn(String id) {
      this.id = id;
    }

    @ProcessElement
    public void processElement(@Element T element) {
      COLLECTED.get(id).add(element);
    }
  }
}
