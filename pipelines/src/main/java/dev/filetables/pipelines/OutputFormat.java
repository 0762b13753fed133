package dev.filetables.pipelines;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.filetables.io.table.ColumnType;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

/** How {@code query} prints rows: JSON lines or RFC 4180 CSV. */
enum OutputFormat {
  /** One JSON object per line, keys = column names, numbers and booleans unquoted, NULL as null. */
  JSONL {
    @Override
    public String header(List<String> names) {
      return null;
    }

    @Override
    public String record(List<String> names, List<ColumnType> types, List<String> cells) {
      StringWriter text = new StringWriter();
      try (JsonGenerator json = JSON.createGenerator(text)) {
        json.writeStartObject();
        for (int i = 0; i < names.size(); i++) {
          json.writeFieldName(names.get(i));
          writeValue(json, cells.get(i), types.get(i));
        }
        json.writeEndObject();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return text.toString();
    }
  },

  /**
   * RFC 4180: a header line, CRLF line ends, fields quoted when they hold a comma, quote, CR or LF.
   * NULL is an empty field; an empty string is {@code ""} so the two stay distinguishable.
   */
  CSV {
    @Override
    public String header(List<String> names) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < names.size(); i++) {
        if (i > 0) {
          line.append(',');
        }
        line.append(quoteIfNeeded(names.get(i)));
      }
      return line.toString();
    }

    @Override
    public String record(List<String> names, List<ColumnType> types, List<String> cells) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < cells.size(); i++) {
        if (i > 0) {
          line.append(',');
        }
        String cell = cells.get(i);
        if (cell != null) {
          line.append(cell.isEmpty() ? "\"\"" : quoteIfNeeded(cell));
        }
      }
      return line.toString();
    }

    @Override
    public String lineSeparator() {
      return "\r\n";
    }
  };

  private static final JsonFactory JSON = new JsonFactory();

  /** The header line, or null when the format has none. */
  abstract String header(List<String> names);

  /** One row as text, without line separator. */
  abstract String record(List<String> names, List<ColumnType> types, List<String> cells);

  String lineSeparator() {
    return "\n";
  }

  static OutputFormat of(String name) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "jsonl":
      case "json":
        return JSONL;
      case "csv":
        return CSV;
      default:
        throw CliException.usage("unknown --format '" + name + "'; use jsonl or csv");
    }
  }

  private static void writeValue(JsonGenerator json, String cell, ColumnType type)
      throws IOException {
    if (cell == null) {
      json.writeNull();
      return;
    }
    switch (type) {
      case BOOLEAN:
        json.writeBoolean(Boolean.parseBoolean(cell));
        break;
      case INT:
      case BIGINT:
      case DECIMAL:
        json.writeNumber(cell); // the exact digits, no float rounding
        break;
      case FLOAT:
      case DOUBLE:
        if (cell.equals("NaN") || cell.endsWith("Infinity")) {
          json.writeString(cell); // JSON has no NaN/Infinity literals
        } else {
          json.writeNumber(cell);
        }
        break;
      default:
        json.writeString(cell);
    }
  }

  private static String quoteIfNeeded(String cell) {
    if (cell.indexOf(',') < 0
        && cell.indexOf('"') < 0
        && cell.indexOf('\r') < 0
        && cell.indexOf('\n') < 0) {
      return cell;
    }
    return '"' + cell.replace("\"", "\"\"") + '"';
  }
}
