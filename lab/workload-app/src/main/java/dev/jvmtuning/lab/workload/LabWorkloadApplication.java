package dev.jvmtuning.lab.workload;

import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class LabWorkloadApplication {

    public static void main(String[] args) {
        SpringApplication.run(LabWorkloadApplication.class, args);
    }

    /**
     * HikariCP starts its pool (and registers its hikaricp_* meters) only on the first
     * getConnection(); do that at startup so the metrics exist before any load arrives.
     */
    @Bean
    ApplicationRunner startConnectionPool(DataSource dataSource) {
        return args -> {
            try (Connection ignored = dataSource.getConnection()) {
                // opened and returned: the pool is now running
            }
        };
    }
}
