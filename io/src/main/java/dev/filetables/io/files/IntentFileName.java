package dev.filetables.io.files;

import java.util.Comparator;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Names of end-of-input intent files of the streaming sink: {@code
 * .filetables-eoi-<writeUuid>-<epochMillis>-<random>.intent}, one per partition directory and
 * attempt, saying which hidden files of the write the last stretch of a finite stream publishes at
 * the job's final checkpoint (or, if that never happens, the post-job publish does).
 *
 * <p>Hidden from every reader (starts with '.'), never a data file (no data extension, so globs
 * such as {@code *.parquet} skip it), not an in-progress part file name (clean-ups of part files
 * never touch it). The epoch millis orders the intents of one write in a directory: a later
 * attempt's intent is newer ({@link #NEWEST_FIRST}).
 */
@Internal
public final class IntentFileName {
  private IntentFileName() {}

  private static final String PREFIX = ".filetables-eoi-";
  private static final String SUFFIX = ".intent";

  /** The name of an intent of {@code writeUuid} written at {@code epochMillis}. */
  public static String of(String writeUuid, long epochMillis, String random) {
    if (random.isEmpty() || !random.chars().allMatch(Character::isLetterOrDigit)) {
      throw new IllegalArgumentException(
          "random part must be letters or digits, was '" + random + "'");
    }
    return PREFIX + writeUuid + "-" + epochMillis + "-" + random + SUFFIX;
  }

  /** The temporary name an intent is written under before its atomic rename. */
  public static String temporaryOf(String intentName) {
    return intentName + ".tmp";
  }

  /**
   * True for the temporary name of an intent of {@code writeUuid} (left by a crash while writing
   * it).
   */
  public static boolean isTemporaryOfWrite(String name, String writeUuid) {
    return name.endsWith(".tmp")
        && isOfWrite(name.substring(0, name.length() - ".tmp".length()), writeUuid);
  }

  /** True for an intent file name (of any write). */
  public static boolean isIntent(String name) {
    return parse(name).isPresent();
  }

  /** True for an intent file name of {@code writeUuid}. */
  public static boolean isOfWrite(String name, String writeUuid) {
    return parse(name).map(p -> p.writeUuid().equals(writeUuid)).orElse(false);
  }

  /** The parts of an intent name. */
  public static final class Parts {
    private final String writeUuid;
    private final long epochMillis;
    private final String random;

    Parts(String writeUuid, long epochMillis, String random) {
      this.writeUuid = writeUuid;
      this.epochMillis = epochMillis;
      this.random = random;
    }

    public String writeUuid() {
      return writeUuid;
    }

    public long epochMillis() {
      return epochMillis;
    }

    public String random() {
      return random;
    }
  }

  /** Orders intent names newest first (by epoch millis, then by name). */
  public static final Comparator<String> NEWEST_FIRST =
      Comparator.<String>comparingLong(n -> parse(n).map(Parts::epochMillis).orElse(Long.MIN_VALUE))
          .thenComparing(Comparator.naturalOrder())
          .reversed();

  /** The parts of an intent name; empty for any other name. */
  public static Optional<Parts> parse(String name) {
    if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) {
      return Optional.empty();
    }
    String core = name.substring(PREFIX.length(), name.length() - SUFFIX.length());
    int randomDash = core.lastIndexOf('-');
    if (randomDash <= 0) {
      return Optional.empty();
    }
    int millisDash = core.lastIndexOf('-', randomDash - 1);
    if (millisDash <= 0) {
      return Optional.empty();
    }
    String millis = core.substring(millisDash + 1, randomDash);
    String random = core.substring(randomDash + 1);
    if (millis.isEmpty()
        || millis.length() > 18
        || !millis.chars().allMatch(c -> c >= '0' && c <= '9')
        || random.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Parts(core.substring(0, millisDash), Long.parseLong(millis), random));
  }
}
