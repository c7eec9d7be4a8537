# Common set-up of session 34's device calls: binaries travel as .xz, results go to $OUT/res.tgz.
set -u
R=$OUT/res
mkdir -p $R /tmp/bin
for f in build-dev34/*.xz; do [ -e "$f" ] && xz -dc "$f" > /tmp/bin/$(basename "$f" .xz) && chmod +x /tmp/bin/$(basename "$f" .xz); done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $R/gpu.txt
date -u +%Y-%m-%dT%H:%M:%SZ > $R/date.txt
finish() { tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R; }
