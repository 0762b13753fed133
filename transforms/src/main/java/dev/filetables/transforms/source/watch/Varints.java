package dev.filetables.transforms.source.watch;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** LEB128 variable-length longs (zig-zag for signed values): small numbers in few bytes. */
final class Varints {
  private Varints() {}

  static void writeUnsigned(DataOutputStream out, long value) throws IOException {
    while ((value & ~0x7FL) != 0) {
      out.writeByte((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.writeByte((int) value);
  }

  static long readUnsigned(DataInputStream in) throws IOException {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = in.readUnsignedByte();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IOException("Malformed varint");
  }

  static void writeSigned(DataOutputStream out, long value) throws IOException {
    writeUnsigned(out, (value << 1) ^ (value >> 63));
  }

  static long readSigned(DataInputStream in) throws IOException {
    long raw = readUnsigned(in);
    return (raw >>> 1) ^ -(raw & 1);
  }
}
