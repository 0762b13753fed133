package dev.filetables.transforms.sink;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.joda.time.Instant;

/**
 * Deterministic coder for {@link WrittenFile}: two strings, two var-longs and two instants, in
 * field order.
 */
public final class WrittenFileCoder extends AtomicCoder<WrittenFile> {
  private static final long serialVersionUID = 1L;
  private static final WrittenFileCoder INSTANCE = new WrittenFileCoder();
  private static final StringUtf8Coder STRING = StringUtf8Coder.of();
  private static final VarLongCoder LONG = VarLongCoder.of();
  private static final InstantCoder INSTANT = InstantCoder.of();

  public static WrittenFileCoder of() {
    return INSTANCE;
  }

  /** How {@code @DefaultCoder} on {@link WrittenFile} finds this coder. */
  public static CoderProvider getCoderProvider() {
    return CoderProviders.forCoder(TypeDescriptor.of(WrittenFile.class), INSTANCE);
  }

  @Override
  public void encode(WrittenFile value, OutputStream out) throws IOException {
    STRING.encode(value.partitionPath(), out);
    STRING.encode(value.path(), out);
    LONG.encode(value.rowCount(), out);
    LONG.encode(value.sizeBytes(), out);
    INSTANT.encode(value.minTimestamp(), out);
    INSTANT.encode(value.maxTimestamp(), out);
  }

  @Override
  public WrittenFile decode(InputStream in) throws IOException {
    String partitionPath = STRING.decode(in);
    String path = STRING.decode(in);
    long rowCount = LONG.decode(in);
    long sizeBytes = LONG.decode(in);
    Instant minTimestamp = INSTANT.decode(in);
    Instant maxTimestamp = INSTANT.decode(in);
    return WrittenFile.of(partitionPath, path, rowCount, sizeBytes, minTimestamp, maxTimestamp);
  }

  @Override
  public void verifyDeterministic() {}

  @Override
  public boolean consistentWithEquals() {
    return true;
  }
}
