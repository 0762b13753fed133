package dev.filetables.io.table;

import java.time.Duration;

/** Parses durations in Flink's forms: {@code 10 s}, {@code 10s}, {@code 1min}, {@code 1 h}, {@code 500 ms}, {@code 1d}. */
public final class Durations {
  private Durations() {}

  /** SKELETON: to be completed by the options work (all Flink units, clear errors). */
  public static Duration parse(String text) {
    throw new UnsupportedOperationException("TODO Durations.parse");
  }
}
