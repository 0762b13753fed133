package dev.filetables.io.files;

import dev.filetables.io.files.store.Stores;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.annotations.Internal;

/** The entries of one directory with their attributes, as FileTables' listings see them. */
@Internal
public final class DirectoryEntries {
  private DirectoryEntries() {}

  /**
   * The visible entries of {@code dir} (hidden names left out) by name, in name order, with their
   * attributes as a FileTables listing gets them: on a store from the listing itself (the
   * modification times readers saw, and no request per file), else from a stat that does not follow
   * links. Empty if the directory is gone.
   */
  public static Map<String, BasicFileAttributes> visible(Path dir) throws IOException {
    Map<String, BasicFileAttributes> entries = new TreeMap<>();
    try {
      if (Stores.isStore(dir)) {
        for (Stores.Entry entry : Stores.list(dir)) {
          String name = entry.path().getFileName().toString();
          if (!PartFileName.isHidden(name)) {
            entries.put(name, entry);
          }
        }
        return entries;
      }
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
        for (Path entry : stream) {
          String name = entry.getFileName().toString();
          if (!PartFileName.isHidden(name)) {
            try {
              entries.put(
                  name,
                  Files.readAttributes(
                      entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
            } catch (NoSuchFileException e) {
              // deleted meanwhile
            }
          }
        }
      }
    } catch (NoSuchFileException e) {
      return Map.of();
    }
    return entries;
  }
}
