package dev.filetables.io.files;

import dev.filetables.io.files.store.Stores;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.partition.PartitionPath;
import dev.filetables.io.table.TableDefinitionException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Walks a table's partition directories level by level down to the leaves.
 *
 * <p>At level i only directories named {@code keys[i]=value} are descended. The filter is tested on
 * the partition known so far before an entry is even stat-ed, so a pruned subtree is never touched
 * (it may be unreadable, a dangling link, anything). Names starting with '.' or '_' are skipped
 * without a word (in-progress files, success files); everything else that is not descended is
 * recorded as an {@link IgnoredEntry} and logged at WARN, because it is data the table will not
 * read.
 */
final class PartitionWalker {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionWalker.class);

  /** Opens a directory; tests swap it to see which directories were opened. */
  interface DirectoryOpener {
    DirectoryStream<Path> open(Path dir) throws IOException;
  }

  /** Called for each leaf directory that passed the filter. */
  interface LeafVisitor {
    void leaf(Path dir, LinkedHashMap<String, String> partition) throws IOException;
  }

  static final DirectoryOpener NIO = Files::newDirectoryStream;

  private final List<String> keys;
  private final String defaultName;
  private final PartitionFilter filter;
  private final DirectoryOpener opener;
  private final List<IgnoredEntry> ignored = new ArrayList<>();

  /**
   * The attributes a store's listing gave, for the entries of that listing: on S3 a request per
   * entry would multiply a table's listing cost by its number of files. Lives for one walk.
   */
  private final Map<Path, BasicFileAttributes> listedAttributes = new HashMap<>();

  PartitionWalker(
      List<String> keys, String defaultName, PartitionFilter filter, DirectoryOpener opener) {
    PartitionPath.checkDefaultName(defaultName);
    this.keys = List.copyOf(keys);
    this.defaultName = defaultName;
    this.filter = filter == null ? PartitionFilter.all() : filter;
    this.opener = opener;
  }

  /**
   * Walks the table under {@code root} (absolute); false if the root does not exist (nothing
   * visited: the table has not been written yet).
   */
  boolean walk(Path root, LeafVisitor visitor) throws IOException {
    BasicFileAttributes rootAttributes;
    try {
      // one look at the root, not two (exists, isDirectory): on S3 each look is two requests
      rootAttributes = Files.readAttributes(root, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      LOG.info("Table root {} does not exist (yet): no files", root);
      return false;
    }
    if (!rootAttributes.isDirectory()) {
      throw new TableDefinitionException(
          "The table path " + root + " is a file; a table path must be the table's root directory");
    }
    if (filter.test(new LinkedHashMap<>())) {
      descend(root, 0, new LinkedHashMap<>(), visitor);
    }
    return true;
  }

  List<IgnoredEntry> ignored() {
    return Collections.unmodifiableList(ignored);
  }

  /**
   * Entries of a directory in name order, hidden names left out; none if the directory vanished (a
   * concurrent delete). Other failures (permissions) propagate: a partition that matches but cannot
   * be read must not silently read as empty.
   */
  List<Path> visibleEntries(Path dir) throws IOException {
    List<Path> entries = new ArrayList<>();
    try {
      if (Stores.isStore(dir) && opener == NIO) {
        for (Stores.Entry entry : Stores.list(dir)) {
          if (!PartFileName.isHidden(entry.path().getFileName().toString())) {
            entries.add(entry.path());
            listedAttributes.put(entry.path(), entry);
          }
        }
      } else {
        try (DirectoryStream<Path> stream = opener.open(dir)) {
          for (Path entry : stream) {
            if (!PartFileName.isHidden(entry.getFileName().toString())) {
              entries.add(entry);
            }
          }
        }
      }
    } catch (NoSuchFileException e) {
      LOG.info("Directory {} vanished while listing (deleted concurrently)", dir);
      return List.of();
    }
    Collections.sort(entries);
    return entries;
  }

  /**
   * The attributes of an entry following symbolic links, or null (recorded or logged) when it
   * vanished meanwhile or is a dangling link.
   */
  BasicFileAttributes attributes(Path entry) throws IOException {
    BasicFileAttributes listed = listedAttributes.remove(entry);
    if (listed != null) {
      return listed;
    }
    try {
      return Files.readAttributes(entry, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      if (Files.isSymbolicLink(entry)) {
        ignore(entry, "a symbolic link to nothing (" + e.getMessage() + ")");
      } else {
        LOG.debug("{} vanished while listing (deleted concurrently)", entry);
      }
      return null;
    }
  }

  void ignore(Path entry, String reason) {
    LOG.warn("Not reading {}: {}", entry, reason);
    ignored.add(IgnoredEntry.of(entry.toString(), reason));
  }

  private void descend(
      Path dir, int level, LinkedHashMap<String, String> partition, LeafVisitor visitor)
      throws IOException {
    if (level == keys.size()) {
      visitor.leaf(dir, partition);
      return;
    }
    String key = keys.get(level);
    for (Path entry : visibleEntries(dir)) {
      String name = entry.getFileName().toString();
      if (!PartitionPath.isSegmentFor(name, key)) {
        ignore(
            entry,
            describe(entry)
                + " where partition directories "
                + PartitionPath.escape(key)
                + "=<value> are expected (level "
                + (level + 1)
                + " of "
                + keys
                + ")");
        continue;
      }
      LinkedHashMap<String, String> next = new LinkedHashMap<>(partition);
      next.put(key, PartitionPath.segmentValue(name, key, defaultName));
      if (!filter.test(next)) {
        continue; // pruned before anything below (or the entry itself) is touched
      }
      BasicFileAttributes attrs = attributes(entry);
      if (attrs == null) {
        continue;
      }
      if (attrs.isDirectory()) {
        descend(entry, level + 1, next, visitor);
      } else {
        ignore(
            entry,
            "a file at partition level "
                + (level + 1)
                + " of "
                + keys
                + "; data files are only read inside the last partition level");
      }
    }
  }

  /** "a file" / "a directory" / "an entry" for messages; never follows links. */
  private static String describe(Path entry) {
    try {
      BasicFileAttributes attrs =
          Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return attrs.isDirectory() ? "a directory" : attrs.isRegularFile() ? "a file" : "an entry";
    } catch (IOException e) {
      return "an entry";
    }
  }
}
