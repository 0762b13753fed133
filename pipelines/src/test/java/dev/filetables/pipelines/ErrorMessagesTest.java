package dev.filetables.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.filetables.io.table.TableDefinitionException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

class ErrorMessagesTest {

  @Test
  void prefersOurExceptionsAnywhereInTheChain() {
    Throwable wrapped =
        new RuntimeException(
            "Job execution failed.",
            new IllegalStateException(
                "Recovery is suppressed",
                new TableDefinitionException("Unsupported format 'sequencefile'")));
    assertEquals("Unsupported format 'sequencefile'", ErrorMessages.oneLine(wrapped));
  }

  @Test
  void otherwiseTheInnermostCauseWithItsType() {
    Throwable wrapped =
        foreign(new RuntimeException("outer", foreign(new IOException("disk full"))));
    assertEquals("IOException: disk full", ErrorMessages.oneLine(wrapped));
    assertEquals(
        "bad value",
        ErrorMessages.oneLine(new RuntimeException(new IllegalArgumentException("bad value"))));
    assertEquals("NullPointerException", ErrorMessages.oneLine(new NullPointerException()));
  }

  @Test
  void preferOurCodesMessageOverTheLibraryBelowIt() {
    Throwable library = foreign(new RuntimeException("ChannelInputFile@1f is not a Parquet file"));
    IOException ours =
        new IOException(
            "Cannot read /t/part-1.parquet: ChannelInputFile@1f is not a Parquet file", library);
    ours.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement("dev.filetables.transforms.ReadFn", "process", "ReadFn.java", 1)
        });
    Throwable wrapper = foreign(new RuntimeException(ours.toString(), ours));
    assertEquals(
        "Cannot read /t/part-1.parquet: ChannelInputFile@1f is not a Parquet file",
        ErrorMessages.oneLine(foreign(new RuntimeException("Job execution failed.", wrapper))));
  }

  /**
   * The exception as if thrown by library code (exceptions made here look thrown by FileTables).
   */
  private static <T extends Throwable> T foreign(T t) {
    t.setStackTrace(
        new StackTraceElement[] {new StackTraceElement("org.example.Lib", "run", "Lib.java", 1)});
    return t;
  }

  @Test
  void missingFilesAndMultiLineMessages() {
    assertEquals(
        "file not found: /x/y",
        ErrorMessages.oneLine(new RuntimeException(new NoSuchFileException("/x/y"))));
    assertEquals(
        "line one line two", ErrorMessages.oneLine(new CliException("line one\n  line two\n")));
  }
}
