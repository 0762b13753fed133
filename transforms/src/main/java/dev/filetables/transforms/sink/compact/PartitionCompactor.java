package dev.filetables.transforms.sink.compact;

import dev.filetables.io.files.CompactedFileName;
import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.ReplacedFiles;
import dev.filetables.io.format.FileMerger;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.stream.Stream;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a group of closed, hidden part files of one partition into one visible file: merges them
 * into a hidden file named after the inputs ({@link CompactedFileName}), renames it to its visible
 * name, then deletes the inputs (and whatever else the writer derived from their names, such as
 * segments). A single input is just renamed.
 *
 * <p>Idempotent, so a retry after a failure at any step finishes the job: if the visible merged file
 * exists, an earlier attempt published it and only the deletion of inputs is left; otherwise every
 * input still exists (inputs are deleted only after the merged file is visible), and the merge is
 * done again over any partial hidden output. Rows are never visible twice: inputs are hidden, and
 * only the merged file is ever renamed.
 */
final class PartitionCompactor {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionCompactor.class);
  private static final String IN_PROGRESS = ".inprogress";

  private final String writeUuid;
  private final FileMerger merger;

  PartitionCompactor(String writeUuid, FileMerger merger) {
    this.writeUuid = writeUuid;
    this.merger = merger;
  }

  /**
   * Publishes the files of {@code group} (hidden, same partition directory) as one visible file;
   * null when an earlier attempt already published all of them. The merged file gets a hidden
   * sidecar naming its inputs ({@link ReplacedFiles}), kept with it.
   */
  WrittenFile compact(List<WrittenFile> group) throws IOException {
    if (group.isEmpty()) {
      throw new IllegalArgumentException("nothing to compact");
    }
    if (group.size() == 1) {
      WrittenFile only = group.get(0);
      Path visible = FileOps.publish(Path.of(only.path()));
      deleteDerived(Path.of(only.path()));
      return only.withPath(visible.toString());
    }
    Path dir = Path.of(group.get(0).path()).getParent();
    // A group replayed after a failure in the end-of-input drain (where stable input is processed
    // before a checkpoint) may be formed differently from the one an earlier attempt published:
    // files that a visible merged file already holds (its sidecar says so) are not merged again.
    Set<String> published = alreadyMerged(group) ? Set.of() : publishedInputs(dir);
    List<Path> inputs = new ArrayList<>(group.size());
    List<String> names = new ArrayList<>(group.size());
    List<WrittenFile> remaining = new ArrayList<>(group.size());
    for (WrittenFile file : group) {
      Path path = Path.of(file.path());
      if (published.contains(path.getFileName().toString())) {
        FileOps.deleteQuietly(path);
        deleteDerived(path);
        continue;
      }
      inputs.add(path);
      names.add(path.getFileName().toString());
      remaining.add(file);
    }
    if (remaining.size() < group.size()) {
      LOG.warn("{} of {} files of a group in {} were already published by an earlier attempt",
          group.size() - remaining.size(), group.size(), dir);
      if (remaining.isEmpty()) {
        return null;
      }
      if (remaining.size() == 1) {
        return compact(remaining);
      }
      group = remaining;
    }
    String extension = PartFileName.parse(names.get(0)).map(PartFileName.Parts::extension).orElse("");
    String hiddenName = CompactedFileName.hidden(writeUuid, names, extension);
    Path hidden = dir.resolve(hiddenName);
    Path visible = dir.resolve(PartFileName.visibleOf(hiddenName));
    if (Files.exists(visible, LinkOption.NOFOLLOW_LINKS)) {
      LOG.info("{} was published by an earlier attempt; deleting its inputs", visible);
    } else {
      for (Path input : inputs) {
        if (!Files.exists(input, LinkOption.NOFOLLOW_LINKS)) {
          throw new NoSuchFileException(
              input.toString(),
              visible.toString(),
              "compaction input is missing and the merged file is not published: deleted by"
                  + " someone else while the write was running?");
        }
      }
      merge(inputs, dir, hiddenName);
      CompactionFailpoints.reached(CompactionFailpoints.Point.AFTER_MERGE, visible.toString());
      ReplacedFiles.write(visible, names); // before the rename: a visible merged file is always listed
      FileOps.publish(hidden);
      CompactionFailpoints.reached(CompactionFailpoints.Point.AFTER_PUBLISH, visible.toString());
    }
    for (Path input : inputs) {
      FileOps.deleteQuietly(input);
      deleteDerived(input);
    }
    CompactionFailpoints.reached(CompactionFailpoints.Point.AFTER_DELETE, visible.toString());
    long rows = 0;
    Instant min = group.get(0).minTimestamp();
    Instant max = group.get(0).maxTimestamp();
    for (WrittenFile file : group) {
      rows += file.rowCount();
      min = file.minTimestamp().isBefore(min) ? file.minTimestamp() : min;
      max = file.maxTimestamp().isAfter(max) ? file.maxTimestamp() : max;
    }
    long size = Files.size(visible);
    LOG.debug("Compacted {} files of {} into {} ({} rows, {} bytes)", group.size(), dir, visible, rows, size);
    return WrittenFile.of(group.get(0).partitionPath(), visible.toString(), rows, size, min, max);
  }

  /** True if the merged file of exactly this group is visible (an exact replay). */
  private boolean alreadyMerged(List<WrittenFile> group) {
    List<String> names = new ArrayList<>();
    for (WrittenFile file : group) {
      names.add(Path.of(file.path()).getFileName().toString());
    }
    String extension = PartFileName.parse(names.get(0)).map(PartFileName.Parts::extension).orElse("");
    Path dir = Path.of(group.get(0).path()).getParent();
    return Files.exists(dir.resolve(CompactedFileName.visible(writeUuid, names, extension)));
  }

  /** The input names that visible merged files of {@code dir} hold, from their sidecars. */
  private static Set<String> publishedInputs(Path dir) throws IOException {
    Set<String> names = new HashSet<>();
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String name = entry.getFileName().toString();
        if (ReplacedFiles.isSidecar(name) && Files.exists(ReplacedFiles.mergedOf(entry))) {
          names.addAll(ReplacedFiles.read(ReplacedFiles.mergedOf(entry)));
        }
      }
    } catch (NoSuchFileException e) {
      // no directory: nothing published
    }
    return names;
  }

  private void merge(List<Path> inputs, Path dir, String hiddenName) throws IOException {
    Path target = dir.resolve(hiddenName);
    FileOps.deleteQuietly(target); // a partial output of a failed attempt
    OutputStream out = FileOps.createHidden(dir, hiddenName);
    try {
      merger.merge(inputs, out);
    } catch (IOException | RuntimeException e) {
      FileOps.deleteQuietly(target);
      throw e;
    }
  }

  /**
   * Deletes the hidden files the writer derived from a part file's hidden name (its segments,
   * {@code .part-…<ext>.<suffix>.inprogress}): once the file is published they are never needed.
   */
  static int deleteDerived(Path hiddenPart) throws IOException {
    String name = hiddenPart.getFileName().toString();
    if (!PartFileName.isInProgress(name)) {
      return 0;
    }
    String prefix = name.substring(0, name.length() - IN_PROGRESS.length()) + ".";
    int deleted = 0;
    try (Stream<Path> entries = Files.list(hiddenPart.getParent())) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String other = entry.getFileName().toString();
        if (other.startsWith(prefix) && other.endsWith(IN_PROGRESS) && FileOps.deleteQuietly(entry)) {
          deleted++;
        }
      }
    } catch (NoSuchFileException e) {
      // the directory is gone: nothing derived is left
    }
    return deleted;
  }
}
