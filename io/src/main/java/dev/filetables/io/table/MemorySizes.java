package dev.filetables.io.table;

/** Parses memory sizes in Flink's forms: {@code 128MB}, {@code 128 mb}, {@code 1 kb}, {@code 1gb}, plain bytes. */
public final class MemorySizes {
  private MemorySizes() {}

  /** SKELETON: to be completed by the options work. Returns bytes. */
  public static long parse(String text) {
    throw new UnsupportedOperationException("TODO MemorySizes.parse");
  }
}
