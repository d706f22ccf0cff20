package dev.jvmtuning.lab.workload;

import dev.jvmtuning.lab.work.Work;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * GET /work: one request of a synthetic service whose costs are all chosen by the caller (see {@link Work}). GET /pinned:
 * a blocking call inside synchronized (see {@link PinningCall}).
 */
@RestController
public class WorkController {

    /** As long as /work may sleep. */
    private static final long MAX_PINNED_MS = 60_000;

    private final Work work;

    public WorkController(DataSource dataSource) {
        this.work = new Work(dataSource);
    }

    @GetMapping("/work")
    public ResponseEntity<String> work(
            @RequestParam(defaultValue = "0") long sleepMinMs,
            @RequestParam(required = false) Long sleepMaxMs,
            @RequestParam(defaultValue = "0") long cpuMs,
            @RequestParam(defaultValue = "0") long allocKb,
            @RequestParam(required = false) Long dbMs) throws InterruptedException, SQLException {
        Work.Answer answer = work.run(sleepMinMs, sleepMaxMs, cpuMs, allocKb, dbMs);
        return text(answer.status(), answer.text());
    }

    /**
     * Blocks {@code ms} holding a monitor of this request's own, so concurrent requests do not queue on one lock. The answer
     * names the thread that served it: with spring.threads.virtual.enabled on JDK 21 and later, a VirtualThread.
     */
    @GetMapping("/pinned")
    public ResponseEntity<String> pinned(@RequestParam long ms) throws InterruptedException {
        if (ms < 0 || ms > MAX_PINNED_MS) {
            return text(400, "ms must be between 0 and " + MAX_PINNED_MS + ", got " + ms);
        }
        PinningCall.holdMonitorWhileBlocked(new Object(), ms);
        return text(200, "held a monitor " + ms + " ms on " + Thread.currentThread() + "\n");
    }

    /** Spring would answer a non-numeric parameter with 400 too, but without saying which one. */
    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    public ResponseEntity<String> badParameter(MethodArgumentTypeMismatchException e) {
        return text(400, e.getName() + " must be an integer, got '" + e.getValue() + "'");
    }

    private static ResponseEntity<String> text(int status, String body) {
        return ResponseEntity.status(status).contentType(MediaType.TEXT_PLAIN).body(body);
    }
}
