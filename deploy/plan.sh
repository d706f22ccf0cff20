#!/usr/bin/env bash
# Previews what the operator would render for a TuningProfile, without a cluster:
#   deploy/plan.sh -f examples/orders-api.yaml
#   deploy/plan.sh -f profile.yaml --cpu 2 --memory 2Gi
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
app="$root/target/quarkus-app"
if [ ! -d "$app/lib/main" ] || [ -n "$(find "$root/src/main" "$root/pom.xml" -newer "$app/quarkus-run.jar" -print -quit 2>/dev/null)" ]; then
  (cd "$root" && ./mvnw -q -B -ntp package -DskipTests) >&2
fi
exec java -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "$app/app/*:$app/lib/main/*" dev.jvmtuning.operator.cli.PlanCommand "$@"
