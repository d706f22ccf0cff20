package dev.jvmtuning.operator.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The README is the way in: every page of docs/ is reachable from it, and every relative link leads somewhere. */
class DocsLinksTest {
    private static final Path README = Path.of("README.md");
    /** A Markdown link's target, outside code: fenced blocks and inline code are removed first. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void everyRelativeLinkResolves() {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String link : links(page)) {
                Path target = target(page, link);
                if (target != null && !Files.exists(target)) {
                    broken.add(page + " -> " + link);
                }
            }
        }
        assertThat(broken).as("links to files that do not exist").isEmpty();
    }

    @Test
    void everyPageIsReachableFromTheReadme() {
        Set<Path> reached = new HashSet<>();
        Deque<Path> todo = new ArrayDeque<>(List.of(README));
        while (!todo.isEmpty()) {
            Path page = todo.pop().normalize();
            if (reached.add(page)) {
                links(page).stream().map(link -> target(page, link))
                        .filter(t -> t != null && t.toString().endsWith(".md") && Files.exists(t)).forEach(todo::push);
            }
        }
        assertThat(pages()).as("pages no link from README.md leads to").allMatch(reached::contains);
        assertThat(README).as("README.md must fit on a screen or two").satisfies(r -> assertThat(lines(r)).hasSizeLessThanOrEqualTo(150));
    }

    private static List<Path> pages() {
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            List<Path> pages = new ArrayList<>(docs.filter(p -> p.toString().endsWith(".md")).map(Path::normalize).toList());
            pages.add(README);
            return pages;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path page) {
        try {
            return Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> links(Path page) {
        String text = String.join("\n", lines(page)).replaceAll("(?s)```.*?```", "").replaceAll("`[^`\n]*`", "");
        List<String> links = new ArrayList<>();
        Matcher matcher = LINK.matcher(text);
        while (matcher.find()) {
            links.add(matcher.group(1));
        }
        return links;
    }

    /** The file a relative link leads to, or null for a link off this repository or within the page. */
    private static Path target(Path page, String link) {
        String path = link.replaceFirst("#.*$", "");
        if (link.matches("^[a-z]+:.*") || path.isEmpty()) {
            return null;
        }
        Path parent = page.getParent() == null ? Path.of("") : page.getParent();
        return parent.resolve(path).normalize();
    }
}
