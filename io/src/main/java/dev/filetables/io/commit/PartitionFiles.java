package dev.filetables.io.commit;

import dev.filetables.io.files.IntentFileName;
import dev.filetables.io.files.PartFileName;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.beam.sdk.annotations.Internal;

/** What a partition directory holds at commit time: visible data files, and in-progress files. */
@Internal
public final class PartitionFiles {
  private PartitionFiles() {}

  /**
   * The visible data files directly in {@code dir}, sorted by name, with sizes and unknown row
   * counts: regular files whose names do not start with '.' or '_' (what every reader reads). A
   * missing directory has none.
   */
  public static List<CommittedFile> visibleDataFiles(Path dir) throws IOException {
    List<CommittedFile> files = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (PartFileName.isHidden(name)) {
          continue;
        }
        BasicFileAttributes attributes;
        try {
          attributes =
              Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          continue; // removed while listing (e.g. a compaction input)
        }
        if (attributes.isRegularFile()) {
          files.add(
              CommittedFile.of(
                  entry.toString(), attributes.size(), java.util.OptionalLong.empty()));
        }
      }
    } catch (NoSuchFileException e) {
      return List.of();
    }
    files.sort(Comparator.comparing(CommittedFile::name));
    return files;
  }

  /**
   * The in-progress part files directly in {@code dir} that belong to one of the given writes (part
   * file uuids), sorted: hidden names {@code .part-<uuid>-….inprogress}, including hidden
   * compaction outputs named after such a file, and the write's end-of-input intents ({@link
   * IntentFileName}: hidden work of the write, published at the job's final checkpoint). Files of
   * other writes (an earlier, crashed job) are not counted: they will never be published and must
   * not block a commit forever. Nor are hidden files of a part file that is visible already
   * (segments, or the file as a stale writer attempt wrote it after its successor published it):
   * they can add no rows.
   */
  public static List<Path> inProgressFiles(Path dir, Collection<String> writeUuids)
      throws IOException {
    List<Path> found = new ArrayList<>();
    if (writeUuids.isEmpty()) {
      return found;
    }
    Set<String> visibleParts = new HashSet<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if ((PartFileName.isInProgress(name) && ofWrite(name, writeUuids))
            || (IntentFileName.isIntent(name) && intentOfWrite(name, writeUuids))) {
          found.add(entry);
        } else if (!PartFileName.isHidden(name)) {
          partOf(name).ifPresent(visibleParts::add);
        }
      }
    } catch (NoSuchFileException e) {
      return found;
    }
    found.removeIf(
        file -> partOf(file.getFileName().toString()).map(visibleParts::contains).orElse(false));
    found.sort(Comparator.naturalOrder());
    return found;
  }

  /**
   * The write uuid of a part file name, visible or hidden, also inside a compaction output name
   * such as {@code compacted-part-<uuid>-…}; null for names that hold no part file name.
   */
  public static String writeUuidOf(String fileName) {
    String name = fileName;
    if (PartFileName.isInProgress(name)) {
      name = PartFileName.visibleOf(name);
    }
    int part = name.indexOf("part-");
    if (part < 0) {
      return null;
    }
    return PartFileName.parse(name.substring(part)).map(PartFileName.Parts::uuid).orElse(null);
  }

  /** The part file a file name belongs to, as {@code uuid-writer-counter}; empty for others. */
  private static Optional<String> partOf(String name) {
    return PartFileName.parse(name)
        .map(parts -> parts.uuid() + "-" + parts.writer() + "-" + parts.counter());
  }

  private static boolean intentOfWrite(String intentName, Collection<String> writeUuids) {
    for (String uuid : writeUuids) {
      if (IntentFileName.isOfWrite(intentName, uuid)) {
        return true;
      }
    }
    return false;
  }

  private static boolean ofWrite(String hiddenName, Collection<String> writeUuids) {
    for (String uuid : writeUuids) {
      if (hiddenName.contains("part-" + uuid + "-")) {
        return true;
      }
    }
    return false;
  }
}
