package dev.filetables.transforms.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Arrays;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;

class CommittedPartitionCoderTest {
  @Test
  void roundTrip() throws Exception {
    for (CommittedPartition value :
        Arrays.asList(
            CommittedPartition.of(
                "dt=2020-05-20/hour=12",
                Arrays.asList("2020-05-20", "12"),
                2,
                3,
                40L,
                5,
                Instant.parse("2020-05-20T13:00:00.123456789Z"),
                LocalDateTime.of(2020, 5, 20, 12, 0),
                "partition-time"),
            CommittedPartition.of(
                "dt=__DEFAULT_PARTITION__",
                Arrays.asList((String) null),
                1,
                0,
                0L,
                0,
                Instant.EPOCH,
                null,
                "end-of-input"))) {
      CommittedPartitionCoder coder = CommittedPartitionCoder.of();
      assertEquals(
          value, CoderUtils.decodeFromByteArray(coder, CoderUtils.encodeToByteArray(coder, value)));
    }
  }
}
