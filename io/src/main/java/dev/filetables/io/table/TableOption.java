package dev.filetables.io.table;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One option key of a file table, declared once: key, value type, default (a value, another
 * option's value, required, or none), description, and whether only FileTables has it (Flink's
 * filesystem connector does not). {@link FileSystemOptions} declares them all; {@link
 * TableOptions#get} reads a table's value.
 *
 * <pre>{@code
 * TableOption<Long> ROLLING_FILE_SIZE =
 *     TableOption.key("sink.rolling-policy.file-size")
 *         .type(OptionTypes.POSITIVE_SIZE)
 *         .defaultValue(128L << 20)
 *         .description("roll a part file once it exceeds this size");
 * }</pre>
 */
public final class TableOption<T> {
  private final String key;
  private final OptionType<T> type;
  private final T defaultValue;
  private final TableOption<T> fallback;
  private final Supplier<String> missingHint;
  private final String unsetText;
  private final boolean fileTablesOnly;
  private final String description;

  private TableOption(Typed<T> b, String description) {
    this.key = b.key;
    this.type = b.type;
    this.defaultValue = b.defaultValue;
    this.fallback = b.fallback;
    this.missingHint = b.missingHint;
    this.unsetText = b.unsetText;
    this.fileTablesOnly = b.fileTablesOnly;
    this.description = Objects.requireNonNull(description, "description");
  }

  /** Starts a declaration: {@code TableOption.key("sink.parallelism").type(...)...}. */
  static Keyed key(String key) {
    return new Keyed(key);
  }

  /** The key as written in {@code WITH (...)}, e.g. {@code sink.rolling-policy.file-size}. */
  public String key() {
    return key;
  }

  public OptionType<T> type() {
    return type;
  }

  /**
   * The value used when the option is absent; empty when there is none or it is {@link #fallback}.
   */
  public Optional<T> defaultValue() {
    return Optional.ofNullable(defaultValue);
  }

  /** The option whose value is used when this one is absent, e.g. the rolling file size. */
  public Optional<TableOption<T>> fallback() {
    return Optional.ofNullable(fallback);
  }

  public boolean required() {
    return missingHint != null;
  }

  /** The error for a required option that is absent. */
  String missingMessage() {
    return "Missing required option '" + key + "'" + missingHint.get();
  }

  /** True for keys Flink's filesystem connector does not have. */
  public boolean fileTablesOnly() {
    return fileTablesOnly;
  }

  /** One line saying what the option does (Markdown). */
  public String description() {
    return description;
  }

  /** The default value written as an option value, e.g. {@code 128MB}; empty when none. */
  public Optional<String> defaultValueText() {
    return defaultValue().map(type::format);
  }

  /**
   * The default as documentation shows it: the default value, or {@code required}, {@code unset},
   * {@code —} or the fallback, e.g. {@code = `sink.rolling-policy.file-size`}.
   */
  public String defaultText() {
    if (defaultValue != null) {
      return type.format(defaultValue);
    }
    if (fallback != null) {
      return "= `" + fallback.key + "`";
    }
    return required() ? "required" : unsetText;
  }

  /** Parses a value of this option; throws {@link InvalidValueException} naming key and value. */
  public T parse(String value) {
    return type.parse(key, value);
  }

  @Override
  public String toString() {
    return key;
  }

  /** A declaration that has its key. */
  static final class Keyed {
    private final String key;

    private Keyed(String key) {
      this.key = Objects.requireNonNull(key, "key");
    }

    <T> Typed<T> type(OptionType<T> type) {
      return new Typed<>(key, type);
    }
  }

  /** A declaration that has key and type; {@link #description} completes it. */
  static final class Typed<T> {
    private final String key;
    private final OptionType<T> type;
    private T defaultValue;
    private TableOption<T> fallback;
    private Supplier<String> missingHint;
    private String unsetText = "unset";
    private boolean fileTablesOnly;

    private Typed(String key, OptionType<T> type) {
      this.key = key;
      this.type = Objects.requireNonNull(type, "type");
    }

    Typed<T> defaultValue(T value) {
      this.defaultValue = Objects.requireNonNull(value, "default value");
      return this;
    }

    /** Absent, the option takes {@code other}'s value (or default). */
    Typed<T> fallbackTo(TableOption<T> other) {
      this.fallback = Objects.requireNonNull(other, "fallback");
      return this;
    }

    /**
     * The option must be given; {@code hint} completes {@code Missing required option '<key>'}
     * (computed when needed, e.g. from the formats on the class path).
     */
    Typed<T> required(Supplier<String> hint) {
      this.missingHint = Objects.requireNonNull(hint, "hint");
      return this;
    }

    /** How documentation shows the default of an option without one ({@code unset} otherwise). */
    Typed<T> shownWhenUnset(String text) {
      this.unsetText = Objects.requireNonNull(text, "text");
      return this;
    }

    /** Flink's filesystem connector does not have this key. */
    Typed<T> fileTablesOnly() {
      this.fileTablesOnly = true;
      return this;
    }

    TableOption<T> description(String description) {
      int defaults =
          (defaultValue != null ? 1 : 0)
              + (fallback != null ? 1 : 0)
              + (missingHint != null ? 1 : 0);
      if (defaults > 1) {
        throw new IllegalStateException(
            "Option '" + key + "': give at most one of default value, fallback and required");
      }
      if (defaultValue != null) {
        // a default must be a value a user could write: fails at class initialisation otherwise
        type.parse(key, type.format(defaultValue));
      }
      return new TableOption<>(this, description);
    }
  }
}
