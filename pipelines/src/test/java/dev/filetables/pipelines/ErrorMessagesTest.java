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
                "Recovery is suppressed", new TableDefinitionException("Unsupported format 'orc'")));
    assertEquals("Unsupported format 'orc'", ErrorMessages.oneLine(wrapped));
  }

  @Test
  void otherwiseTheInnermostCauseWithItsType() {
    Throwable wrapped = new RuntimeException("outer", new IOException("disk full"));
    assertEquals("IOException: disk full", ErrorMessages.oneLine(wrapped));
    assertEquals("bad value", ErrorMessages.oneLine(new RuntimeException(new IllegalArgumentException("bad value"))));
    assertEquals("NullPointerException", ErrorMessages.oneLine(new NullPointerException()));
  }

  @Test
  void missingFilesAndMultiLineMessages() {
    assertEquals("file not found: /x/y", ErrorMessages.oneLine(new RuntimeException(new NoSuchFileException("/x/y"))));
    assertEquals("line one line two", ErrorMessages.oneLine(new CliException("line one\n  line two\n")));
  }
}
