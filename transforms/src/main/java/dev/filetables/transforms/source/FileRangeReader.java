package dev.filetables.transforms.source;

import dev.filetables.io.files.DataFile;
import dev.filetables.io.files.ListedFiles;
import dev.filetables.io.files.TablePaths;
import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.format.ByteRange;
import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.format.RowReader;
import dev.filetables.io.format.internal.TextCharset;
import dev.filetables.io.table.BadRecordPolicy;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.io.IOException;
import java.io.Serializable;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one range of one data file into rows of the table schema and routes what cannot be read by
 * the table's {@code source.bad-records} policy. Used by the bounded read ({@link ReadRanges}) and
 * by any other source that reads table files: create one per DoFn (it is serializable), call {@link
 * #read} per range from {@code @ProcessElement}.
 *
 * <h2>What happens to what</h2>
 *
 * <ul>
 *   <li><b>Bad record</b> (a CSV/JSON record that does not parse or convert, bytes that do not
 *       decode in the charset, a Parquet/ORC/Avro value that does not fit its column): {@code fail}
 *       throws a {@link BadRecordException} naming file, line or offset, reason and the option;
 *       {@code skip} counts it in metric {@value #NAMESPACE}/{@value #BAD_RECORDS} and logs it
 *       (bounded rate); {@code dead-letter} does the same and emits a {@link DeadLetterTable} row.
 *       Reading goes on with the next record.
 *   <li><b>Bad file</b>: the file cannot be opened (permissions), is not a file of the format
 *       (empty or truncated Parquet/ORC/Avro, a corrupt footer or header), a block/row group/stripe
 *       is corrupt, or its partition directory holds a value its column cannot take (e.g. {@code
 *       hour=abc} for an INT). The policy applies as for a record (metric {@value #BAD_FILES}, one
 *       dead-letter row of kind {@code file} with the offset where reading stopped); the rows read
 *       before that point are kept, so the outcome depends only on the file's bytes (deterministic
 *       on retry). A footer or header that cannot be read fails every range of the file the same
 *       way: only the range starting at byte 0 reports it, so a broken file gives one dead letter,
 *       not one per range.
 *   <li><b>Vanished file</b> (deleted between listing and reading): never an error, whatever the
 *       policy: a warning and metric {@value #VANISHED_FILES}. The listing is a snapshot and the
 *       file has left the table since (retention, a re-written partition); failing would make every
 *       read race with clean-up jobs, and no retry can bring it back. A file an offline compaction
 *       replaced since the listing is not vanished: it is read under its hidden grace name until
 *       the grace period has passed ({@link ListedFiles}); after it, a range that is its whole file
 *       is read from the range of the merged file that holds its rows, if the merged file's sidecar
 *       records it ({@link ListedFiles#holderOf}).
 *   <li><b>Empty file</b>: 0 rows for CSV and JSON (not an error); a 0-byte Parquet, ORC or Avro
 *       file is not a valid file of its format and is a bad file (orc-core itself would read a
 *       0-byte ORC file as empty, as Hive writes them; FileTables does not).
 * </ul>
 */
@Internal
public final class FileRangeReader implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(FileRangeReader.class);

  /** Metric namespace of the counters below. */
  public static final String NAMESPACE = "filetables.source";

  /** Bad records skipped or dead-lettered. */
  public static final String BAD_RECORDS = "bad-records";

  /** Files (or ranges) that could not be read to their end, skipped or dead-lettered. */
  public static final String BAD_FILES = "bad-files";

  /** Rows written to the dead-letter table. */
  public static final String DEAD_LETTERS = "dead-letters";

  /** Files deleted between listing and reading. */
  public static final String VANISHED_FILES = "vanished-files";

  private static final String HOW_TO_CONTINUE =
      "; to read on past bad data set 'source.bad-records' = 'skip' (count and log) or 'dead-letter'"
          + " (with 'source.bad-records.dead-letter.path') in the table options";

  private final TableSpec table;
  private final BadRecordPolicy policy;

  private transient FileFormat format;
  private transient RowAssembler assembler;
  private transient @Nullable Charset textCharset;
  private transient Counter badRecords;
  private transient Counter badFiles;
  private transient Counter deadLetters;
  private transient Counter vanishedFiles;

  public FileRangeReader(TableSpec table) {
    this.table = table;
    this.policy = table.options().badRecordPolicy();
  }

  public BadRecordPolicy policy() {
    return policy;
  }

  /** What one {@link #read} did. */
  public static final class Result {
    private long rows;
    private long badRecords;
    private boolean badFile;
    private boolean vanished;

    /** Rows emitted. */
    public long rows() {
      return rows;
    }

    /** Bad records skipped or dead-lettered. */
    public long badRecords() {
      return badRecords;
    }

    /** True when the range could not be read to its end (or not at all). */
    public boolean badFile() {
      return badFile;
    }

    /** True when the file no longer existed. */
    public boolean vanished() {
      return vanished;
    }

    @Override
    public String toString() {
      return "rows="
          + rows
          + ", badRecords="
          + badRecords
          + ", badFile="
          + badFile
          + ", vanished="
          + vanished;
    }
  }

  private void init() {
    if (format != null) {
      return;
    }
    TableOptions options = table.options();
    format = FileFormats.forPolicyReading(options);
    assembler = new RowAssembler(table);
    String charsetName = options.formatOptions().get("charset");
    textCharset =
        (format.name().equals("csv") || format.name().equals("json"))
            ? (charsetName == null
                ? TextCharset.UTF_8.charset()
                : Charset.forName(charsetName.trim()))
            : null;
    badRecords = Metrics.counter(NAMESPACE, BAD_RECORDS);
    badFiles = Metrics.counter(NAMESPACE, BAD_FILES);
    deadLetters = Metrics.counter(NAMESPACE, DEAD_LETTERS);
    vanishedFiles = Metrics.counter(NAMESPACE, VANISHED_FILES);
  }

  /**
   * Reads {@code range}: rows of {@link TableSpec#schema()} go to {@code rows}, {@link
   * DeadLetterTable} rows to {@code deadLetters} (only with the {@code dead-letter} policy).
   *
   * @throws BadRecordException with the {@code fail} policy, for the first bad record or file
   * @throws IOException only for failures of the receivers
   */
  public Result read(FileRange range, Consumer<Row> rows, Consumer<Row> deadLetters)
      throws IOException {
    try (Cursor cursor = open(range)) {
      for (Step step = cursor.next(); step != null; step = cursor.next()) {
        step.taken();
        if (step.row() != null) {
          rows.accept(step.row());
        } else if (step.deadLetter() != null) {
          deadLetters.accept(step.deadLetter());
        }
      }
      return cursor.result;
    }
  }

  /**
   * Opens {@code range} for reading step by step, for a source that must be able to stop between
   * records and resume later (the watched source): each {@link Cursor#next} is one record of the
   * range, a row or a bad record, so "steps done" is a position that survives a restore.
   */
  public Cursor open(FileRange range) {
    init();
    return new Cursor(range);
  }

  /**
   * One record's outcome: a row, a bad record or bad file (with its dead-letter row under the
   * {@code dead-letter} policy, else none). A bad file is the last step of its range.
   */
  public static final class Step {
    private final @Nullable Row row;
    private final @Nullable Row deadLetter;
    private @Nullable Runnable report;

    private Step(@Nullable Row row, @Nullable Row deadLetter, @Nullable Runnable report) {
      this.row = row;
      this.deadLetter = deadLetter;
      this.report = report;
    }

    /**
     * Counts (metrics) and logs this step's bad data, once: call it when the step is taken for good
     * (the watched source: after its claim), so a step taken again after a restore is counted once.
     */
    public void taken() {
      Runnable r = report;
      report = null;
      if (r != null) {
        r.run();
      }
    }

    /** The row, or null for bad data. */
    public @Nullable Row row() {
      return row;
    }

    /** The dead-letter row of bad data under the {@code dead-letter} policy; else null. */
    public @Nullable Row deadLetter() {
      return deadLetter;
    }
  }

  /**
   * The records of one range, one {@link Step} at a time. The sequence of steps depends only on the
   * file's bytes, so a reader resuming after {@code n} steps may {@link #skip} them: skipped steps
   * are neither counted, logged nor dead-lettered again (they were, when first taken). Counting and
   * logging of a step's bad data wait for {@link Step#taken}.
   */
  public final class Cursor implements AutoCloseable {
    private final FileRange range;
    private final Result result = new Result();
    private @Nullable SeekableByteChannel channel;
    private @Nullable RowReader reader;
    private Object @Nullable [] constants;
    private boolean started;
    private boolean ended;

    /** While true, bad data is not reported (the steps were taken before a restore). */
    private boolean replaying;

    /** The range ended in a bad file reported here (the range at byte 0 reports a bad footer). */
    private boolean badFileReported;

    private final List<Row> letters = new ArrayList<>(1);
    private final List<Runnable> reports = new ArrayList<>(1);

    private Cursor(FileRange range) {
      this.range = range;
    }

    /** What this cursor has read so far. */
    public Result result() {
      return result;
    }

    /**
     * Steps over the first {@code steps} steps without reporting them.
     *
     * @return the number of steps skipped: fewer than {@code steps} when the range ended first
     */
    public long skip(long steps) throws IOException {
      replaying = true;
      try {
        long done = 0;
        while (done < steps && next() != null) {
          done++;
        }
        return done;
      } finally {
        replaying = false;
      }
    }

    /**
     * The next step, or null at the end of the range (also when the file was deleted since it was
     * listed: never an error, see the class comment).
     *
     * @throws BadRecordException with the {@code fail} policy, for a bad record or file
     */
    public @Nullable Step next() throws IOException {
      if (ended) {
        return null;
      }
      letters.clear();
      reports.clear();
      if (!started) {
        started = true;
        if (!start()) {
          return endWith();
        }
      }
      Row row;
      try {
        row = reader.next();
      } catch (NoSuchFileException e) {
        vanished("while it was read");
        return endWith();
      } catch (BadRecordException e) {
        if (!e.readerCanContinue()) {
          reportBadFile(e.byteOffset(), reader.position(), e);
          return endWith();
        }
        badRecord(range, reader, e, result, this::letter, this::report);
        return badData();
      } catch (IOException | RuntimeException e) {
        reportBadFile(reader.byteOffset(), reader.position(), e);
        return endWith();
      }
      if (row == null) {
        return endWith();
      }
      result.rows++;
      return new Step(assembler.assemble(row, constants), null, null);
    }

    /** Opens the file and its reader; false when there is nothing to read (bad, vanished). */
    private boolean start() throws IOException {
      DataFile file = range.file();
      try {
        constants = assembler.constantsFor(file);
      } catch (IllegalArgumentException e) {
        // a partition directory value that does not parse as its column (e.g. hour=abc): the whole
        // file is unusable; reported once, from the range at byte 0
        if (range.range().start() == 0) {
          reportBadFile(0, "its partition directory", e);
        } else {
          result.badFile = true;
        }
        return false;
      }
      long size = file.size();
      ByteRange bytes = range.range();
      try {
        channel = ListedFiles.open(TablePaths.of(file.path()));
      } catch (NoSuchFileException e) {
        Optional<ListedFiles.Holder> holder = holderOfWholeFile();
        if (holder.isEmpty()) {
          vanished("after it was listed; not read");
          return false;
        }
        // replaced, its grace period over: its rows are read from the merged file holding them
        size = holder.get().size();
        bytes = ByteRange.of(holder.get().start(), holder.get().end());
        try {
          channel = ListedFiles.open(holder.get().merged());
        } catch (NoSuchFileException gone) {
          vanished("after it was listed, and so was the merged file holding it; not read");
          return false;
        } catch (IOException | RuntimeException failed) {
          reportBadFile(range.range().start(), "opening " + holder.get().merged(), failed);
          return false;
        }
        if (!replaying) {
          LOG.info(
              "Table `{}`: {} was replaced by an offline compaction and its grace period is over;"
                  + " reading its rows from {} {}",
              table.name(),
              file.path(),
              holder.get().merged(),
              bytes);
        }
      } catch (IOException | RuntimeException e) {
        reportBadFile(range.range().start(), "opening the file", e);
        return false;
      }
      try {
        reader = format.createReader(channel, size, bytes, assembler.fileSchema());
        return true;
      } catch (NoSuchFileException e) {
        vanished("while it was read");
        return false;
      } catch (IOException | RuntimeException e) {
        // The footer/header is the same for every range: report it once, from the first range.
        if (range.range().start() == 0) {
          String unit = metadataUnit(format.name());
          reportBadFile(0, "reading its " + format.name() + " " + unit, e);
        } else {
          result.badFile = true;
        }
        return false;
      }
    }

    /** Where a file of the format keeps what every range needs before its first record. */
    private String metadataUnit(String formatName) {
      switch (formatName) {
        case "parquet":
        case "orc":
          return "footer";
        case "avro":
          return "header";
        default:
          return "start";
      }
    }

    /**
     * For a range that is its whole file: the merged file of an offline compaction holding that
     * file's rows, if one does (a range of a file that was split maps to no range of it).
     */
    private Optional<ListedFiles.Holder> holderOfWholeFile() throws IOException {
      if (!range.range().equals(ByteRange.of(0, range.file().size()))) {
        return Optional.empty();
      }
      return ListedFiles.holderOf(TablePaths.of(range.file().path()));
    }

    private void vanished(String when) {
      result.vanished = true;
      if (!replaying) {
        vanishedFiles.inc();
        LOG.warn(
            "Table `{}`: {} was deleted {} (metric {}/{})",
            table.name(),
            range.file().path(),
            when,
            NAMESPACE,
            VANISHED_FILES);
      }
    }

    private void reportBadFile(long byteOffset, String position, Throwable e)
        throws BadRecordException {
      badFile(range, byteOffset, position, e, result, this::letter, this::report);
      badFileReported = true;
    }

    private void report(Runnable report) {
      if (!replaying) {
        reports.add(report);
      }
    }

    private void letter(Row deadLetter) {
      letters.add(deadLetter);
    }

    /** The step of the bad data just reported (with its dead letter, if any). */
    private Step badData() {
      return new Step(
          null,
          letters.isEmpty() ? null : letters.get(0),
          reports.isEmpty() ? null : reports.get(0));
    }

    /**
     * Ends the range: its last step is the bad file reported here, if any (a bad file that another
     * range reports is not a step of this one).
     */
    private @Nullable Step endWith() {
      ended = true;
      close();
      return badFileReported ? badData() : null;
    }

    @Override
    public void close() {
      try (SeekableByteChannel c = channel;
          RowReader r = reader) {
        // closes both
      } catch (IOException e) {
        LOG.debug("Closing {} failed", range.file().path(), e);
      } finally {
        channel = null;
        reader = null;
      }
    }
  }

  private void badRecord(
      FileRange range,
      RowReader reader,
      BadRecordException e,
      Result result,
      Consumer<Row> out,
      Consumer<Runnable> report)
      throws BadRecordException {
    String file = range.file().path();
    String where =
        e.lineNumber() > 0
            ? "line " + e.lineNumber()
            : e.byteOffset() >= 0 ? "byte offset " + e.byteOffset() : reader.position();
    if (policy == BadRecordPolicy.FAIL) {
      throw new BadRecordException(
          "Bad record in "
              + file
              + " (range "
              + range.range()
              + "): "
              + e.getMessage()
              + HOW_TO_CONTINUE,
          e);
    }
    result.badRecords++;
    report.accept(
        () -> {
          badRecords.inc();
          BadRecordLog.warn(
              "Table `"
                  + table.name()
                  + "`: "
                  + verb()
                  + " bad record in "
                  + file
                  + " at "
                  + where
                  + ": "
                  + e.reason());
          if (policy == BadRecordPolicy.DEAD_LETTER) {
            deadLetters.inc();
          }
        });
    if (policy == BadRecordPolicy.DEAD_LETTER) {
      byte[] raw = e.raw();
      out.accept(
          DeadLetterTable.row(
              file,
              DeadLetterTable.KIND_RECORD,
              e.lineNumber(),
              e.byteOffset(),
              where,
              raw,
              raw == null ? null : strictText(raw),
              errorClass(e),
              e.reason(),
              Instant.now()));
    }
  }

  private void badFile(
      FileRange range,
      long byteOffset,
      String position,
      Throwable e,
      Result result,
      Consumer<Row> out,
      Consumer<Runnable> report)
      throws BadRecordException {
    result.badFile = true;
    String file = range.file().path();
    long offset = byteOffset >= 0 ? byteOffset : range.range().start();
    String reason = reason(e);
    String kept =
        result.rows > 0
            ? " (" + result.rows + " row(s) of range " + range.range() + " before it were read)"
            : "";
    if (policy == BadRecordPolicy.FAIL) {
      throw new BadRecordException(
          "Cannot read "
              + file
              + " ("
              + position
              + ", range "
              + range.range()
              + "): "
              + reason
              + kept
              + HOW_TO_CONTINUE,
          e);
    }
    report.accept(
        () -> {
          badFiles.inc();
          BadRecordLog.warn(
              "Table `"
                  + table.name()
                  + "`: "
                  + verb()
                  + " unreadable data of "
                  + file
                  + " from "
                  + position
                  + " to the end of range "
                  + range.range()
                  + ": "
                  + reason
                  + kept);
          if (policy == BadRecordPolicy.DEAD_LETTER) {
            deadLetters.inc();
          }
        });
    if (policy == BadRecordPolicy.DEAD_LETTER) {
      out.accept(
          DeadLetterTable.row(
              file,
              DeadLetterTable.KIND_FILE,
              -1,
              offset,
              position + " (range " + range.range() + ")",
              null,
              null,
              errorClass(e),
              reason + kept,
              Instant.now()));
    }
  }

  private String verb() {
    return policy == BadRecordPolicy.SKIP ? "skipped" : "dead-lettered";
  }

  /**
   * The record as text when it decodes strictly in the table's charset; else null (base64 only).
   */
  private @Nullable String strictText(byte[] raw) {
    if (textCharset == null) {
      return null;
    }
    try {
      return textCharset
          .newDecoder()
          .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
          .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(raw))
          .toString();
    } catch (java.nio.charset.CharacterCodingException notText) {
      return null;
    }
  }

  /** The class that says what went wrong: the innermost cause's (a library's exception) if any. */
  private static String errorClass(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getName();
  }

  private static String reason(Throwable e) {
    if (e instanceof BadRecordException) {
      return ((BadRecordException) e).reason();
    }
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage();
      String text = message == null || message.isBlank() ? t.getClass().getSimpleName() : message;
      if (t instanceof java.nio.file.AccessDeniedException) {
        text = "permission denied: " + message;
      }
      if (sb.indexOf(text) < 0) {
        if (sb.length() > 0) {
          sb.append(": ");
        }
        sb.append(text);
      }
      if (sb.length() > 500) {
        break;
      }
    }
    return sb.toString();
  }
}
