package dev.filetables.testfixtures;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.TableListing;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.files.store.Stores;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.partition.PartitionFilter;
import dev.filetables.io.partition.PartitionValues;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * What a reader of a table sees right now: its visible data files (listed like every reader lists
 * them, names starting with '.' or '_' skipped), each read completely with the table's format, and
 * next to them the hidden files a reader skips (in-progress files and other leftovers).
 *
 * <p>Rows are handed to a {@link RowVisitor} one at a time with the table's physical schema
 * (partition columns filled from the directory), so a check over millions of rows needs no memory
 * for the rows. A file that fails to read (a truncated or half-written file) is recorded with its
 * error instead of stopping the scan.
 */
@Internal
public final class TableContents {

  /** Receives every row of every readable visible file. */
  @FunctionalInterface
  public interface RowVisitor {
    void visit(Row row, DataFile file);
  }

  /**
   * One visible file: where, its partition directory, its size and rows, or why it did not read.
   */
  public static final class VisibleFile {
    private final DataFile file;
    private final String partitionPath;
    private final long rows;
    private final String error;

    VisibleFile(DataFile file, String partitionPath, long rows, String error) {
      this.file = file;
      this.partitionPath = partitionPath;
      this.rows = rows;
      this.error = error;
    }

    public Path path() {
      return TablePaths.of(file.path());
    }

    /** Relative partition directory, e.g. {@code dt=2024-01-01/hour=07}. */
    public String partitionPath() {
      return partitionPath;
    }

    public long size() {
      return file.size();
    }

    public long modificationTimeMillis() {
      return file.modificationTimeMillis();
    }

    /** Rows read (before the error, if any). */
    public long rows() {
      return rows;
    }

    public Optional<String> error() {
      return Optional.ofNullable(error);
    }

    @Override
    public String toString() {
      return path()
          + " ("
          + rows
          + " rows, "
          + size()
          + " bytes"
          + (error == null ? "" : ", " + error)
          + ")";
    }
  }

  private final List<VisibleFile> files;
  private final List<Path> hiddenFiles;

  private TableContents(List<VisibleFile> files, List<Path> hiddenFiles) {
    this.files = Collections.unmodifiableList(files);
    this.hiddenFiles = Collections.unmodifiableList(hiddenFiles);
  }

  /** Lists and reads the table, handing each row to {@code visitor}. */
  public static TableContents scan(TableSpec table, RowVisitor visitor) throws IOException {
    TableOptions options = table.options();
    Path root = options.rootPath();
    FileFormat format = FileFormats.of(options);
    Schema fileSchema = table.fileSchema();
    Schema schema = table.physicalSchema();
    List<DataFile> dataFiles =
        TableListing.list(
            root,
            table.partitionKeys(),
            options.partitionDefaultName(),
            PartitionFilter.all(),
            Optional.empty());
    List<VisibleFile> visible = new ArrayList<>(dataFiles.size());
    for (DataFile file : dataFiles) {
      visible.add(readFile(table, format, fileSchema, schema, root, file, visitor));
    }
    return new TableContents(visible, hiddenFiles(root));
  }

  /**
   * Reads one visible file of the table completely, handing each row (partition columns filled in)
   * to {@code visitor}; returns the number of rows. Errors are thrown.
   */
  public static long readFile(TableSpec table, DataFile file, RowVisitor visitor)
      throws IOException {
    VisibleFile read =
        readFile(
            table,
            FileFormats.of(table.options()),
            table.fileSchema(),
            table.physicalSchema(),
            table.options().rootPath(),
            file,
            visitor);
    if (read.error().isPresent()) {
      throw new IOException("Could not read " + file.path() + ": " + read.error().get());
    }
    return read.rows();
  }

  /** Lists and reads the table, only counting rows. */
  public static TableContents scan(TableSpec table) throws IOException {
    return scan(table, (row, file) -> {});
  }

  private static VisibleFile readFile(
      TableSpec table,
      FileFormat format,
      Schema fileSchema,
      Schema schema,
      Path root,
      DataFile file,
      RowVisitor visitor) {
    Path path = TablePaths.of(file.path());
    String partitionPath = root.relativize(path.getParent()).toString();
    long rows = 0;
    try (SeekableByteChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = channel.size();
      try (RowReader reader =
          format.createReader(channel, size, ByteRange.of(0, size), fileSchema)) {
        Row fileRow;
        while ((fileRow = reader.next()) != null) {
          visitor.visit(withPartition(table, schema, fileRow, file.partition()), file);
          rows++;
        }
      }
      return new VisibleFile(file, partitionPath, rows, null);
    } catch (IOException | RuntimeException e) {
      return new VisibleFile(file, partitionPath, rows, e.toString());
    }
  }

  private static Row withPartition(
      TableSpec table, Schema schema, Row fileRow, Map<String, String> partition) {
    Row.Builder row = Row.withSchema(schema);
    for (Schema.Field field : schema.getFields()) {
      String name = field.getName();
      if (table.partitionKeys().contains(name)) {
        row.addValue(PartitionValues.parse(partition.get(name), field.getType()));
      } else {
        row.addValue(fileRow.getValue(name));
      }
    }
    return row.build();
  }

  /**
   * Regular files under the root whose name (or a directory's) starts with '.' or '_'. Tolerates
   * files that vanish while it walks: a running job renames and deletes hidden files.
   */
  private static List<Path> hiddenFiles(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    List<Path> hidden = new ArrayList<>();
    if (Stores.isStore(root)) {
      // the listing's own attributes: a JDK walk would stat (HEAD) every entry
      addHiddenOfStore(root, root, hidden);
      Collections.sort(hidden);
      return hidden;
    }
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<Path>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (attrs.isRegularFile() && isHidden(root.relativize(file))) {
              hidden.add(file);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
    Collections.sort(hidden);
    return hidden;
  }

  private static void addHiddenOfStore(Path root, Path dir, List<Path> hidden) throws IOException {
    List<Stores.Entry> entries;
    try {
      entries = Stores.list(dir);
    } catch (NoSuchFileException e) {
      return; // deleted while we walk
    }
    for (Stores.Entry entry : entries) {
      if (entry.isDirectory()) {
        addHiddenOfStore(root, entry.path(), hidden);
      } else if (isHidden(root.relativize(entry.path()))) {
        hidden.add(entry.path());
      }
    }
  }

  /**
   * Counts the hidden files under {@code root} while a job runs (files vanish as it goes): all of
   * them, and the segment files of open streaming part files ({@code
   * .part-…<ext>.seg-….inprogress}).
   */
  public static long[] countHiddenAndSegments(Path root) throws IOException {
    List<Path> hidden = hiddenFiles(root);
    long segments =
        hidden.stream()
            .map(p -> p.getFileName().toString())
            .filter(n -> n.contains(".seg-") && n.endsWith(".inprogress"))
            .count();
    return new long[] {hidden.size(), segments};
  }

  private static boolean isHidden(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.startsWith(".") || name.startsWith("_")) {
        return true;
      }
    }
    return false;
  }

  public List<VisibleFile> files() {
    return files;
  }

  /** Visible files that failed to read. */
  public List<VisibleFile> unreadableFiles() {
    return files.stream().filter(f -> f.error().isPresent()).collect(Collectors.toList());
  }

  /** Files readers skip: in-progress files and other leftovers. */
  public List<Path> hiddenFiles() {
    return hiddenFiles;
  }

  /** Hidden files named {@code .<...>.inprogress}. */
  public List<Path> inProgressFiles() {
    return hiddenFiles.stream()
        .filter(p -> p.getFileName().toString().endsWith(".inprogress"))
        .collect(Collectors.toList());
  }

  public long rowCount() {
    return files.stream().mapToLong(VisibleFile::rows).sum();
  }

  public long bytes() {
    return files.stream().mapToLong(VisibleFile::size).sum();
  }

  /** Partition directory → number of visible files, sorted by directory. */
  public Map<String, Integer> filesPerPartition() {
    Map<String, Integer> counts = new TreeMap<>();
    for (VisibleFile file : files) {
      counts.merge(file.partitionPath(), 1, Integer::sum);
    }
    return counts;
  }

  @Override
  public String toString() {
    return files.size()
        + " visible files ("
        + rowCount()
        + " rows, "
        + bytes()
        + " bytes, "
        + unreadableFiles().size()
        + " unreadable), "
        + hiddenFiles.size()
        + " hidden files ("
        + inProgressFiles().size()
        + " in progress)";
  }
}
