package dev.filetables.transforms.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class WrittenFileCoderTest {
  @Test
  void roundTripsAndIsDeterministic() throws Exception {
    WrittenFile file =
        WrittenFile.of(
            "dt=2020-05-20/hour=12", "/t/dt=2020-05-20/hour=12/part-x-0-1.csv", 42, 1234);
    WrittenFileCoder coder = WrittenFileCoder.of();
    byte[] bytes = CoderUtils.encodeToByteArray(coder, file);
    assertEquals(file, CoderUtils.decodeFromByteArray(coder, bytes));
    assertArrayEquals(
        bytes,
        CoderUtils.encodeToByteArray(
            coder, WrittenFile.of(file.partitionPath(), file.path(), 42, 1234)));
    coder.verifyDeterministic();

    WrittenFile timed =
        WrittenFile.of(
            "", "/t/part-x-0-1.csv", 1, 2, new Instant(-5), new Instant(1_700_000_000_000L));
    assertEquals(
        timed, CoderUtils.decodeFromByteArray(coder, CoderUtils.encodeToByteArray(coder, timed)));
    assertEquals(timed, timed.withPath("/t/other").withPath("/t/part-x-0-1.csv"));
  }

  @Test
  void isTheDefaultCoder() throws Exception {
    assertSame(
        WrittenFileCoder.of(),
        CoderRegistry.createDefault().getCoder(TypeDescriptor.of(WrittenFile.class)));
  }
}
