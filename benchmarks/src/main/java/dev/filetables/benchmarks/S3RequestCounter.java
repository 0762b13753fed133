package dev.filetables.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
  /** Frames of FileTables code (outside the stores and benchmarks) that name a request's caller. */
  private static final int CALLER_FRAMES = 5;

  private final Map<String, Long> requests = new LinkedHashMap<>();
  private final Map<String, Long> callers = new HashMap<>();
  private final Set<Thread> ignored = new HashSet<>();
  private long bodyBytes;
  private boolean traceCallers;

  @Override
  public synchronized void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    if (ignored.contains(Thread.currentThread())) {
      return;
    }
    String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    requests.merge(operation, 1L, Long::sum);
    bodyBytes += context.requestBody().flatMap(b -> b.optionalContentLength()).orElse(0L);
    if (traceCallers) {
      callers.merge(operation + " < " + caller(), 1L, Long::sum);
    }
  }

  /** The FileTables methods that sent the current request, innermost first. */
  private static String caller() {
    List<String> frames = new ArrayList<>();
    for (StackTraceElement frame : new Throwable().getStackTrace()) {
      String type = frame.getClassName();
      if (type.startsWith("dev.filetables.")
          && !type.startsWith("dev.filetables.benchmarks.")
          && !type.startsWith("dev.filetables.io.files.store.")
          && frames.size() < CALLER_FRAMES) {
        frames.add(type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethodName());
      }
    }
    return String.join(" < ", frames);
  }

  /** Also counts requests by the FileTables methods that sent them ({@link #callers}). */
  synchronized void traceCallers() {
    traceCallers = true;
  }

  /** Requests by operation and calling methods, most first (empty unless traced). */
  synchronized List<Map.Entry<String, Long>> callers() {
    List<Map.Entry<String, Long>> sorted = new ArrayList<>(callers.entrySet());
    sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed());
    return sorted;
  }

  /** Requests sent by the calling thread (a benchmark's own listings) are not counted. */
  synchronized void ignoreCallingThread() {
    ignored.add(Thread.currentThread());
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
