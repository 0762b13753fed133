package dev.filetables.io.partition.time;

import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.table.TableOptions;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The partition time extractor a table's options ask for: {@code partition.time-extractor.kind}
 * {@code default} ({@link DefaultPartitionTimeExtractor} with the {@code timestamp-pattern} and
 * {@code timestamp-formatter}) or {@code custom} (the class named by {@code
 * partition.time-extractor.class}, created with its public no-argument constructor).
 */
@Internal
public final class PartitionTimeExtractors {
  private PartitionTimeExtractors() {}

  /** Creates the extractor; a custom class that cannot be used fails with a message saying why. */
  public static PartitionTimeExtractor fromOptions(TableOptions options) {
    if (options.timeExtractorKind().equals("custom")) {
      String className =
          options
              .timeExtractorClass()
              .orElseThrow(
                  () ->
                      new TableDefinitionException(
                          "Option '"
                              + TableOptions.TIME_EXTRACTOR_KIND
                              + "' = 'custom' requires option '"
                              + TableOptions.TIME_EXTRACTOR_CLASS
                              + "'"));
      return instantiate(
          className, PartitionTimeExtractor.class, TableOptions.TIME_EXTRACTOR_CLASS);
    }
    return defaultExtractor(options);
  }

  /** The default extractor with the table's pattern and formatter (also for a custom kind). */
  static DefaultPartitionTimeExtractor defaultExtractor(TableOptions options) {
    return new DefaultPartitionTimeExtractor(
        options.timestampPattern().orElse(null), options.timestampFormatter().orElse(null));
  }

  /**
   * Creates {@code className} as a {@code type} with its public no-argument constructor, loaded by
   * the thread's context class loader (the user's classes on a cluster) or else this library's.
   * Every failure is a {@link TableDefinitionException} that names the option and the class.
   */
  public static <T> T instantiate(String className, Class<T> type, String optionKey) {
    String name = className.trim();
    Class<?> loaded = load(name, type, optionKey);
    if (!type.isAssignableFrom(loaded)) {
      throw new TableDefinitionException(
          "Class '"
              + name
              + "' of option '"
              + optionKey
              + "' does not implement "
              + type.getName());
    }
    if (Modifier.isAbstract(loaded.getModifiers()) || !Modifier.isPublic(loaded.getModifiers())) {
      throw new TableDefinitionException(
          "Class '"
              + name
              + "' of option '"
              + optionKey
              + "' must be a public, non-abstract class");
    }
    Constructor<?> constructor;
    try {
      constructor = loaded.getConstructor();
    } catch (NoSuchMethodException e) {
      throw new TableDefinitionException(
          "Class '"
              + name
              + "' of option '"
              + optionKey
              + "' has no public no-argument constructor");
    }
    try {
      return type.cast(constructor.newInstance());
    } catch (InvocationTargetException e) {
      throw new TableDefinitionException(
          "Class '"
              + name
              + "' of option '"
              + optionKey
              + "' failed in its constructor: "
              + e.getCause(),
          e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new TableDefinitionException(
          "Class '" + name + "' of option '" + optionKey + "' cannot be created: " + e, e);
    }
  }

  private static Class<?> load(String name, Class<?> type, String optionKey) {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    try {
      return Class.forName(name, true, context != null ? context : type.getClassLoader());
    } catch (ClassNotFoundException | LinkageError first) {
      try {
        return Class.forName(name, true, type.getClassLoader());
      } catch (ClassNotFoundException | LinkageError second) {
        throw new TableDefinitionException(
            "Class '"
                + name
                + "' of option '"
                + optionKey
                + "' cannot be loaded ("
                + second
                + "); give the fully qualified name of a class on the pipeline's class path",
            second);
      }
    }
  }
}
