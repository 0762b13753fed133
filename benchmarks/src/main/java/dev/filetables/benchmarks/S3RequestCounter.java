package dev.filetables.benchmarks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Counts the requests an S3 client sends, by operation ({@code PutObject}, {@code UploadPart},
 * ...), and the bytes of their bodies. Counted before each transmission, so a retried request
 * counts as often as it is sent. Operations keep the order in which the client first sent them.
 * {@link #snapshot} and {@link Counts#minus} attribute them to the steps of a benchmark.
 */
final class S3RequestCounter implements ExecutionInterceptor {
  private final Map<String, Long> requests = new LinkedHashMap<>();
  private long bodyBytes;

  @Override
  public synchronized void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    requests.merge(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), 1L, Long::sum);
    bodyBytes += context.requestBody().flatMap(b -> b.optionalContentLength()).orElse(0L);
  }

  synchronized Counts snapshot() {
    return new Counts(Collections.unmodifiableMap(new LinkedHashMap<>(requests)), bodyBytes);
  }

  /** Requests by operation and request body bytes, at one moment or between two. */
  record Counts(Map<String, Long> requests, long bodyBytes) {
    static final Counts NONE = new Counts(Map.of(), 0);

    Counts minus(Counts earlier) {
      Map<String, Long> difference = new LinkedHashMap<>();
      requests.forEach(
          (operation, count) -> {
            long delta = count - earlier.requests.getOrDefault(operation, 0L);
            if (delta != 0) {
              difference.put(operation, delta);
            }
          });
      return new Counts(difference, bodyBytes - earlier.bodyBytes);
    }

    Counts plus(Counts other) {
      Map<String, Long> sum = new LinkedHashMap<>(requests);
      other.requests.forEach((operation, count) -> sum.merge(operation, count, Long::sum));
      return new Counts(sum, bodyBytes + other.bodyBytes);
    }

    long total() {
      return requests.values().stream().mapToLong(Long::longValue).sum();
    }
  }
}
