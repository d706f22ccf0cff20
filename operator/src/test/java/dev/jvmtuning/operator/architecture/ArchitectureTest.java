package dev.jvmtuning.operator.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.jvmtuning.operator.testing.TestClassLocations;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The data flows one way: model below everything, then flags, installation, planner, render, pressure, closedloop, preview, rollout and
 * decision, which stay pure; only metrics and reconciler do I/O. Fails when a change reintroduces a cycle or an I/O
 * dependency into a pure package.
 */
class ArchitectureTest {
    private static final String ROOT = "dev.jvmtuning.operator";
    private static final String[] PURE = {ROOT + ".model..", ROOT + ".flags..", ROOT + ".planner..", ROOT + ".render..", ROOT + ".pressure..",
            ROOT + ".discovery..", ROOT + ".closedloop..", ROOT + ".preview..", ROOT + ".rollout..", ROOT + ".deployment..", ROOT + ".decision..",
            ROOT + ".installation.."};
    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter().withImportOption(TestClassLocations.MAIN).importPackages(ROOT);
    }

    @Test
    void noPackageCycles() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void thePureCoreReachesNoIoPackage() {
        noClasses().that().resideInAnyPackage(PURE)
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".metrics..", ROOT + ".reconciler..", ROOT + ".config..",
                        ROOT + ".cli..", "io.fabric8.kubernetes.client..", "io.javaoperatorsdk..", "io.quarkus..", "java.net..",
                        "java.nio.file..", "java.io.File..", "java.net.http..")
                .check(classes);
    }

    @Test
    void theModelDependsOnlyOnTheApiTypes() {
        noClasses().that().resideInAPackage(ROOT + ".model..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".planner..", ROOT + ".render..", ROOT + ".pressure..",
                        ROOT + ".metrics..", ROOT + ".reconciler..", ROOT + ".deployment..", "io.fabric8..")
                .check(classes);
    }

    @Test
    void metricsObserveAndJudgeNothing() {
        noClasses().that().resideInAPackage(ROOT + ".metrics..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".pressure..", ROOT + ".planner..", ROOT + ".reconciler..")
                .check(classes);
    }
}
