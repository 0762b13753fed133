package dev.filetables.io.files;

import com.google.auto.value.AutoValue;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Names of part files: visible {@code part-<uuid>-<writer>-<counter><ext>} and the hidden
 * in-progress name {@code .part-<uuid>-<writer>-<counter><ext>.inprogress} it is written under. The
 * hidden name starts with '.' (every reader skips it) and does not end in the data extension (globs
 * such as {@code **}{@code /*.parquet} never match it).
 *
 * <p>{@link #parse} reads a name back into its parts. It takes the counter and the writer from the
 * end ({@code -<writer>-<counter>}, the counter all digits) and the extension from the first '.'
 * after {@code part-}, so a uuid may contain '-' (a standard UUID does) but not '.', and a writer
 * may contain neither.
 */
@Internal
public final class PartFileName {
  private PartFileName() {}

  private static final String PREFIX = "part-";
  private static final String IN_PROGRESS = ".inprogress";

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

  /** The visible name for a hidden in-progress name. */
  public static String visibleOf(String hiddenName) {
    if (!hiddenName.startsWith(".") || !hiddenName.endsWith(".inprogress")) {
      throw new IllegalArgumentException("Not an in-progress file name: " + hiddenName);
    }
    return hiddenName.substring(1, hiddenName.length() - ".inprogress".length());
  }

  /** True for names every reader skips: starting with '.' or '_'. */
  public static boolean isHidden(String name) {
    return name.startsWith(".") || name.startsWith("_");
  }
}
