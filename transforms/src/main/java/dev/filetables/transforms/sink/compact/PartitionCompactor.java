package dev.filetables.transforms.sink.compact;

import dev.filetables.io.files.CompactedFileName;
import dev.filetables.io.files.FileOps;
import dev.filetables.io.files.PartFileName;
import dev.filetables.io.files.ReplacedFiles;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.FileMerger;
import dev.filetables.transforms.sink.WrittenFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.beam.sdk.annotations.Internal;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a group of closed, hidden part files of one partition into one visible file: merges them
 * into a hidden file named after the inputs ({@link CompactedFileName}), renames it to its visible
 * name, then deletes the inputs (and whatever else the writer derived from their names, such as
 * segments). A single input is just renamed.
 *
 * <h2>Idempotent for any replay of durable files</h2>
 *
 * The caller (the publish step, {@code sink.publish}) hands over only files whose <em>closing</em>
 * is durable (in a completed checkpoint), so their contents never change and their rows are never
 * written into another file; the group they form may still be formed again after a restore, the
 * same or with more files. Every step keeps this invariant: <b>each input's rows are in exactly one
 * visible file, the input itself (hidden), its visible rename, or one visible merged file whose
 * sidecar names it</b>.
 *
 * <ol>
 *   <li>One listing of the directory finds what earlier attempts did: visible merged files and the
 *       inputs their sidecars ({@link ReplacedFiles}) name, and hidden merged files that were never
 *       published.
 *   <li>An input that a visible merged file names, or whose visible rename exists, is done: it is
 *       not merged again (what is left of it is deleted), and the visible file is returned again
 *       (the step after a restore has forgotten it). So a replay never merges a subset into a
 *       second output, and a group re-formed with more files merges only the files not yet
 *       published.
 *   <li>A hidden merged file of this write (and a sidecar without visible merged file) is left over
 *       from a failed attempt: a partition's groups are compacted one at a time by one keyed step,
 *       each published before the next starts. It is deleted, so nothing hidden is left behind when
 *       the group is re-formed differently (a replay of the same group writes it again).
 *   <li>The remaining inputs: the merge (over any partial output of the same name), the sidecar
 *       (before the rename, so a visible merged file always says what it holds), the rename (the
 *       commit point: inputs are hidden, so rows are in one visible file before and after it), and
 *       the deletion of the inputs.
 * </ol>
 *
 * An input missing with no visible file holding it is an error (someone else deleted it).
 */
@Internal
public final class PartitionCompactor {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionCompactor.class);
  private static final String IN_PROGRESS = ".inprogress";

  private final String writeUuid;
  private final FileMerger merger;

  public PartitionCompactor(String writeUuid, FileMerger merger) {
    this.writeUuid = writeUuid;
    this.merger = merger;
  }

  /**
   * Publishes the files of {@code group} (hidden, same partition directory) and returns the visible
   * files that hold their rows: the new merged (or renamed) file, and the files earlier attempts
   * published for part of the group (each returned when all of its inputs are in the group, so its
   * row count is known). Merged files keep a hidden sidecar naming their inputs ({@link
   * ReplacedFiles}).
   */
  public List<WrittenFile> compact(List<WrittenFile> group) throws IOException {
    Plan plan = plan(group);
    for (Path hidden : plan.doneInputs) {
      // an earlier attempt published it (merged or alone): only the clean-up may be left
      if (plan.listing.visibleMergedOf.containsKey(hidden.getFileName().toString())) {
        FileOps.deleteQuietly(hidden);
      }
      deleteDerived(hidden);
    }
    for (String mergedName : plan.mergedBefore) {
      if (!plan.reportable(mergedName)) {
        LOG.warn(
            "{} holds files of a group in {} and others ({}): not reported again",
            mergedName,
            plan.dir,
            plan.listing.inputsOf.get(mergedName));
      }
    }
    if (plan.remaining.size() < group.size()) {
      LOG.info(
          "{} of {} files of a group in {} were published by an earlier attempt",
          group.size() - plan.remaining.size(),
          group.size(),
          plan.dir);
    }
    for (Path garbage : plan.listing.unpublished) {
      LOG.info(
          "Deleting {}: an earlier attempt merged files of this partition but never published it",
          garbage);
      FileOps.deleteQuietly(garbage);
    }
    List<WrittenFile> published = plan.publishedBefore();
    if (!plan.remaining.isEmpty()) {
      published.add(
          plan.remaining.size() == 1
              ? rename(plan.remaining.get(0))
              : merge(plan.dir, plan.remaining));
    }
    return published;
  }

  /**
   * The visible files {@link #compact} will return for {@code group} if nothing else changes the
   * directory before: those earlier attempts published, and the one it will publish (its
   * deterministic name: the rename of a single input, or the merged name derived from the inputs; a
   * merged file's size is the sum of its inputs' until it exists). Changes nothing.
   */
  public List<WrittenFile> preview(List<WrittenFile> group) throws IOException {
    Plan plan = plan(group);
    List<WrittenFile> visible = plan.publishedBefore();
    if (plan.remaining.size() == 1) {
      WrittenFile only = plan.remaining.get(0);
      visible.add(
          only.withPath(
              TablePaths.of(only.path())
                  .resolveSibling(
                      PartFileName.visibleOf(TablePaths.of(only.path()).getFileName().toString()))
                  .toString()));
    } else if (!plan.remaining.isEmpty()) {
      List<String> names = new ArrayList<>();
      long bytes = 0;
      for (WrittenFile file : plan.remaining) {
        names.add(TablePaths.of(file.path()).getFileName().toString());
        bytes += file.sizeBytes();
      }
      String extension =
          PartFileName.parse(names.get(0)).map(PartFileName.Parts::extension).orElse("");
      Path merged = plan.dir.resolve(CompactedFileName.visible(writeUuid, names, extension));
      WrittenFile described = describe(plan.remaining, merged, bytes);
      visible.add(described);
    }
    return visible;
  }

  /** What a compaction of {@code group} finds in its directory and what is left for it to do. */
  private Plan plan(List<WrittenFile> group) throws IOException {
    if (group.isEmpty()) {
      throw new IllegalArgumentException("nothing to compact");
    }
    Path dir = TablePaths.of(group.get(0).path()).getParent();
    Plan plan = new Plan(dir, Listing.of(dir, writeUuid));
    for (WrittenFile file : group) {
      plan.byName.put(TablePaths.of(file.path()).getFileName().toString(), file);
    }
    for (Map.Entry<String, WrittenFile> entry : plan.byName.entrySet()) {
      String name = entry.getKey();
      Path hidden = dir.resolve(name);
      Path renamed = dir.resolve(PartFileName.visibleOf(name));
      Path merged = plan.listing.visibleMergedOf.get(name);
      if (merged != null) {
        plan.doneInputs.add(hidden);
        plan.mergedBefore.add(merged.getFileName().toString());
      } else if (!Files.exists(hidden, LinkOption.NOFOLLOW_LINKS)
          && Files.exists(renamed, LinkOption.NOFOLLOW_LINKS)) {
        plan.doneInputs.add(hidden);
        plan.renamedBefore.add(entry.getValue().withPath(renamed.toString()));
      } else {
        plan.remaining.add(entry.getValue());
      }
    }
    return plan;
  }

  /** The state of one group's compaction: what earlier attempts did, what remains. */
  private static final class Plan {
    final Path dir;
    final Listing listing;
    final Map<String, WrittenFile> byName = new LinkedHashMap<>();
    final List<Path> doneInputs = new ArrayList<>();
    final Set<String> mergedBefore = new TreeSet<>();
    final List<WrittenFile> renamedBefore = new ArrayList<>();
    final List<WrittenFile> remaining = new ArrayList<>();

    Plan(Path dir, Listing listing) {
      this.dir = dir;
      this.listing = listing;
    }

    /** A visible merged file is reported again when all of its inputs are in the group. */
    boolean reportable(String mergedName) {
      return byName.keySet().containsAll(listing.inputsOf.get(mergedName));
    }

    List<WrittenFile> publishedBefore() throws IOException {
      List<WrittenFile> published = new ArrayList<>(renamedBefore);
      for (String mergedName : mergedBefore) {
        if (reportable(mergedName)) {
          List<WrittenFile> parts = new ArrayList<>();
          listing.inputsOf.get(mergedName).forEach(n -> parts.add(byName.get(n)));
          published.add(describe(parts, dir.resolve(mergedName)));
        }
      }
      return published;
    }
  }

  /**
   * Publishes each file of {@code files} by itself: renamed to its visible name, its segments
   * deleted. For files no merged file can hold (no compaction): idempotent, a file found under its
   * visible name is done.
   */
  public static List<WrittenFile> publishAlone(List<WrittenFile> files) throws IOException {
    List<WrittenFile> visible = new ArrayList<>(files.size());
    for (WrittenFile file : files) {
      visible.add(rename(file));
    }
    return visible;
  }

  private static WrittenFile rename(WrittenFile only) throws IOException {
    Path hidden = TablePaths.of(only.path());
    Path visible = FileOps.publish(hidden);
    CompactionFailpoints.reached(CompactionFailpoints.Point.AFTER_RENAME, visible.toString());
    deleteDerived(hidden);
    return only.withPath(visible.toString());
  }

  private WrittenFile merge(Path dir, List<WrittenFile> group) throws IOException {
    List<Path> inputs = new ArrayList<>(group.size());
    List<String> names = new ArrayList<>(group.size());
    for (WrittenFile file : group) {
      Path path = TablePaths.of(file.path());
      inputs.add(path);
      names.add(path.getFileName().toString());
    }
    String extension =
        PartFileName.parse(names.get(0)).map(PartFileName.Parts::extension).orElse("");
    String hiddenName = CompactedFileName.hidden(writeUuid, names, extension);
    Path hidden = dir.resolve(hiddenName);
    Path visible = dir.resolve(PartFileName.visibleOf(hiddenName));
    for (Path input : inputs) {
      if (!Files.exists(input, LinkOption.NOFOLLOW_LINKS)) {
        throw new NoSuchFileException(
            input.toString(),
            visible.toString(),
            "compaction input is missing and no visible file holds it: deleted by someone else"
                + " while the write was running?");
      }
    }
    FileOps.deleteQuietly(hidden); // a partial output of a failed attempt
    OutputStream out = FileOps.createForPublish(dir, hiddenName); // published unread
    try {
      merger.merge(inputs, out);
    } catch (IOException | RuntimeException e) {
      FileOps.deleteQuietly(hidden);
      throw e;
    }
    CompactionFailpoints.reached(CompactionFailpoints.Point.AFTER_MERGE, visible.toString());
    ReplacedFiles.write(
        visible, names); // before the rename: a visible merged file is always listed
    FileOps.publish(hidden);
    CompactionFailpoints.reached(CompactionFailpoints.Point.AFTER_PUBLISH, visible.toString());
    for (Path input : inputs) {
      FileOps.deleteQuietly(input);
      deleteDerived(input);
    }
    CompactionFailpoints.reached(CompactionFailpoints.Point.AFTER_DELETE, visible.toString());
    WrittenFile merged = describe(group, visible);
    LOG.debug(
        "Compacted {} files of {} into {} ({} rows, {} bytes)",
        group.size(),
        dir,
        visible,
        merged.rowCount(),
        merged.sizeBytes());
    return merged;
  }

  /** The visible merged file of {@code inputs}: their rows and time range, its size. */
  private static WrittenFile describe(List<WrittenFile> inputs, Path visible) throws IOException {
    return describe(inputs, visible, Files.size(visible));
  }

  private static WrittenFile describe(List<WrittenFile> inputs, Path visible, long sizeBytes) {
    long rows = 0;
    Instant min = inputs.get(0).minTimestamp();
    Instant max = inputs.get(0).maxTimestamp();
    for (WrittenFile file : inputs) {
      rows += file.rowCount();
      min = file.minTimestamp().isBefore(min) ? file.minTimestamp() : min;
      max = file.maxTimestamp().isAfter(max) ? file.maxTimestamp() : max;
    }
    return WrittenFile.of(
        inputs.get(0).partitionPath(), visible.toString(), rows, sizeBytes, min, max);
  }

  /** What earlier compactions of this write left in a partition directory. */
  private static final class Listing {
    /** Input name → the visible merged file whose sidecar names it. */
    final Map<String, Path> visibleMergedOf = new HashMap<>();

    /** Visible merged file name → the inputs its sidecar names. */
    final Map<String, List<String>> inputsOf = new HashMap<>();

    /**
     * Hidden merged files of this write, and sidecars of merged files that are not visible. A
     * partition is compacted by one keyed step, one group at a time, each published before the next
     * starts: at the start of a compaction every such file is left over from a failed attempt and
     * will never be published (a replay writes its group's merged file again).
     */
    final List<Path> unpublished = new ArrayList<>();

    static Listing of(Path dir, String writeUuid) throws IOException {
      Listing listing = new Listing();
      try (Stream<Path> entries = Files.list(dir)) {
        for (Path entry : (Iterable<Path>) entries::iterator) {
          String name = entry.getFileName().toString();
          if (ReplacedFiles.isSidecar(name)) {
            Path merged = ReplacedFiles.mergedOf(entry);
            if (Files.exists(merged, LinkOption.NOFOLLOW_LINKS)) {
              List<String> inputs = ReplacedFiles.read(merged);
              inputs.forEach(n -> listing.visibleMergedOf.put(n, merged));
              listing.inputsOf.put(merged.getFileName().toString(), inputs);
            } else if (isOfWrite(merged.getFileName().toString(), writeUuid)) {
              listing.unpublished.add(entry);
            }
          } else if (PartFileName.isInProgress(name)
              && CompactedFileName.isCompacted(name)
              && isOfWrite(name, writeUuid)) {
            listing.unpublished.add(entry);
          }
        }
      } catch (NoSuchFileException e) {
        // no directory: nothing published
      }
      return listing;
    }

    private static boolean isOfWrite(String name, String writeUuid) {
      return PartFileName.parse(name).map(parts -> parts.uuid().equals(writeUuid)).orElse(false);
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
    // of every attempt: segments and hidden part files of failed or stale attempts
    String base = PartFileName.untagged(name);
    String prefix = base.substring(0, base.length() - IN_PROGRESS.length()) + ".";
    List<Path> derived = new ArrayList<>();
    int deleted = 0;
    try (Stream<Path> entries = Files.list(hiddenPart.getParent())) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String other = entry.getFileName().toString();
        if (other.equals(name)
            || (PartFileName.isInProgress(other) && PartFileName.untagged(other).equals(base))) {
          // the part file itself, or as another attempt wrote it (a pending upload on S3): a
          // delete of its own aborts the upload
          deleted += FileOps.deleteQuietly(entry) ? 1 : 0;
        } else if (other.startsWith(prefix) && other.endsWith(IN_PROGRESS)) {
          derived.add(entry); // segments: plain files, deleted in one batch where the store can
        }
      }
    } catch (NoSuchFileException e) {
      // the directory is gone: nothing derived is left
    }
    FileOps.deleteHiddenQuietly(derived);
    return deleted + derived.size();
  }
}
