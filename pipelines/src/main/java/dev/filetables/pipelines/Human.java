package dev.filetables.pipelines;

import java.util.Locale;

/** Numbers formatted for people: {@code 1,200,000}, {@code 43.6 MiB}, {@code 1 min 05 s}. */
final class Human {
  private Human() {}

  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code 1 file}, {@code 2 files}. */
  static String count(long n, String noun) {
    return count(n) + " " + noun + (n == 1 ? "" : "s");
  }

  static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }

  static String duration(long millis) {
    if (millis < 60_000) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    long seconds = millis / 1000;
    if (seconds < 3600) {
      return String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
    }
    return String.format(Locale.ROOT, "%d h %02d min", seconds / 3600, (seconds % 3600) / 60);
  }

  /** Rows per second, or "-" for a run too short to measure. */
  static String rate(long rows, long millis) {
    return millis <= 0 ? "-" : count(Math.round(rows * 1000.0 / millis));
  }
}
