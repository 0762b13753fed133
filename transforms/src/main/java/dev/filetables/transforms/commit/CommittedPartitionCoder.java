package dev.filetables.transforms.commit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.time.LocalDateTime;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/** Deterministic coder for {@link CommittedPartition}: its fields in order. */
public final class CommittedPartitionCoder extends AtomicCoder<CommittedPartition> {
  private static final long serialVersionUID = 1L;
  private static final CommittedPartitionCoder INSTANCE = new CommittedPartitionCoder();
  private static final StringUtf8Coder STRING = StringUtf8Coder.of();
  private static final NullableCoder<String> NULLABLE_STRING =
      NullableCoder.of(StringUtf8Coder.of());
  private static final ListCoder<String> VALUES = ListCoder.of(NULLABLE_STRING);
  private static final VarIntCoder INT = VarIntCoder.of();
  private static final VarLongCoder LONG = VarLongCoder.of();

  public static CommittedPartitionCoder of() {
    return INSTANCE;
  }

  /** How {@code @DefaultCoder} on {@link CommittedPartition} finds this coder. */
  public static CoderProvider getCoderProvider() {
    return CoderProviders.forCoder(TypeDescriptor.of(CommittedPartition.class), INSTANCE);
  }

  @Override
  public void encode(CommittedPartition value, OutputStream out) throws IOException {
    STRING.encode(value.partitionPath(), out);
    VALUES.encode(value.partitionValues(), out);
    INT.encode(value.commitNumber(), out);
    INT.encode(value.newFileCount(), out);
    LONG.encode(value.newRowCount(), out);
    INT.encode(value.fileCount(), out);
    LONG.encode(value.commitTime().getEpochSecond(), out);
    INT.encode(value.commitTime().getNano(), out);
    NULLABLE_STRING.encode(value.partitionTime().map(LocalDateTime::toString).orElse(null), out);
    STRING.encode(value.reason(), out);
  }

  @Override
  public CommittedPartition decode(InputStream in) throws IOException {
    String path = STRING.decode(in);
    java.util.List<String> values = VALUES.decode(in);
    int commitNumber = INT.decode(in);
    int newFiles = INT.decode(in);
    long newRows = LONG.decode(in);
    int files = INT.decode(in);
    Instant commitTime = Instant.ofEpochSecond(LONG.decode(in), INT.decode(in));
    String partitionTime = NULLABLE_STRING.decode(in);
    String reason = STRING.decode(in);
    return CommittedPartition.of(
        path,
        values,
        commitNumber,
        newFiles,
        newRows,
        files,
        commitTime,
        partitionTime == null ? null : LocalDateTime.parse(partitionTime),
        reason);
  }

  @Override
  public void verifyDeterministic() {}

  @Override
  public boolean consistentWithEquals() {
    return true;
  }
}
