package dev.filetables.io.kafka;

import java.util.Arrays;
import java.util.Optional;

/**
 * {@code scan.startup.mode}: where a Kafka table starts reading when the job starts fresh (not
 * restored).
 */
public enum StartupMode {
  /** Each partition from its earliest offset, whatever the group has committed. */
  EARLIEST_OFFSET("earliest-offset"),
  /** Each partition from its end when the reader starts, whatever the group has committed. */
  LATEST_OFFSET("latest-offset"),
  /** The group's committed offsets; where none, {@code properties.auto.offset.reset}. */
  GROUP_OFFSETS("group-offsets");

  private final String value;

  StartupMode(String value) {
    this.value = value;
  }

  /** The option value, e.g. {@code earliest-offset}. */
  public String value() {
    return value;
  }

  static Optional<StartupMode> of(String text) {
    return Arrays.stream(values()).filter(m -> m.value.equals(text)).findFirst();
  }

  static String supported() {
    return String.join(", ", Arrays.stream(values()).map(StartupMode::value).toList());
  }
}
