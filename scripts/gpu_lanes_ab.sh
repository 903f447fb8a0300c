#!/usr/bin/env bash
# On the lent x2 machine (carry [".deps", ".ab"]): scripts/gpu_lanes_ab.list through the CLI of
# a base tree (.ab/base.tar.gz: `git archive BASE -- . ':!tests/data' ':!docs' | gzip`) and
# this tree's, alternating (scripts/gpu_ab.sh), ROUNDS rounds (default 2).
set -uo pipefail
mkdir -p /tmp/base && tar xzf .ab/base.tar.gz -C /tmp/base
ROUNDS=${ROUNDS:-2} bash scripts/gpu_ab.sh /tmp/base "${LIST:-scripts/gpu_lanes_ab.list}" >/dev/null 2>&1
grep -E "^== |^-- |^receive \+ decode \+|rc=[1-9]" "$OUT/ab.log" | cut -c1-140
