package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jvmtuning.systemtest.support.Cluster;
import dev.jvmtuning.systemtest.support.Command;
import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GitOps (docs/how-to/other-controllers.md): two Deployments re-applied from their manifest every 20 s for 5 minutes, as a
 * GitOps controller's self-heal does, one by client-side {@code kubectl apply} (Argo CD's default), one by server-side apply
 * under a manager of its own taking conflicts (Argo CD and Flux with server-side apply). Each manifest sets
 * JAVA_TOOL_OPTIONS, which the operator writes too. The operator answers a take-back once, then stops: at most 2 tuned
 * templates of its own in the loop, Applied=False TakenBack naming the manager, and no write of anyone's once it stopped. A
 * third follows the docs' recipe for Flux (server-side apply as its kustomize-controller, the tuned variable left out of
 * Git): no quarrel, the tuning kept, no write of anyone's; and the operator's field manager is the one the Argo CD recipe
 * names. The applies are kubectl's own, as the controllers' requests are what is tested.
 */
@Tag("check-12")
@Order(1200)
class GitOpsReappliesAnsweredOnceTest extends SystemCheck {

    private static final Duration LOOP = Duration.ofMinutes(5);
    private static final int APPLY_SECONDS = 60;
    private static final List<String> CLIENT_SIDE = List.of();
    private static final List<String> GITOPS_SYNC = List.of("--server-side", "--field-manager=gitops-sync", "--force-conflicts");
    private static final List<String> FLUX = List.of("--server-side", "--field-manager=kustomize-controller", "--force-conflicts");

    @TempDir
    Path git;

    @Test
    @DisplayName("12. GitOps: manifests re-applied every 20 s (client-side, and server-side under another manager): answered once, then left alone, the manager named")
    void reappliedManifestsAreAnsweredOnceThenLeftAlone() throws IOException {
        makeRoom();
        Map<String, List<String>> applies = Map.of("synced", CLIENT_SIDE, "synced-ssa", GITOPS_SYNC, "synced-recipe", FLUX);
        for (String name : List.of("synced", "synced-ssa")) {
            Files.writeString(manifest(name), Manifests.workload(name, 1, """
                    env: [{name: JAVA_TOOL_OPTIONS, value: '-Dfile.encoding=UTF-8'}]
                    resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}"""));
        }
        Files.writeString(manifest("synced-recipe"), Manifests.workload("synced-recipe", 1,
                "resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}"));
        List<String> names = List.of("synced", "synced-ssa", "synced-recipe");
        for (String name : names) {
            kubectlApply(name, applies.get(name));
        }
        for (String name : names) {
            cluster.rolloutStatus(name, 180);
            cluster.apply(Manifests.profile(name, name, ""));
        }
        for (String name : names) {
            Wait.until(240, "tp/" + name + " Ready", () -> cluster.conditionIs(name, "Ready", "True"));
        }
        say("tuned: " + cluster.tunedFlags("synced"));
        String recipeGeneration = generation("synced-recipe");
        String recipeFlags = cluster.tunedFlags("synced-recipe");

        Map<String, SortedSet<Long>> tuned = Map.of("synced", new TreeSet<>(), "synced-ssa", new TreeSet<>());
        List<Runnable> loop = new ArrayList<>();
        tuned.forEach((name, generations) -> loop.add(() -> tunedGenerations(name, generations)));
        names.forEach(name -> loop.add(() -> reapplyEvery20s(name, applies.get(name))));
        together(loop);

        say("synced-recipe: " + cluster.applied("synced-recipe", "reason") + ": generation " + recipeGeneration + " before the loop, "
                + generation("synced-recipe") + " after");
        assertThat(cluster.applied("synced-recipe", "reason")).as("the recipe's Deployment still Applied").isEqualTo("Applied");
        assertThat(generation("synced-recipe")).as("the recipe's Deployment written by no one in the loop").isEqualTo(recipeGeneration);
        assertThat(cluster.tunedFlags("synced-recipe")).as("the recipe's Deployment still tuned").isEqualTo(recipeFlags);
        // Argo CD's recipe ignores the fields of the manager jvm-tuning-operator: it must be the one that owns the tuned variable.
        String owners = StreamSupport.stream(cluster.deployment("synced-recipe").path("metadata").path("managedFields").spliterator(), false)
                .filter(entry -> entry.path("fieldsV1").toString().contains("JAVA_TOOL_OPTIONS"))
                .map(entry -> entry.path("manager").asText())
                .sorted().distinct().collect(Collectors.joining(" "));
        say("managers of JAVA_TOOL_OPTIONS in synced-recipe: " + owners);
        assertThat(owners).as("JAVA_TOOL_OPTIONS owned by the manager jvm-tuning-operator alone").isEqualTo("jvm-tuning-operator");
        for (String name : tuned.keySet().stream().sorted().toList()) {
            JsonNode takenBack = cluster.profile(name).path("status").path("takenBack");
            String manager = takenBack.path("manager").asText();
            String stoppedAt = takenBack.path("deploymentGeneration").asText();
            String now = generation(name);
            SortedSet<Long> generations = tuned.get(name);
            say(name + ": " + cluster.applied(name, "reason") + ": " + cluster.applied(name, "message"));
            say(name + ": the operator's flags in " + generations.size() + " generations of the template in 5 minutes ("
                    + generations.stream().map(String::valueOf).collect(Collectors.joining(" ")) + ", the tuned one before the loop included);"
                    + " stopped at generation " + stoppedAt + ", now " + now);
            assertThat(cluster.applied(name, "reason")).as("Applied=False TakenBack for " + name).isEqualTo("TakenBack");
            assertThat(generations.size()).as("at most 2 tuned templates of the operator's in the loop (its first write and one answer)")
                    .isLessThanOrEqualTo(2);
            // Once stopped, each re-apply finds the template as Git has it: no write of anyone's, no pod started for the quarrel.
            assertThat(now).as("no write since the stop at generation " + stoppedAt).isEqualTo(stoppedAt);
            assertThat(manager).as("status.takenBack naming the other manager").isNotEmpty();
        }
        assertThat(takenBackManager("synced")).as("the client-side apply's manager named").isEqualTo("kubectl-client-side-apply");
        assertThat(takenBackManager("synced-ssa")).as("the server-side apply's manager named").isEqualTo("gitops-sync");
        List<String> takenBackEvents = cluster.profileEvents("synced").stream().filter(event -> event.startsWith("TakenBack")).toList();
        takenBackEvents.forEach(SystemCheck::say);
        assertThat(takenBackEvents).as("a TakenBack Event").isNotEmpty();
    }

    private Path manifest(String name) {
        return git.resolve(name + ".yaml");
    }

    /** kubectl apply of the Deployment's manifest, client-side or with the flags of a server-side apply. */
    private void kubectlApply(String name, List<String> how) {
        List<String> line = new ArrayList<>(List.of("kubectl", "apply", "-n", Cluster.NAMESPACE));
        line.addAll(how);
        line.addAll(List.of("-f", manifest(name).toString()));
        Command.run(APPLY_SECONDS, line);
    }

    private void reapplyEvery20s(String name, List<String> how) {
        long end = System.nanoTime() + LOOP.toNanos();
        while (System.nanoTime() < end) {
            kubectlApply(name, how);
            Wait.sleep(Duration.ofSeconds(20));
        }
    }

    /** The Deployment's generations seen running the operator's flags, read each second through the loop. */
    private void tunedGenerations(String name, SortedSet<Long> generations) {
        long end = System.nanoTime() + LOOP.toNanos();
        while (System.nanoTime() < end) {
            // A client-side apply leaves the operator's annotations (not in the manifest): its flags say whose template it is.
            JsonNode deployment = cluster.deployment(name);
            boolean tuned = StreamSupport.stream(deployment.path("spec").path("template").path("spec").path("containers").path(0).path("env").spliterator(), false)
                    .anyMatch(variable -> "JAVA_TOOL_OPTIONS".equals(variable.path("name").asText())
                            && variable.path("value").asText().contains("-XX:ActiveProcessorCount"));
            if (tuned) {
                generations.add(deployment.path("metadata").path("generation").asLong());
            }
            Wait.sleep(Duration.ofSeconds(1));
        }
    }

    /** Runs the tasks side by side and returns when all have ended (each is bounded in time); one that failed fails the check. */
    private static void together(List<Runnable> tasks) {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<?>> running = tasks.stream().<Future<?>>map(pool::submit).toList();
            for (Future<?> task : running) {
                task.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private String generation(String deployment) {
        return cluster.deployment(deployment).path("metadata").path("generation").asText();
    }

    private String takenBackManager(String profile) {
        return cluster.profile(profile).path("status").path("takenBack").path("manager").asText();
    }
}
