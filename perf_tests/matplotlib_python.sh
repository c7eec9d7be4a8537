# Sourced by the run_*.sh scripts: sets `python` to the first Python that has
# matplotlib (Debian's, or the GPU image's python3), or "" when none has.
python=""
for candidate in /usr/bin/python3 python3; do
  if command -v "$candidate" > /dev/null 2>&1 && "$candidate" -c 'import matplotlib' > /dev/null 2>&1; then
    python=$candidate
    break
  fi
done
