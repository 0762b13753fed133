package dev.filetables.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** {@code --name=value} arguments of the benchmark mains; unknown names are an error. */
final class BenchArgs {
  private final Map<String, String> values = new LinkedHashMap<>();
  private final Map<String, List<String>> repeated = new LinkedHashMap<>();
  private final Set<String> known = new TreeSet<>();

  BenchArgs(String[] args) {
    for (String arg : args) {
      if (!arg.startsWith("--") || !arg.contains("=")) {
        throw new IllegalArgumentException("Arguments look like --name=value, got '" + arg + "'");
      }
      String name = arg.substring(2, arg.indexOf('='));
      String value = arg.substring(arg.indexOf('=') + 1);
      values.put(name, value);
      repeated.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
  }

  String string(String name, String fallback) {
    known.add(name);
    return values.getOrDefault(name, fallback);
  }

  long longValue(String name, long fallback) {
    return Long.parseLong(string(name, Long.toString(fallback)).replace("_", ""));
  }

  int intValue(String name, int fallback) {
    return Integer.parseInt(string(name, Integer.toString(fallback)).replace("_", ""));
  }

  double doubleValue(String name, double fallback) {
    return Double.parseDouble(string(name, Double.toString(fallback)));
  }

  boolean bool(String name, boolean fallback) {
    return Boolean.parseBoolean(string(name, Boolean.toString(fallback)));
  }

  Path path(String name, Path fallback) {
    String value = string(name, null);
    return value == null ? fallback : Path.of(value);
  }

  /** Every value of a repeatable argument. */
  List<String> all(String name) {
    known.add(name);
    return repeated.getOrDefault(name, List.of());
  }

  /** Fails on arguments no getter asked for (call after reading them all). */
  void checkNoUnknown() {
    Set<String> unknown = new TreeSet<>(values.keySet());
    unknown.removeAll(known);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("Unknown arguments " + unknown + "; known: " + known);
    }
  }
}
