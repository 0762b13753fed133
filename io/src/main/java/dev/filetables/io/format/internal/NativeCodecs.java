package dev.filetables.io.format.internal;

import org.apache.beam.sdk.annotations.Internal;

/**
 * Whether the native compression libraries behind the snappy and zstd codecs load on this machine;
 * probed once per JVM so a format can fall back instead of failing at the first block.
 */
@Internal
public final class NativeCodecs {
  private NativeCodecs() {}

  private static final class Snappy {
    static final boolean AVAILABLE =
        probe(() -> org.xerial.snappy.Snappy.compress(new byte[] {1, 2, 3}));
  }

  private static final class Zstd {
    static final boolean AVAILABLE =
        probe(() -> com.github.luben.zstd.Zstd.compress(new byte[] {1, 2, 3}));
  }

  public static boolean snappyAvailable() {
    return Snappy.AVAILABLE;
  }

  public static boolean zstdAvailable() {
    return Zstd.AVAILABLE;
  }

  /** True when a class is on the classpath (pure-Java codecs with optional dependencies). */
  public static boolean classAvailable(String className) {
    try {
      Class.forName(className, false, NativeCodecs.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private interface Probe {
    void run() throws Exception;
  }

  private static boolean probe(Probe probe) {
    try {
      probe.run();
      return true;
    } catch (Throwable t) { // UnsatisfiedLinkError, NoClassDefFoundError, SnappyError, ...
      return false;
    }
  }
}
