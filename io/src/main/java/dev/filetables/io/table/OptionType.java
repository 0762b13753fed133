package dev.filetables.io.table;

/**
 * The value type of a {@link TableOption}: how a {@code WITH (...)} value is read, which values are
 * allowed, and how a default value is written in documentation. Standard types are in {@link
 * OptionTypes}.
 *
 * <p>{@link #parse} must depend on the text only (not on files or clocks): table options are
 * validated once when defined, and getters parse the same text again later, where they must not
 * fail.
 */
public interface OptionType<T> {

  /** The type as documentation shows it: {@code string}, {@code duration}, {@code size}, ... */
  String displayName();

  /**
   * The value of option {@code key} written as {@code value}; throws {@link InvalidValueException}
   * naming key, value and what is allowed.
   */
  T parse(String key, String value);

  /** {@code value} written as an option value that parses back to it (used for defaults). */
  String format(T value);
}
