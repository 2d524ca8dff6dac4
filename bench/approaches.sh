# shellcheck shell=sh
# The table bench/approaches, for bench/run (bash) and bench/guest.sh (busybox
# sh).  Source it with BENCH_DIR set to the directory that holds the table.

# approach_rows: NAME|NAMESPACE|MEMMAP_INIT|STAGES|NEEDS, one line per
# approach, in row order, fields trimmed
approach_rows() {
	sed -e 's/#.*//' -e 's/[[:space:]]*|[[:space:]]*/|/g' -e 's/^[[:space:]]*//' \
		-e 's/[[:space:]]*$//' -e '/^$/d' "$BENCH_DIR/approaches"
}

# approaches [STAGE]: the names, in row order; with STAGE, those that measure it
# shellcheck disable=SC2120 # STAGE is optional
approaches() {
	approach_rows | awk -F'|' -v st="${1:-}" \
		'st == "" || (" " $4 " ") ~ (" " st " ") { print $1 }' | tr '\n' ' ' | sed 's/ $//'
}

# approach_field NAME FIELD: FIELD (namespace, memmap_init, stages, needs) of NAME
approach_field() {
	approach_rows | awk -F'|' -v a="$1" -v f="$2" '$1 == a {
		n = f == "namespace" ? 2 : f == "memmap_init" ? 3 : f == "stages" ? 4 : f == "needs" ? 5 : 0
		if (n) { print $n; found = 1 } }
		END { if (!found) exit 1 }'
}

# approach_ns_args NAME MODE: its ndctl create-namespace arguments, MODE fsdax or
# devdax
approach_ns_args() { approach_field "$1" namespace | sed "s/MODE/$2/"; }

# approach_has_dax NAME: whether its namespace has a fsdax and a devdax mode
approach_has_dax() { approach_field "$1" namespace | grep -q MODE; }
