package dev.jvmtuning.agent;

import dev.jvmtuning.agent.CgroupParsers.CfsStats;
import dev.jvmtuning.agent.CgroupParsers.CpuPressure;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** CFS throttling, CPU pressure and the CPU limit of this process's cgroup, read on each scrape. */
final class CgroupCpuMetrics {

    private final HostFiles files;
    private final CgroupFiles cgroup;

    CgroupCpuMetrics(HostFiles files) {
        this.files = files;
        this.cgroup = new CgroupFiles(files);
    }

    void register(PrometheusRegistry registry) {
        CounterWithCallback.builder()
                .name("jvmtuning_cpu_cfs_periods_total")
                .help("CFS enforcement periods of this cgroup")
                .callback(FailSafe.callback(callback -> cfsStats()
                        .ifPresent(stats -> callback.call(stats.periods()))))
                .register(registry);
        CounterWithCallback.builder()
                .name("jvmtuning_cpu_cfs_throttled_periods_total")
                .help("CFS periods in which this cgroup used up its quota and was throttled")
                .callback(FailSafe.callback(callback -> cfsStats()
                        .ifPresent(stats -> callback.call(stats.throttledPeriods()))))
                .register(registry);
        CounterWithCallback.builder()
                .name("jvmtuning_cpu_cfs_throttled_seconds_total")
                .help("Time this cgroup's threads were held back by CFS throttling")
                .unit(Unit.SECONDS)
                .callback(FailSafe.callback(callback -> cfsStats()
                        .ifPresent(stats -> callback.call(stats.throttledSeconds()))))
                .register(registry);
        CounterWithCallback.builder()
                .name("jvmtuning_cpu_pressure_some_seconds_total")
                .help("PSI: time at least one runnable task of this cgroup waited for a CPU")
                .unit(Unit.SECONDS)
                .callback(FailSafe.callback(callback -> cpuPressure()
                        .ifPresent(pressure -> callback.call(pressure.someSeconds()))))
                .register(registry);
        CounterWithCallback.builder()
                .name("jvmtuning_cpu_pressure_full_seconds_total")
                .help("PSI: time all non-idle tasks of this cgroup waited for a CPU at once")
                .unit(Unit.SECONDS)
                .callback(FailSafe.callback(callback -> cpuPressure()
                        .flatMap(pressure -> boxed(pressure.fullSeconds()))
                        .ifPresent(callback::call)))
                .register(registry);
        GaugeWithCallback.builder()
                .name("jvmtuning_cpu_limit_cores")
                .help("CPU limit of this cgroup (CFS quota over period); absent when unlimited")
                .callback(FailSafe.callback(callback -> boxed(cpuLimitCores()).ifPresent(callback::call)))
                .register(registry);
        GaugeWithCallback.builder()
                .name("jvmtuning_available_processors")
                .help("Runtime.availableProcessors(), which sizes the JVM's GC, JIT and common pool threads")
                .callback(FailSafe.callback(callback -> callback.call(Runtime.getRuntime().availableProcessors())))
                .register(registry);
    }

    /** v2 first; in the hybrid layout the v2 cpu.stat has no CFS fields and the v1 one is used. */
    Optional<CfsStats> cfsStats() {
        List<String> candidates = new ArrayList<>(CgroupFiles.inEach(cgroup.unifiedDirectories(), "cpu.stat"));
        candidates.addAll(CgroupFiles.inEach(cgroup.v1CpuDirectories(), "cpu.stat"));
        return files.readFirst(candidates, CgroupParsers::parseCpuStat);
    }

    /** The cgroup's own PSI, else the whole machine's (/proc/pressure/cpu). */
    Optional<CpuPressure> cpuPressure() {
        List<String> candidates = new ArrayList<>(CgroupFiles.inEach(cgroup.unifiedDirectories(), "cpu.pressure"));
        candidates.add("/proc/pressure/cpu");
        return files.readFirst(candidates, CgroupParsers::parsePressure);
    }

    OptionalDouble cpuLimitCores() {
        Optional<Double> unified = files.readFirst(
                CgroupFiles.inEach(cgroup.unifiedDirectories(), "cpu.max"),
                cpuMax -> boxed(CgroupParsers.parseCpuMax(cpuMax)));
        if (unified.isPresent()) {
            return OptionalDouble.of(unified.get());
        }
        for (String directory : cgroup.v1CpuDirectories()) {
            Optional<String> quota = files.read(directory + "/cpu.cfs_quota_us");
            Optional<String> period = files.read(directory + "/cpu.cfs_period_us");
            if (quota.isPresent() && period.isPresent()) {
                return CgroupParsers.parseCfsQuota(quota.get(), period.get());
            }
        }
        return OptionalDouble.empty();
    }

    private static Optional<Double> boxed(OptionalDouble value) {
        return value.isPresent() ? Optional.of(value.getAsDouble()) : Optional.empty();
    }
}
