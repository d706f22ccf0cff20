package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupCpuMetricsTest {

    private static final String V2_CPU_STAT = """
            usage_usec 9000000
            user_usec 8000000
            system_usec 1000000
            nr_periods 600
            nr_throttled 45
            throttled_usec 3200000
            """;
    private static final String V1_CPU_STAT = "nr_periods 80\nnr_throttled 8\nthrottled_time 400000000\n";
    private static final String PRESSURE = """
            some avg10=1.50 avg60=1.00 avg300=0.50 total=7000000
            full avg10=0.50 avg60=0.20 avg300=0.10 total=2000000
            """;

    @TempDir
    Path root;

    private FixtureTree tree;
    private PrometheusRegistry registry;

    @BeforeEach
    void registerOverFixtureTree() {
        tree = new FixtureTree(root);
        registry = new PrometheusRegistry();
        new CgroupCpuMetrics(tree.hostFiles()).register(registry);
    }

    @Test
    void cgroupV2WithNamespaceReadsTheMountRoot() {
        tree.file("/proc/self/cgroup", "0::/\n")
                .file("/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n")
                .file("/sys/fs/cgroup/cpu.stat", V2_CPU_STAT)
                .file("/sys/fs/cgroup/cpu.max", "150000 100000\n")
                .file("/sys/fs/cgroup/cpu.pressure", PRESSURE);

        assertThat(Exposition.samples(registry)).containsAllEntriesOf(Map.of(
                "jvmtuning_cpu_cfs_periods_total", 600.0,
                "jvmtuning_cpu_cfs_throttled_periods_total", 45.0,
                "jvmtuning_cpu_cfs_throttled_seconds_total", 3.2,
                "jvmtuning_cpu_pressure_some_seconds_total", 7.0,
                "jvmtuning_cpu_pressure_full_seconds_total", 2.0,
                "jvmtuning_cpu_limit_cores", 1.5));
    }

    @Test
    void cgroupV2WithoutNamespaceReadsTheProcessOwnCgroup() {
        String scope = "/kubepods.slice/kubepods-pod1.slice/cri-containerd-ab.scope";
        tree.file("/proc/self/cgroup", "0::" + scope + "\n")
                .file("/sys/fs/cgroup/cgroup.controllers", "cpu\n")
                .file("/sys/fs/cgroup/cpu.stat", "usage_usec 1\n")
                .file("/sys/fs/cgroup" + scope + "/cpu.stat", V2_CPU_STAT)
                .file("/sys/fs/cgroup" + scope + "/cpu.max", "max 100000\n");

        assertThat(Exposition.samples(registry))
                .containsEntry("jvmtuning_cpu_cfs_throttled_periods_total", 45.0)
                .doesNotContainKey("jvmtuning_cpu_limit_cores");
    }

    @Test
    void hostPathThatIsNotMountedFallsBackToTheMountRoot() {
        tree.file("/proc/self/cgroup", "0::/docker/abcdef\n")
                .file("/sys/fs/cgroup/cgroup.controllers", "cpu\n")
                .file("/sys/fs/cgroup/cpu.stat", V2_CPU_STAT)
                .file("/sys/fs/cgroup/cpu.max", "50000 100000\n");

        assertThat(Exposition.samples(registry))
                .containsEntry("jvmtuning_cpu_cfs_periods_total", 600.0)
                .containsEntry("jvmtuning_cpu_limit_cores", 0.5);
    }

    @Test
    void hybridLayoutTakesCfsFromV1AndPressureFromTheUnifiedHierarchy() {
        tree.file("/proc/self/cgroup", "4:memory:/x\n2:cpuacct:/\n1:cpu:/\n0::/\n")
                .directory("/sys/fs/cgroup/memory")
                .file("/sys/fs/cgroup/unified/cgroup.controllers", "hugetlb\n")
                .file("/sys/fs/cgroup/unified/cpu.stat", "usage_usec 4182590306\nuser_usec 1\n")
                .file("/sys/fs/cgroup/unified/cpu.pressure", PRESSURE)
                .file("/sys/fs/cgroup/cpu/cpu.stat", V1_CPU_STAT)
                .file("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n")
                .file("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n");

        assertThat(Exposition.samples(registry))
                .containsEntry("jvmtuning_cpu_cfs_periods_total", 80.0)
                .containsEntry("jvmtuning_cpu_cfs_throttled_seconds_total", 0.4)
                .containsEntry("jvmtuning_cpu_pressure_some_seconds_total", 7.0)
                .doesNotContainKey("jvmtuning_cpu_limit_cores");
    }

    @Test
    void cgroupV1WithCombinedCpuControllersAndMachinePressure() {
        String pod = "/kubepods/burstable/pod1/ab";
        tree.file("/proc/self/cgroup", "4:cpu,cpuacct:" + pod + "\n")
                .file("/sys/fs/cgroup/cpu,cpuacct" + pod + "/cpu.stat", V1_CPU_STAT)
                .file("/sys/fs/cgroup/cpu,cpuacct" + pod + "/cpu.cfs_quota_us", "250000\n")
                .file("/sys/fs/cgroup/cpu,cpuacct" + pod + "/cpu.cfs_period_us", "100000\n")
                .file("/proc/pressure/cpu", "some avg10=0.00 avg60=0.00 avg300=0.00 total=1500000\n");

        assertThat(Exposition.samples(registry))
                .containsEntry("jvmtuning_cpu_cfs_throttled_periods_total", 8.0)
                .containsEntry("jvmtuning_cpu_limit_cores", 2.5)
                .containsEntry("jvmtuning_cpu_pressure_some_seconds_total", 1.5)
                .doesNotContainKey("jvmtuning_cpu_pressure_full_seconds_total");
    }

    @Test
    void noCgroupFilesMeansNoCgroupSeries() {
        String text = Exposition.text(registry);

        assertThat(text).doesNotContain("jvmtuning_cpu_");
        assertThat(Exposition.samples(text))
                .containsEntry("jvmtuning_available_processors", (double) Runtime.getRuntime().availableProcessors());
    }
}
