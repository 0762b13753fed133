package dev.filetables.io.table;

import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/** Finds the one {@link FormatCatalog} on the class path, once. */
final class InstalledFormatCatalog {
  private InstalledFormatCatalog() {}

  static final FormatCatalog INSTANCE = load();

  private static FormatCatalog load() {
    // The interface's own class loader: on a Flink cluster the job's classes live in a child
    // loader, and the provider sits in the same jar as this interface.
    List<FormatCatalog> found =
        ServiceLoader.load(FormatCatalog.class, FormatCatalog.class.getClassLoader()).stream()
            .map(ServiceLoader.Provider::get)
            .collect(Collectors.toList());
    if (found.size() != 1) {
      throw new IllegalStateException(
          "Expected exactly one "
              + FormatCatalog.class.getName()
              + " in META-INF/services, found "
              + found.size()
              + ": "
              + found
              + "; a merged jar must keep the service files (maven-shade-plugin:"
              + " ServicesResourceTransformer)");
    }
    return found.get(0);
  }
}
