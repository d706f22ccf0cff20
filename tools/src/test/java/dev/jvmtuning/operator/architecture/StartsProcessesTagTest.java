package dev.jvmtuning.operator.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.jvmtuning.lab.harness.LabApp;
import dev.jvmtuning.operator.drills.OperatorProcess;
import dev.jvmtuning.operator.flags.Jdks;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LabPods;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.LocalPrometheus;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestClassLocations;
import dev.jvmtuning.operator.testing.WorkloadProcess;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The fast set (`-Pfast`) must start no process: every test that reaches a process starter carries {@link StartsProcesses}. */
class StartsProcessesTagTest {
    private static final Set<String> STARTERS = Stream.of(LocalControlPlane.class, FakeKubelet.class, RunningOperator.class, OperatorProcess.class,
            WorkloadProcess.class, LocalPrometheus.class, LabPods.class, LabApp.class, Jdks.class, ProcessBuilder.class)
            .map(Class::getName).collect(Collectors.toSet());

    /** Through the test's own helpers too: only test classes are imported, so the closure stays in test code. */
    private static final DescribedPredicate<JavaClass> REACH_A_PROCESS_STARTER = DescribedPredicate.describe("reach a process starter",
            test -> test.getTransitiveDependenciesFromSelf().stream().anyMatch(d -> STARTERS.contains(d.getTargetClass().getName())));

    @Test
    void everyTestThatStartsAProcessIsTagged() {
        JavaClasses tests = new ClassFileImporter().withImportOption(TestClassLocations.TESTS).importPackages("dev.jvmtuning");
        classes().that().haveSimpleNameEndingWith("Test").and().areTopLevelClasses()
                .and().doNotHaveFullyQualifiedName(StartsProcessesTagTest.class.getName()).and(REACH_A_PROCESS_STARTER)
                .should().beAnnotatedWith(StartsProcesses.class).check(tests);
    }
}
