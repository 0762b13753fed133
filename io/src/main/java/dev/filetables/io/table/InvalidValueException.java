package dev.filetables.io.table;

import java.util.Arrays;
import java.util.List;

/**
 * A value an {@link OptionType} cannot accept. Usually one message, {@code Invalid value '<value>'
 * for option '<key>': <what is allowed>}; several when one value has several problems (a list with
 * two unknown entries), so that each is reported like a problem of its own.
 */
public final class InvalidValueException extends TableDefinitionException {
  private static final long serialVersionUID = 1L;

  private final List<String> messages;

  private InvalidValueException(List<String> messages) {
    super(String.join("\n", messages));
    this.messages = List.copyOf(messages);
  }

  /**
   * {@code Invalid value '<value>' for option '<key>': <problem>}, once per problem, e.g. {@code
   * of(key, value, "expected true or false")}.
   */
  static InvalidValueException of(String key, String value, String... problems) {
    if (problems.length == 0) {
      throw new IllegalArgumentException("An invalid value needs at least one problem");
    }
    return new InvalidValueException(
        Arrays.stream(problems).map(p -> OptionMessages.invalidValue(key, value, p)).toList());
  }

  /** A message worded by the type itself (it must name key, value and what is allowed). */
  static InvalidValueException withMessage(String message) {
    return new InvalidValueException(List.of(message));
  }

  /** One message per problem, in order. */
  public List<String> messages() {
    return messages;
  }
}
