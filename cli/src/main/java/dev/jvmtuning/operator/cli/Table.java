package dev.jvmtuning.operator.cli;

import java.io.PrintWriter;
import java.util.List;

/** Rows in aligned columns, as kubectl prints them: two spaces apart, the last column unpadded (it holds the prose). */
final class Table {
    private Table() {
    }

    /** The first row is the heading; every row has as many cells. */
    static void print(List<String[]> rows, PrintWriter out) {
        int columns = rows.get(0).length;
        int[] widths = new int[columns - 1];
        rows.forEach(r -> {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], r[i].length());
            }
        });
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < widths.length; i++) {
                line.append(r[i]).append(" ".repeat(widths[i] - r[i].length() + 2));
            }
            out.println(line.append(r[columns - 1]));
        }
    }
}
