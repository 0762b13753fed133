package dev.filetables.transforms.sink.streaming;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;

/** Deterministic coder for {@link WriterKey} (runners key state by the encoded bytes). */
@Internal
public final class WriterKeyCoder extends AtomicCoder<WriterKey> {
  private static final long serialVersionUID = 1L;
  private static final WriterKeyCoder INSTANCE = new WriterKeyCoder();

  public static WriterKeyCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(WriterKey key, OutputStream out) throws IOException {
    StringUtf8Coder.of().encode(key.partitionPath(), out);
    VarIntCoder.of().encode(key.writer(), out);
  }

  @Override
  public WriterKey decode(InputStream in) throws IOException {
    String partitionPath = StringUtf8Coder.of().decode(in);
    return WriterKey.of(partitionPath, VarIntCoder.of().decode(in));
  }

  @Override
  public void verifyDeterministic() {}

  @Override
  public boolean consistentWithEquals() {
    return true;
  }
}
