package dev.filetables.io.files;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Names of compaction outputs, derived only from the names of the files they merge, so that a
 * compaction retried after a failure writes (and finds) the very same file instead of a second
 * copy.
 *
 * <p>A compaction output is an ordinary part file name {@code part-<uuid>-c<hash>-<n><ext>} whose
 * writer id is {@code c} followed by 16 hex digits of a SHA-256 over the sorted input names, and
 * whose counter is the number of inputs. Streaming writers are numbered ({@code 0..N-1}), so a
 * writer's clean-up of its own leftovers never takes a compaction output for one of its files. The
 * streaming sink uses its write uuid (so the partition commit's in-progress guard waits for the
 * hidden output), the offline job the fixed uuid {@link #OFFLINE_UUID}.
 */
@Internal
public final class CompactedFileName {
  private CompactedFileName() {}

  /** The uuid part of offline compaction outputs ({@code part-compacted-c<hash>-<n><ext>}). */
  public static final String OFFLINE_UUID = "compacted";

  private static final String WRITER_PREFIX = "c";

  /** The visible name of the file merging {@code inputNames} (file names, any order). */
  public static String visible(String uuid, Collection<String> inputNames, String extension) {
    return PartFileName.visible(uuid, writerId(inputNames), inputNames.size(), extension);
  }

  /** The hidden in-progress name the merged file is written under. */
  public static String hidden(String uuid, Collection<String> inputNames, String extension) {
    return PartFileName.hidden(uuid, writerId(inputNames), inputNames.size(), extension);
  }

  /** True if {@code name} (visible or hidden) is a compaction output name. */
  public static boolean isCompacted(String name) {
    return PartFileName.parse(name).map(parts -> isCompactionWriter(parts.writer())).orElse(false);
  }

  private static boolean isCompactionWriter(String writer) {
    return writer.length() == 17
        && writer.startsWith(WRITER_PREFIX)
        && writer
            .substring(1)
            .chars()
            .allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  }

  private static String writerId(Collection<String> inputNames) {
    if (inputNames.isEmpty()) {
      throw new IllegalArgumentException("a compaction needs at least one input");
    }
    List<String> sorted = new ArrayList<>(inputNames);
    sorted.sort(null);
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String name : sorted) {
        sha.update(name.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) '\n');
      }
      return WRITER_PREFIX + HexFormat.of().formatHex(sha.digest(), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java platform", e);
    }
  }
}
