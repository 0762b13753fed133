package dev.filetables.io.files;

import com.google.auto.value.AutoValue;
import java.security.SecureRandom;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Names of part files: visible {@code part-<uuid>-<writer>-<counter><ext>} and the hidden
 * in-progress name {@code .part-<uuid>-<writer>-<counter><ext>.inprogress} it is written under. The
 * hidden name starts with '.' (every reader skips it) and does not end in the data extension (globs
 * such as {@code **}{@code /*.parquet} never match it).
 *
 * <p>A hidden name may carry the <em>attempt</em> that wrote it, {@code
 * .part-<uuid>-<writer>-<counter><ext>.attempt-<tag>.inprogress} ({@link #withAttempt}): the
 * streaming sink names every hidden file it writes after the writer instance (one attempt of a
 * task) so that a stale attempt still running (a frozen TaskManager that wakes up after its work
 * was moved) can never overwrite a file of the attempt that replaced it. The visible name drops the
 * tag: only the attempt whose checkpoint completed publishes. Tags order attempts by their start
 * ({@link #newerAttempt}).
 *
 * <p>{@link #parse} reads a name back into its parts. It takes the counter and the writer from the
 * end ({@code -<writer>-<counter>}, the counter all digits) and the extension from the first '.'
 * after {@code part-}, so a uuid may contain '-' (a standard UUID does) but not '.', and a writer
 * may contain neither.
 */
@Internal
public final class PartFileName {
  private PartFileName() {}

  private static final SecureRandom RANDOM = new SecureRandom();

  private static final String PREFIX = "part-";
  private static final String IN_PROGRESS = ".inprogress";
  private static final String ATTEMPT = ".attempt-";

  /** Digits of the start time in an attempt tag: base 36 milliseconds, fixed width to sort. */
  private static final int TAG_TIME_DIGITS = 9;

  private static final int TAG_RANDOM_DIGITS = 4;

  /** The parts of a part file name. */
  @AutoValue
  public abstract static class Parts {
    public abstract String uuid();

    public abstract String writer();

    public abstract long counter();

    /** The data extension including its dot ({@code .csv}, {@code .csv.gz}), or empty. */
    public abstract String extension();

    /** True for the hidden in-progress name. */
    public abstract boolean inProgress();

    public String visibleName() {
      return visible(uuid(), writer(), counter(), extension());
    }

    public String hiddenName() {
      return hidden(uuid(), writer(), counter(), extension());
    }
  }

  /** The parts of a visible or hidden part file name; empty for any other name. */
  public static Optional<Parts> parse(String name) {
    boolean inProgress = isInProgress(name);
    String visible = inProgress ? visibleOf(name) : name;
    if (!visible.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String rest = visible.substring(PREFIX.length());
    int dot = rest.indexOf('.');
    String core = dot < 0 ? rest : rest.substring(0, dot);
    String extension = dot < 0 ? "" : rest.substring(dot);
    int counterDash = core.lastIndexOf('-');
    if (counterDash <= 0) {
      return Optional.empty();
    }
    int writerDash = core.lastIndexOf('-', counterDash - 1);
    String counter = core.substring(counterDash + 1);
    if (writerDash <= 0
        || writerDash == counterDash - 1
        || !isDigits(counter)
        || counter.length() > 18) {
      return Optional.empty();
    }
    return Optional.of(
        new AutoValue_PartFileName_Parts(
            core.substring(0, writerDash),
            core.substring(writerDash + 1, counterDash),
            Long.parseLong(counter),
            extension,
            inProgress));
  }

  /** True for a hidden in-progress name ({@code .<visible>.inprogress}). */
  public static boolean isInProgress(String name) {
    return name.length() > 1 + IN_PROGRESS.length()
        && name.startsWith(".")
        && name.endsWith(IN_PROGRESS);
  }

  private static boolean isDigits(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  public static String visible(String uuid, String writer, long counter, String extension) {
    return "part-" + uuid + "-" + writer + "-" + counter + extension;
  }

  public static String hidden(String uuid, String writer, long counter, String extension) {
    return "." + visible(uuid, writer, counter, extension) + ".inprogress";
  }

  /** The visible name for a hidden in-progress name (without the attempt tag it may carry). */
  public static String visibleOf(String hiddenName) {
    if (!hiddenName.startsWith(".") || !hiddenName.endsWith(IN_PROGRESS)) {
      throw new IllegalArgumentException("Not an in-progress file name: " + hiddenName);
    }
    String visible = hiddenName.substring(1, hiddenName.length() - IN_PROGRESS.length());
    int attempt = visible.lastIndexOf(ATTEMPT);
    return attempt >= 0 && isTag(visible.substring(attempt + ATTEMPT.length()))
        ? visible.substring(0, attempt)
        : visible;
  }

  /** The hidden name without the attempt tag it may carry. */
  public static String untagged(String hiddenName) {
    return "." + visibleOf(hiddenName) + IN_PROGRESS;
  }

  /**
   * The hidden name {@code hiddenName} (untagged) as written by attempt {@code tag} ({@link
   * #newAttemptTag}); an empty tag leaves the name as it is.
   */
  public static String withAttempt(String hiddenName, String tag) {
    if (!isInProgress(hiddenName)) {
      throw new IllegalArgumentException("Not an in-progress file name: " + hiddenName);
    }
    if (tag.isEmpty()) {
      return hiddenName;
    }
    if (!isTag(tag)) {
      throw new IllegalArgumentException("Not an attempt tag: " + tag);
    }
    return hiddenName.substring(0, hiddenName.length() - IN_PROGRESS.length())
        + ATTEMPT
        + tag
        + IN_PROGRESS;
  }

  /** The attempt tag of a hidden name, or "" when it has none (written before tags, or batch). */
  public static String attemptOf(String hiddenName) {
    if (!isInProgress(hiddenName)) {
      return "";
    }
    String untagged = untagged(hiddenName);
    return untagged.equals(hiddenName)
        ? ""
        : hiddenName.substring(
            untagged.length() - IN_PROGRESS.length() + ATTEMPT.length(),
            hiddenName.length() - IN_PROGRESS.length());
  }

  /**
   * A tag for a new attempt: its start time (base 36 milliseconds, so that tags sort by start) and
   * random digits that tell apart attempts started in the same millisecond.
   */
  public static String newAttemptTag() {
    String time = Long.toString(System.currentTimeMillis(), Character.MAX_RADIX);
    StringBuilder tag = new StringBuilder();
    tag.append("0".repeat(Math.max(0, TAG_TIME_DIGITS - time.length()))).append(time);
    for (int i = 0; i < TAG_RANDOM_DIGITS; i++) {
      tag.append(Character.forDigit(RANDOM.nextInt(Character.MAX_RADIX), Character.MAX_RADIX));
    }
    return tag.toString();
  }

  /**
   * True when attempt {@code tag} started after attempt {@code than} (by the clocks of their
   * machines); a name without a tag is older than every tagged one.
   */
  public static boolean newerAttempt(String tag, String than) {
    if (tag.isEmpty()) {
      return false;
    }
    if (than.isEmpty()) {
      return true;
    }
    return tag.substring(0, TAG_TIME_DIGITS).compareTo(than.substring(0, TAG_TIME_DIGITS)) > 0;
  }

  private static boolean isTag(String text) {
    if (text.length() != TAG_TIME_DIGITS + TAG_RANDOM_DIGITS) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (Character.digit(text.charAt(i), Character.MAX_RADIX) < 0
          || Character.isUpperCase(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** True for names every reader skips: starting with '.' or '_'. */
  public static boolean isHidden(String name) {
    return name.startsWith(".") || name.startsWith("_");
  }
}
