package dev.filetables.io.files;

/**
 * Names of part files: visible {@code part-<uuid>-<writer>-<counter><ext>} and the hidden in-progress
 * name {@code .part-<uuid>-<writer>-<counter><ext>.inprogress} it is written under. The hidden name
 * starts with '.' (every reader skips it) and does not end in the data extension (globs such as
 * {@code **}{@code /*.parquet} never match it).
 *
 * <p>SKELETON – contract for the files work.
 */
public final class PartFileName {
  private PartFileName() {}

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
