#!/usr/bin/env bash
# Interop with YCSB's own jdbc binding (site.ycsb.db.JdbcDBClient, 0.17.0), both ways, on the SQL targets, by
# hand. `make test` checks the same with a twin of the binding (tests/stores/test_sql_ycsb_interop.py, DB class
# tests/data/sql/JdbcTwinDB.java), because the binding is not on Maven Central; this script compiles the real
# one from a checkout of YCSB's source (tag 0.17.0) in YCSB_SRC, with the drivers from Maven Central (pom.xml
# beside this file), then (1) through the CLI: ycsbctl loads with dataintegrity=true and the binding reads and
# VERIFYs every record, then the binding loads and ycsbctl reads and VERIFYs; (2) runs that test module with
# the real binding in place of the twin (YCSB_JDBC_CLASSES).
#   YCSB_SRC=~/src/YCSB bash infra/ycsb-jdbc/interop.sh [postgresql mariadb sqlite]
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${YCSB_SRC:?set YCSB_SRC to a checkout of github.com/brianfrankcooper/YCSB at tag 0.17.0}"
Y=.venv/bin/ycsbctl; cache=.cache/ycsb-jdbc
ls $cache/lib/postgresql-*.jar >/dev/null 2>&1 || mvn -q -B -f infra/ycsb-jdbc/pom.xml dependency:copy-dependencies
ls .cache/ycsb-core/lib/core-0.17.0.jar >/dev/null 2>&1 || mvn -q -B -f infra/ycsb/pom.xml dependency:copy-dependencies
cp_libs=$(ls .cache/ycsb-core/lib/*.jar $cache/lib/*.jar | tr '\n' ':')
mkdir -p $cache/classes
java -m jdk.compiler/com.sun.tools.javac.Main -nowarn -d $cache/classes -cp "$cp_libs" $(find "$YCSB_SRC/jdbc/src/main/java" -name '*.java') 2>/dev/null
CP="$cache/classes:$cp_libs"
props=(-p workload=site.ycsb.workloads.CoreWorkload -p recordcount=1000 -p operationcount=2000 -p readproportion=1
       -p updateproportion=0 -p requestdistribution=uniform -p readallfields=false -p dataintegrity=true -threads 2)
ycsb() { java -cp "$CP" site.ycsb.Client "$@" -db site.ycsb.db.JdbcDBClient "${props[@]}" 2>&1 | grep -E 'Return=|Exception'; }
log=$(mktemp)
trap '$Y down ${targets[*]} >/dev/null 2>&1 || true' EXIT
targets=(${@:-postgresql mariadb sqlite})
for t in "${targets[@]}"; do
  url=$($Y up "$t" --backend local 2>/dev/null | awk -F'\t' '{print $2}')
  jdbc=$(.venv/bin/python -c "import sys; from ycsbctl.stores import registry as r; n, p = r.for_url(sys.argv[1]).ycsb_binding(sys.argv[1], 5); print(' '.join(f'-p {k}={v}' for k, v in p.items()))" "$url")
  echo "== $t: ycsbctl loads, YCSB's jdbc binding reads and verifies"
  $Y load workload-c --target "$url" -p recordcount=1000 -p dataintegrity=true --threads 4 --allow-concurrent \
     --out "$(mktemp -d)/l" >"$log" 2>&1 || { tail -5 "$log"; exit 1; }
  ycsb -t $jdbc
  echo "== $t: YCSB's jdbc binding loads, ycsbctl reads and verifies"
  .venv/bin/python -c "import sys; from ycsbctl.stores import registry as r; p = r.for_url(sys.argv[1]); p.query(sys.argv[1], 'DELETE FROM usertable', 30)" "$url"
  ycsb -load $jdbc
  $Y run workload-c --target "$url" -p recordcount=1000 -p operationcount=2000 -p dataintegrity=true --threads 4 \
     --allow-concurrent --out "$(mktemp -d)/r" 2>&1 | grep -E 'Return='
done
echo "== tests/stores/test_sql_ycsb_interop.py with YCSB's jdbc binding in place of the twin"
YCSB_JDBC_CLASSES="$PWD/$cache/classes" .venv/bin/python -m pytest -q tests/stores/test_sql_ycsb_interop.py
