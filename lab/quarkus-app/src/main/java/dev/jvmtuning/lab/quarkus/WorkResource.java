package dev.jvmtuning.lab.quarkus;

import dev.jvmtuning.lab.work.Work;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * GET /work as in the Spring Boot workload (see {@link Work}). Blocking, so it runs on Quarkus's worker
 * pool (quarkus.thread-pool.*), the pool the operator sizes.
 */
@Path("/work")
public class WorkResource {

    private final Work work;

    public WorkResource(DataSource dataSource) {
        this.work = new Work(dataSource);
    }

    @GET
    @Blocking
    @Produces(MediaType.TEXT_PLAIN)
    public Response work(@QueryParam("sleepMinMs") @DefaultValue("0") long sleepMinMs, @QueryParam("sleepMaxMs") Long sleepMaxMs,
            @QueryParam("cpuMs") @DefaultValue("0") long cpuMs, @QueryParam("allocKb") @DefaultValue("0") long allocKb,
            @QueryParam("dbMs") Long dbMs) throws InterruptedException, SQLException {
        Work.Answer answer = work.run(sleepMinMs, sleepMaxMs, cpuMs, allocKb, dbMs);
        return Response.status(answer.status()).entity(answer.text()).build();
    }
}
